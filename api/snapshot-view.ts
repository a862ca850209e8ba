/** Snapshot records -> proto FileSystemSnapshot (pure). */
import type { SnapshotRecord } from "../core/snapshots.js";
import type { FileSystemSnapshot } from "./generated/coreweave/sandbox/v1/FileSystemSnapshot.js";
import { timestamp } from "./sandbox-view.js";

export function toProtoSnapshot(s: SnapshotRecord): FileSystemSnapshot {
  return {
    file_system_snapshot_id: s.id,
    state: `SNAPSHOT_STATE_${s.state}`,
    state_reason: s.stateReason,
    size_bytes: String(s.sizeBytes),
    source_sandbox_id: s.sourceSandboxId,
    trigger: s.trigger === "MANUAL" ? "SNAPSHOT_TRIGGER_MANUAL" : "SNAPSHOT_TRIGGER_ON_DELETE",
    create_time: timestamp(s.createdAtMs),
    ...(s.completedAtMs !== undefined ? { complete_time: timestamp(s.completedAtMs) } : {}),
    source_volume_name: s.sourceVolume,
    object_bucket: "",
    updated_at: timestamp(s.completedAtMs ?? s.createdAtMs),
    request_id: s.requestId ?? "",
  };
}
