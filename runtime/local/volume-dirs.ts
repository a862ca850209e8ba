/**
 * Registered volumes on the local runtime: host directories the operator lists per tenant
 * (HANGAR_LOCAL_VOLUMES=tenant/id=/dir[:ro],...), bound into the sandboxes that name them. Hangar
 * never creates or chowns them: the operator gives the directory to the sandbox uid range
 * (HANGAR_LOCAL_ID_RANGE_START + the sandbox uid) where sandboxes are to write.
 */
import { stat } from "node:fs/promises";
import type { RegisteredVolume, VolumeRegistry } from "../../core/volumes.js";

export interface LocalVolume {
  tenant: string;
  id: string;
  dir: string;
  readOnly: boolean;
}

export function createDirVolumeRegistry(volumes: LocalVolume[], startedAtMs = Date.now()): VolumeRegistry {
  return {
    async list(tenant) {
      const out: RegisteredVolume[] = [];
      for (const v of volumes.filter((x) => x.tenant === tenant)) {
        const isDir = await stat(v.dir).then(
          (s) => s.isDirectory(),
          () => false,
        );
        out.push({
          id: v.id,
          tenant,
          readOnly: v.readOnly,
          accessModes: [v.readOnly ? "ReadOnlyMany" : "ReadWriteMany"],
          ready: isDir,
          reason: isDir ? `directory ${v.dir}` : `directory ${v.dir} does not exist`,
          source: { hostPath: v.dir },
          createdAtMs: startedAtMs,
        });
      }
      return out;
    },
  };
}
