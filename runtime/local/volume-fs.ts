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
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { parseQuantity } from "../../core/quantity.js";

/** The smallest volume the local runtime makes a file system for (mkfs.ext4 needs a few hundred KiB). */
export const MIN_VOLUME_BYTES = 1024 * 1024;

/** argv of mkfs for a volume image whose root belongs to uid:gid. */
export const mkfsArgv = (mkfs: string, image: string, uid: number, gid: number) => [mkfs, "-q", "-F", "-O", "^has_journal,^resize_inode", "-m", "0", "-E", `root_owner=${uid}:${gid},lazy_itable_init=1`, image];

export async function makeVolumeImage(o: { mkfs: string; image: string; size: string; name: string; uid: number; gid: number }): Promise<string> {
  const bytes = parseQuantity(o.size) ?? 0;
  if (bytes < MIN_VOLUME_BYTES) throw errors.invalidField("scratch.size", `volume ${o.name.slice(0, 64)}: ${o.size} is below the local runtime's smallest volume, 1Mi`);
  await mkdir(path.dirname(o.image), { recursive: true, mode: 0o700 });
  const f = await open(o.image, "w", 0o600);
  try {
    await f.truncate(Math.ceil(bytes));
  } finally {
    await f.close();
  }
  const argv = mkfsArgv(o.mkfs, o.image, o.uid, o.gid);
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
  if (code !== 0) throw errors.internal(`could not make the file system of volume ${o.name.slice(0, 64)} (${o.mkfs} exited ${code}: ${err.trim()})`);
  return o.image;
}
