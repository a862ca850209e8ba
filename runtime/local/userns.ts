/**
 * Unprivileged sandbox users (Hangar runs as root). Each sandbox gets a user namespace that
 * maps its uids and gids 0..size-1 to the host range start..start+size-1 (never host root),
 * owned by a per-sandbox "slot" uid outside that range: a helper started as the slot uid
 * creates the namespace, Hangar writes the maps (only a privileged process may map a range),
 * and bubblewrap, started as the slot uid, joins it with --userns. Files of the image are
 * shifted into the same range when it is unpacked. See docs/security.md.
 */
import { spawn } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { readlink, writeFile } from "node:fs/promises";

export interface IdRange {
  /** First host uid/gid of the range sandbox id 0 maps to. */
  start: number;
  size: number;
}

export interface SlotPool {
  readonly base: number;
  readonly size: number;
  acquire(): number;
  release(uid: number): void;
  inUse(): number;
}

/** Slot uids base..base+count-1, lowest free first. */
export function slotPool(base: number, count: number): SlotPool {
  const used = new Set<number>();
  let hint = 0;
  return {
    base,
    size: count,
    acquire() {
      for (let i = 0; i < count; i++) {
        const n = (hint + i) % count;
        if (!used.has(n)) {
          used.add(n);
          hint = n + 1;
          return base + n;
        }
      }
      throw new Error(`all ${count} sandbox slot uids are in use`);
    },
    release(uid) {
      used.delete(uid - base);
    },
    inUse: () => used.size,
  };
}

/** The lines written to uid_map and gid_map. */
export const idMap = (r: IdRange) => `0 ${r.start} ${r.size}\n`;

/**
 * Creates a user namespace owned by `slotUid` with ids 0.. mapped to `range`, and returns an
 * open fd on it (give it to bubblewrap's --userns; close it once bubblewrap started).
 */
export async function createUserNs(
  tools: { setpriv: string; unshare: string; sleep: string },
  slotUid: number,
  range: IdRange,
): Promise<number> {
  const helper = spawn(
    tools.setpriv,
    ["--reuid", String(slotUid), "--regid", String(slotUid), "--clear-groups", "--", tools.unshare, "--user", "--", tools.sleep, "30"],
    { stdio: "ignore" },
  );
  try {
    const pid = await new Promise<number>((resolve, reject) => {
      helper.once("spawn", () => resolve(helper.pid as number));
      helper.once("error", reject);
    });
    const own = await readlink("/proc/self/ns/user");
    const until = Date.now() + 5000;
    for (;;) {
      const ns = await readlink(`/proc/${pid}/ns/user`).catch(() => own);
      if (ns !== own) break;
      if (helper.exitCode !== null || Date.now() > until)
        throw new Error(
          `could not create the sandbox's user namespace (helper ${helper.exitCode === null ? "timed out" : `exited ${helper.exitCode}`})`,
        );
      await new Promise((r) => setTimeout(r, 1));
    }
    await writeFile(`/proc/${pid}/uid_map`, idMap(range));
    await writeFile(`/proc/${pid}/gid_map`, idMap(range));
    return openSync(`/proc/${pid}/ns/user`, "r");
  } finally {
    helper.kill("SIGKILL");
  }
}

export const closeFd = (fd: number | undefined) => {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
};
