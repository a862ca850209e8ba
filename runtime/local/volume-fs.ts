/**
 * Sized scratch volumes on the local runtime (Hangar is root): each is an ext4 file system of the
 * volume's size in a sparse file under the sandbox's directory, mounted (loop, nosuid, nodev) in the
 * sandbox's own mount namespace before it starts, so a write past the size fails with ENOSPC instead
 * of filling the host's disk. No journal, no reserved blocks, no room to grow (^resize_inode: 228 KiB
 * of the host's disk for 10 GiB instead of 4.3 MiB), inode tables never zeroed (noinit_itable at mount):
 * the sandbox gets the size, less the file system's own tables (about 1-2%). The file goes with the
 * sandbox's directory.
 */
import { spawn } from "node:child_process";
import { chmod, chown, mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { parseQuantity } from "../../core/quantity.js";

/** The smallest volume the local runtime makes a file system for (mkfs.ext4 needs a few hundred KiB). */
export const MIN_VOLUME_BYTES = 1024 * 1024;

/** argv of mkfs for a volume image whose root belongs to uid:gid. */
export const mkfsArgv = (mkfs: string, image: string, uid: number, gid: number, from?: string) => [
  mkfs,
  "-q",
  "-F",
  "-O",
  "^has_journal,^resize_inode",
  "-m",
  "0",
  "-E",
  `root_owner=${uid}:${gid},lazy_itable_init=1`,
  ...(from ? ["-d", from] : []),
  image,
];

/** `from`: a directory whose tree (owners and modes kept) the new file system starts with (mkfs -d). */
export async function makeVolumeImage(o: {
  mkfs: string;
  image: string;
  size: string;
  name: string;
  uid: number;
  gid: number;
  from?: string;
}): Promise<string> {
  const bytes = parseQuantity(o.size) ?? 0;
  if (bytes < MIN_VOLUME_BYTES)
    throw errors.invalidField("scratch.size", `volume ${o.name.slice(0, 64)}: ${o.size} is below the local runtime's smallest volume, 1Mi`);
  await mkdir(path.dirname(o.image), { recursive: true, mode: 0o700 });
  const f = await open(o.image, "w", 0o600);
  try {
    await f.truncate(Math.ceil(bytes));
  } finally {
    await f.close();
  }
  const argv = mkfsArgv(o.mkfs, o.image, o.uid, o.gid, o.from);
  const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr?.on("data", (b: Buffer) => (err = (err + b.toString()).slice(-500)));
  const code = await new Promise<number>((res) => {
    child.once("error", (e) => {
      err = e.message;
      res(127);
    });
    child.once("close", (c) => res(c ?? 1));
  });
  if (code !== 0)
    throw errors.internal(`could not make the file system of volume ${o.name.slice(0, 64)} (${o.mkfs} exited ${code}: ${err.trim()})`);
  return o.image;
}

/**
 * Sandbox disks made ahead (ADR 0027): a few formatted images wait in `dir`, so a start renames one
 * into place instead of running mkfs on its path (a process spawn and a format: 30-45 ms of a create
 * on this VM). Taken ones are replaced in the background; when none is ready the start formats its own.
 */
export interface DiskDir {
  name: string;
  uid: number;
  gid: number;
  mode: number;
}

export function diskSpares(o: {
  dir: string;
  mkfs: string;
  bytes: number;
  count: number;
  layout: DiskDir[];
  onError?: (e: unknown) => void;
}) {
  const ready: string[] = [];
  let seq = 0;
  let filling = false;
  // Every disk starts with the layout (a start then only mounts it: no process per directory).
  const template = path.join(o.dir, "layout");
  const prepared = (async () => {
    await rm(o.dir, { recursive: true, force: true });
    await mkdir(o.dir, { recursive: true, mode: 0o700 });
    await mkdir(template, { mode: 0o700 });
    for (const d of o.layout) {
      const p = path.join(template, d.name);
      await mkdir(p);
      await chown(p, d.uid, d.gid);
      await chmod(p, d.mode & 0o7777);
    }
  })();
  prepared.catch((e: unknown) => o.onError?.(e));
  const make = async (image: string, name: string) => {
    await prepared;
    return makeVolumeImage({ mkfs: o.mkfs, image, size: String(o.bytes), name, uid: 0, gid: 0, from: template });
  };
  async function fill(): Promise<void> {
    if (filling) return;
    filling = true;
    try {
      await prepared;
      while (ready.length < o.count) {
        const image = path.join(o.dir, `${++seq}.img`);
        await make(image, "(a spare sandbox disk)");
        ready.push(image);
      }
    } catch (e) {
      o.onError?.(e);
    } finally {
      filling = false;
    }
  }
  void fill();
  return {
    /** A formatted image of the disk's size at `dest` (root owned by 0:0). */
    async take(dest: string): Promise<string> {
      const spare = ready.shift();
      void fill();
      if (spare) {
        try {
          await rename(spare, dest);
          return dest;
        } catch {
          // gone (a restart's sweep): format one below
        }
      }
      return make(dest, "(the sandbox's own disk)");
    },
    ready: () => ready.length,
  };
}
