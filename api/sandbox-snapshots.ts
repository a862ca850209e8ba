/** File-system snapshots (controller/snapshots.ts, ADR 0018): create one of a sandbox's scratch volume, get, list, delete. */
import { errors } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import type { CreateFileSystemSnapshotRequest__Output } from "./generated/coreweave/sandbox/v1/CreateFileSystemSnapshotRequest.js";
import type { DeleteFileSystemSnapshotRequest__Output } from "./generated/coreweave/sandbox/v1/DeleteFileSystemSnapshotRequest.js";
import type { GetFileSystemSnapshotRequest__Output } from "./generated/coreweave/sandbox/v1/GetFileSystemSnapshotRequest.js";
import type { ListFileSystemSnapshotsRequest__Output } from "./generated/coreweave/sandbox/v1/ListFileSystemSnapshotsRequest.js";
import { LIMITS } from "./limits.js";
import { toProtoSnapshot } from "./snapshot-view.js";
import { sandboxId } from "./spec.js";

const snapshotId = (id: string | undefined) => {
  if (!id) throw errors.invalidField("file_system_snapshot_id", "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField("file_system_snapshot_id", `at most ${LIMITS.idLength} characters`);
  return id;
};

export function createSnapshotHandlers(controller: Controller) {
  const fss = () => Promise.reject(errors.snapshotsNotSupported());
  return {
    async create(req: CreateFileSystemSnapshotRequest__Output, ctx: CallContext) {
      const id = sandboxId(req.sandbox_id);
      if ((req.request_id ?? "").length > LIMITS.requestIdLength)
        throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
      await controller.ensure(id, ctx.tenant);
      controller.present(ctx.tenant, id); // an unknown sandbox is NOT_FOUND, as everywhere
      if (!controller.snapshots.enabled()) return fss();
      const snap = await controller.snapshot(ctx.tenant, id, req.scratch_volume_name || undefined, "MANUAL", req.request_id ?? "", false);
      ctx.log.info({ sandbox_id: id, snapshot_id: snap.id }, "snapshot started");
      return toProtoSnapshot(snap);
    },
    async get(req: GetFileSystemSnapshotRequest__Output, ctx: CallContext) {
      return toProtoSnapshot(await controller.snapshots.get(ctx.tenant, snapshotId(req.file_system_snapshot_id)));
    },
    async list(req: ListFileSystemSnapshotsRequest__Output, ctx: CallContext) {
      if ((req.page_size ?? 0) < 0) throw errors.invalidField("page_size", "must not be negative");
      const all = await controller.snapshots.list(ctx.tenant, req.source_sandbox_id || undefined);
      const size = Math.min(req.page_size || 100, 1000);
      const start = req.page_token ? all.findIndex((x) => x.id === req.page_token) : 0;
      if (start < 0) throw errors.invalidField("page_token", "not a page token from a previous response");
      return { file_system_snapshots: all.slice(start, start + size).map(toProtoSnapshot), next_page_token: all[start + size]?.id ?? "" };
    },
    async remove(req: DeleteFileSystemSnapshotRequest__Output, ctx: CallContext) {
      const r = await controller.snapshots.remove(ctx.tenant, snapshotId(req.file_system_snapshot_id), !!req.allow_missing);
      return r ? toProtoSnapshot(r) : {};
    },
  };
}
