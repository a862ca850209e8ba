/**
 * Copy-on-write restores on Kubernetes (ADR 0029): a restored scratch volume is an inline CSI
 * volume of hangar-forkcsi, the node plugin (forkcsi/), instead of an emptyDir that `tar -x`
 * fills. The plugin unpacks the snapshot's archive once per node into an ext4 image and gives each
 * volume a reflink clone of it, so a fork of N is one unpack and N clones. The plugin reads the
 * archive where Hangar's snapshot store keeps it (the same path on the node: the chart mounts the
 * store there too) and serves only pods of the sandbox namespace.
 */
import { createHash } from "node:crypto";
import type { CoreV1Api, V1CSIVolumeSource } from "@kubernetes/client-node";
import { parseQuantity } from "../../../core/quantity.js";
import type { SandboxSpec } from "../../../core/types.js";
import type { ArchiveSource } from "../../types.js";
import { checkArchive } from "./archive-check.js";
import { ATTR_ARCHIVE, ATTR_LAYER, ATTR_SIZE } from "../pod/keys.js";
export { ATTR_ARCHIVE, ATTR_LAYER, ATTR_SIZE };

/** A restored volume's CSI source (pure): its layer is named by the hash of Hangar's layer key. */
export function forkVolumeSource(driver: string, layerKey: string, archive: string, size?: string): V1CSIVolumeSource {
  const bytes = size ? Math.ceil(parseQuantity(size) ?? 0) : 0;
  return {
    driver,
    volumeAttributes: {
      [ATTR_ARCHIVE]: archive,
      [ATTR_LAYER]: createHash("sha256").update(layerKey).digest("hex"),
      ...(bytes > 0 ? { [ATTR_SIZE]: String(bytes) } : {}),
    },
  };
}

/**
 * The runtime's layers (Runtime.layers) when a fork driver is configured: `ensure` only notes
 * where the snapshot's archive is (the node plugin unpacks it, on the node the pod lands on);
 * `csiVolumes` names the CSI source of each restored volume of a spec whose archive is noted.
 */
export function createForkVolumes(driver: string, max = 10_000) {
  const archives = new Map<string, string>();
  return {
    layers: {
      async ensure(key: string, archive: ArchiveSource): Promise<void> {
        if (!archive.path) throw new Error("the snapshot store keeps no archive file that the node plugin could read");
        // Checked once per snapshot: one the plugin would refuse is restored with tar in the sandbox.
        if (!archives.has(key)) await checkArchive(archive.path);
        archives.delete(key);
        archives.set(key, archive.path);
        if (archives.size > max) archives.delete(archives.keys().next().value as string);
      },
      async drop(key: string): Promise<void> {
        archives.delete(key);
      },
    },
    csiVolumes(spec: SandboxSpec): Record<string, V1CSIVolumeSource> {
      const out: Record<string, V1CSIVolumeSource> = {};
      for (const v of spec.volumes) {
        const key = v.restore?.layer;
        const archive = key ? archives.get(key) : undefined;
        // The plugin makes no file system under 1 MiB: such a volume stays an emptyDir that tar fills.
        const bytes = v.size ? (parseQuantity(v.size) ?? 0) : 0;
        if (key && archive && !v.registered && (bytes === 0 || bytes >= 1024 * 1024))
          out[v.name] = forkVolumeSource(driver, key, archive, v.size);
      }
      return out;
    },
  };
}

/** The kubelet's last FailedMount message for a pod (the plugin's refusal), if events are readable. */
export async function mountFailure(core: CoreV1Api, namespace: string, pod: string): Promise<string | undefined> {
  try {
    const list = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${pod},reason=FailedMount` });
    const last = list.items.sort((a, b) => String(a.lastTimestamp ?? "").localeCompare(String(b.lastTimestamp ?? ""))).pop();
    return last?.message?.slice(0, 600);
  } catch {
    return undefined;
  }
}
