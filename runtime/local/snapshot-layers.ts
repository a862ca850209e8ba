/**
 * Copy-on-write restores on the local runtime (Hangar is root; ADR 0026). A snapshot's archive is
 * unpacked once into a layer under the data dir, by tar confined as a sandbox is: its own user
 * namespace mapping the sandbox id range (ownership lands shifted, as the sandbox saw it; no device
 * node can be made), no network, only the layer writable and only /usr readable. Every sandbox
 * restored from the snapshot then mounts an overlay of its own over the layer: a fork of N is one
 * unpack and N mounts, and each fork's writes stay in its own upper dir.
 *
 * A layer is never removed under a sandbox that mounts it: `drop` removes it once its last sandbox
 * ended. Layers are a cache: all are removed at start (local sandboxes do not outlive Hangar) and
 * unpacked again at the next restore.
 */
import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import { createHash } from "node:crypto";
import { chmod, chown, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { ArchiveSource } from "../types.js";
import { asSlot } from "./bwrap-args.js";
import { closeFd, createUserNs, type IdRange, type SlotPool } from "./userns.js";

export interface LayerTools {
  bwrap: string;
  setpriv: string;
  unshare: string;
  sleep: string;
  tar: string;
}

export interface SnapshotLayers {
  /** Unpacks the archive into the layer `key` unless it is there; calls for one key share one unpack. */
  ensure(key: string, archive: ArchiveSource): Promise<void>;
  /** The layer's tree for a sandbox that mounts it (kept until `release(sandboxId)`); undefined: not unpacked. */
  use(key: string, sandboxId: string): string | undefined;
  release(sandboxId: string): Promise<void>;
  /** The snapshot is gone: the layer goes now, or when its last sandbox ends. */
  drop(key: string): Promise<void>;
}

/** argv of the confined unpack: tar as root of a user namespace open at fd 3, writing only `tree` (mounted at /layer). */
export function unpackArgv(t: LayerTools, slotUid: number, tree: string): string[] {
  return asSlot(t.setpriv, slotUid, [
    t.bwrap,
    "--userns",
    "3",
    "--uid",
    "0",
    "--gid",
    "0",
    "--ro-bind",
    "/usr",
    "/usr",
    "--symlink",
    "usr/bin",
    "/bin",
    "--symlink",
    "usr/lib",
    "/lib",
    "--symlink",
    "usr/lib64",
    "/lib64",
    "--bind",
    tree,
    "/layer",
    "--dev",
    "/dev",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--die-with-parent",
    "--new-session",
    // What tar needs to give each file the owner and mode the archive names, in the namespace only.
    "--cap-add",
    "CAP_CHOWN",
    "--cap-add",
    "CAP_FOWNER",
    "--cap-add",
    "CAP_DAC_OVERRIDE",
    "--cap-add",
    "CAP_FSETID",
    "--clearenv",
    "--chdir",
    "/layer",
    "--",
    t.tar,
    "-C",
    "/layer",
    "-xpf",
    "-",
  ]);
}

/** The directory name of a layer: its key hashed (keys carry tenant and snapshot ids). */
export const layerName = (key: string) => createHash("sha256").update(`layer\u0000${key}`).digest("hex").slice(0, 40);

interface LayerStoreOptions {
  dir: string;
  tools: LayerTools;
  range: IdRange;
  slots: SlotPool;
}

export async function createSnapshotLayers(o: LayerStoreOptions): Promise<SnapshotLayers> {
  await rm(o.dir, { recursive: true, force: true });
  // Slot uids (the unpack's namespace owner) traverse it to reach a .part tree; nothing here is listed to them.
  await mkdir(o.dir, { recursive: true, mode: 0o711 });
  await chmod(o.dir, 0o711);
  const unpacking = new Map<string, Promise<void>>();
  const users = new Map<string, string>(); // sandbox id -> layer name
  const doomed = new Set<string>();
  const treeOf = (name: string) => path.join(o.dir, name, "tree");

  async function sweepDoomed(name: string): Promise<void> {
    if (![...users.values()].includes(name) && doomed.delete(name)) await rm(path.join(o.dir, name), { recursive: true, force: true });
  }

  return {
    async ensure(key, archive) {
      const name = layerName(key);
      if (doomed.has(name)) throw new Error("the snapshot was deleted");
      const have = await stat(treeOf(name)).then(
        () => true,
        () => false,
      );
      if (have) return;
      let p = unpacking.get(name);
      if (!p) {
        p = unpackLayer(o, name, archive).finally(() => unpacking.delete(name));
        unpacking.set(name, p);
      }
      await p;
    },
    use(key, sandboxId) {
      const name = layerName(key);
      if (doomed.has(name) || unpacking.has(name)) return undefined;
      users.set(sandboxId, name);
      return treeOf(name);
    },
    async release(sandboxId) {
      const name = users.get(sandboxId);
      if (!name) return;
      users.delete(sandboxId);
      await sweepDoomed(name);
    },
    async drop(key) {
      const name = layerName(key);
      await unpacking.get(name)?.catch(() => undefined);
      doomed.add(name);
      await sweepDoomed(name);
    },
  };
}

/** Unpacks the archive into `<dir>/<name>.part` (tar confined in a user namespace a slot uid owns), renamed to `<dir>/<name>` when whole. */
async function unpackLayer(o: LayerStoreOptions, name: string, archive: ArchiveSource): Promise<void> {
  const part = path.join(o.dir, `${name}.part`);
  await rm(part, { recursive: true, force: true });
  await mkdir(path.join(part, "tree"), { recursive: true });
  await chmod(part, 0o711);
  await chown(path.join(part, "tree"), o.range.start, o.range.start);
  await chmod(path.join(part, "tree"), 0o700);
  const slot = o.slots.acquire();
  let fd: number | undefined;
  // tar reads a file of the store directly: piping it through this process costs 3-4x (1 GiB: 5.8 s against 1.4 s).
  let input: number | undefined;
  try {
    if (archive.path) input = openSync(archive.path, "r");
    fd = await createUserNs(o.tools, slot, o.range);
    const argv = unpackArgv(o.tools, slot, path.join(part, "tree"));
    const child = spawn(argv[0] as string, argv.slice(1), {
      stdio: [input ?? "pipe", "ignore", "pipe", fd],
      env: { PATH: "/usr/bin:/bin" },
    });
    closeFd(fd);
    closeFd(input);
    fd = input = undefined;
    let err = "";
    child.stderr?.on("data", (b: Buffer) => (err = (err + b.toString("utf8")).slice(-2000)));
    const exited = new Promise<number>((res) => child.once("close", (code) => res(code ?? 1)));
    if (child.stdin) {
      child.stdin.on("error", () => undefined);
      try {
        for await (const c of archive.open()) if (!child.stdin.write(c)) await new Promise((r) => child.stdin?.once("drain", r));
      } finally {
        child.stdin.end();
      }
    }
    const code = await exited;
    if (code !== 0) throw new Error(`unpacking the snapshot exited ${code}: ${err.trim().slice(-300)}`);
    // Root-only from here: overlays are mounted by Hangar, nobody else reads a layer on the host.
    await chmod(part, 0o700);
    await rename(part, path.join(o.dir, name));
  } catch (e) {
    await rm(part, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  } finally {
    closeFd(fd);
    closeFd(input);
    o.slots.release(slot);
  }
}
