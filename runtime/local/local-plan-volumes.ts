/**
 * Where each of a sandbox's volumes comes from, as a pure plan: the operator's directory, a
 * directory on the sandbox's own disk, a file system of the volume's size, an overlay over a
 * snapshot layer, or a plain directory of the sandbox's. runtime/local/local-launch.ts carries
 * the actions out, in order.
 */
import path from "node:path";
import { errors } from "../../core/errors.js";
import type { SandboxSpec } from "../../core/types.js";
import type { MountStep, SandboxPaths } from "./bwrap-args.js";

/** One thing to do for the volumes before the sandbox starts (in order). */
export type VolumeAction =
  /** A host directory made (mkdir -p) before the launch. */
  | { t: "mkdir"; path: string }
  /** A step of the sandbox's mount namespace (runtime/local/bwrap-args.ts withMounts). */
  | { t: "step"; step: MountStep }
  /** A file system image of the volume's size, made (mkfs) and mounted on target in the mount namespace. */
  | { t: "volumeFs"; mkfs: string; image: string; size: string; name: string; uid: number; gid: number; target: string }
  /** The upper and work dirs of an overlay over a snapshot layer: the upper owned as the layer's root; made in the mount namespace or on the host. */
  | { t: "upper"; tree: string; upper: string; work: string; inNamespace: boolean };

export interface VolumePlan {
  actions: VolumeAction[];
  mounts: SandboxPaths["volumes"];
  /** Volumes restored copy-on-write from a snapshot layer. */
  copyOnWrite: string[];
  /** Volumes on a file system of their own size. */
  sized: string[];
  /** Plain host directories of the sandbox's, owned by the sandbox user once its ids are mapped. */
  scratch: string[];
}

export interface VolumeInputs {
  spec: SandboxSpec;
  dir: string;
  /** Where the sandbox's own disk is mounted (Hangar root, HANGAR_LOCAL_DISK_BYTES). */
  disk?: string;
  /** The root is an overlay (Hangar root) and ids are mapped (users): sized volumes get file systems. */
  sizedFs: boolean;
  /** Volume name -> the snapshot layer's tree it is restored from, copy-on-write. */
  restored: Map<string, string>;
  sandboxUser: number;
  mkfs: string;
}

export function planVolumes(i: VolumeInputs): VolumePlan {
  const { spec, dir, disk } = i;
  const p: VolumePlan = { actions: [], mounts: [], copyOnWrite: [], sized: [], scratch: [] };
  const owned = (dirPath: string): VolumeAction => ({
    t: "step",
    step: { t: "dir", path: dirPath, uid: i.sandboxUser, gid: i.sandboxUser, mode: 0o755 },
  });
  /** Volume name -> where its own file system is mounted (a sized volume, Hangar root). */
  const sizedFs = new Map<string, string>();
  for (const v of spec.volumes) {
    if (v.registered) {
      p.mounts.push(registeredMount(v));
      continue;
    }
    const safe = v.name.replace(/[^A-Za-z0-9_.-]/g, "_");
    const tree = i.restored.get(v.name);
    // On the sandbox's own disk: an unsized volume that is not an overlay's mount point.
    const onDisk = disk && !v.size && !tree;
    const root = path.join(onDisk ? disk : dir, "volumes", safe);
    // sub_path was checked relative and without ".." (api/spec.ts); the volume is new, so it holds no links yet.
    const host = path.join(root, v.subPath ?? "");
    const mount = { host, path: v.mountPath, readOnly: v.readOnly };
    if (onDisk) {
      p.actions.push(owned(host));
      p.mounts.push(mount);
      continue;
    }
    p.actions.push({ t: "mkdir", path: root });
    // A sized volume (Hangar root) is a file system of its own, of that size: writes past it fail (ENOSPC).
    if (i.sizedFs && v.size && !sizedFs.has(v.name)) {
      const target = tree ? path.join(dir, "volume-fs", safe) : root;
      const image = path.join(dir, "volume-fs", `${safe}.img`);
      p.actions.push({ t: "volumeFs", mkfs: i.mkfs, image, size: v.size, name: v.name, uid: i.sandboxUser, gid: i.sandboxUser, target });
      sizedFs.set(v.name, target);
      p.sized.push(v.name);
    }
    const fs = sizedFs.get(v.name);
    if (tree && v.restore) {
      // The snapshot's layer below, this sandbox's own upper dir above (the upper's root as the tree's).
      const upper = fs ? path.join(fs, "upper") : path.join(disk ?? dir, "volume-upper", safe);
      const work = fs ? path.join(fs, "work") : path.join(disk ?? dir, "volume-work", safe);
      p.actions.push({ t: "upper", tree, upper, work, inNamespace: Boolean(fs || disk) });
      p.actions.push({ t: "step", step: { t: "overlay", lower: tree, upper, work, target: host } });
      p.copyOnWrite.push(v.name);
    } else if (fs) {
      // Made on the volume's file system once it is mounted; its root belongs to the sandbox user already.
      if (v.subPath) p.actions.push(owned(host));
    } else {
      p.actions.push({ t: "mkdir", path: host });
      p.scratch.push(host);
    }
    p.mounts.push(mount);
  }
  return p;
}

/** The operator's directory, as it is: never created, chowned or entered by a sub path (a sandbox that can write there could plant a link for the next one's sub path to follow). */
function registeredMount(v: SandboxSpec["volumes"][number]): SandboxPaths["volumes"][number] {
  const reg = v.registered as NonNullable<typeof v.registered>;
  const src = reg.source;
  if (!src || !("hostPath" in src)) throw errors.internal(`registered volume ${reg.id} has no directory`);
  if (v.subPath)
    throw errors.invalidField(
      `${reg.at}.sub_path`,
      "sub paths of registered volumes are not offered by the local runtime: mount the volume's root",
    );
  return { host: src.hostPath, path: v.mountPath, readOnly: v.readOnly };
}
