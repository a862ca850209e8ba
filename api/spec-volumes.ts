/** SandboxSpec.volumes and the primary container's mounts of them (scratch, registered, restored from a snapshot). */
import type { FieldViolation } from "../core/errors.js";
import { parseQuantity } from "../core/quantity.js";
import type { SandboxSpec } from "../core/types.js";
import { reservedMountPath } from "../core/volumes.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { LIMITS } from "./limits.js";
import { CONTROL, hasNul, validPath } from "./spec-text.js";

const VOLUME_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export interface Volume {
  name: string;
  size?: string;
  registered?: { id: string; at: string };
  restore?: { snapshotId: string; at: string };
}

export function volumesOf(list: NonNullable<SandboxSpec__Output["volumes"]>, base: string, v: FieldViolation[]): Volume[] {
  const volumes = list.map((vol, i) => {
    if (!vol.name || !VOLUME_NAME.test(vol.name))
      v.push({ field: `${base}.volumes[${i}].name`, description: "must be a DNS label (a-z, 0-9, '-')" });
    const restoreId = vol.scratch?.restore_from_snapshot_id ?? "";
    if (restoreId && (restoreId.length > LIMITS.idLength || CONTROL.test(restoreId)))
      v.push({
        field: `${base}.volumes[${i}].scratch.restore_from_snapshot_id`,
        description: "a snapshot id from ListFileSystemSnapshots",
      });
    if (vol.scratch?.size && parseQuantity(vol.scratch.size) === undefined)
      v.push({ field: `${base}.volumes[${i}].scratch.size`, description: "not a Kubernetes quantity" });
    const id = vol.volume_id ?? "";
    if (id && (id.length > LIMITS.idLength || CONTROL.test(id)))
      v.push({ field: `${base}.volumes[${i}].volume_id`, description: "a volume id from ListVolumes" });
    return {
      name: vol.name ?? "",
      size: vol.scratch?.size || undefined,
      ...(id ? { registered: { id, at: `${base}.volumes[${i}].volume_id` } } : {}),
      ...(restoreId ? { restore: { snapshotId: restoreId, at: `${base}.volumes[${i}].scratch.restore_from_snapshot_id` } } : {}),
    };
  });
  if (volumes.length > LIMITS.volumes) v.push({ field: `${base}.volumes`, description: `at most ${LIMITS.volumes} volumes` });
  return volumes;
}

/** The primary container's volume_mounts, each restored volume filled through one of them. */
export function primaryMounts(c: Container__Output, volumes: Volume[], cf: string, v: FieldViolation[]): SandboxSpec["volumes"] {
  const mounts = (c.volume_mounts ?? []).map((m, i) => {
    const vol = volumes.find((x) => x.name === m.volume);
    if (!vol) v.push({ field: `${cf}.volume_mounts[${i}].volume`, description: `no volume named "${m.volume ?? ""}" in spec.volumes` });
    const p = validPath(m.mount_path ?? "") ?? reservedMountPath(m.mount_path ?? "");
    if (p) v.push({ field: `${cf}.volume_mounts[${i}].mount_path`, description: p });
    const sub = m.sub_path ?? "";
    if (
      sub &&
      (sub.startsWith("/") || sub.split("/").some((x) => x === ".." || x === ".") || hasNul(sub) || sub.length > LIMITS.pathLength)
    ) {
      v.push({ field: `${cf}.volume_mounts[${i}].sub_path`, description: 'a relative path inside the volume, without "." or ".." parts' });
    }
    return {
      name: m.volume ?? "",
      mountPath: m.mount_path ?? "",
      size: vol?.size,
      ...(m.read_only ? { readOnly: true } : {}),
      ...(sub ? { subPath: sub.replace(/\/+$/, "") } : {}),
      ...(vol?.registered ? { registered: { ...vol.registered, at: `${cf}.volume_mounts[${i}]` } } : {}),
    };
  });
  // A restored volume is filled once, through one writable mount of its root on the primary.
  for (const vol of volumes) {
    if (!vol.restore) continue;
    const target = mounts.find((m) => m.name === vol.name && !m.readOnly && !m.subPath);
    if (!target)
      v.push({
        field: vol.restore.at,
        description: `volume ${vol.name} needs a writable mount of its root (no sub_path) on the primary container to be restored into`,
      });
    else (target as { restore?: unknown }).restore = vol.restore;
  }
  return mounts;
}
