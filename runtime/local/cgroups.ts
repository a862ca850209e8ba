/**
 * Resource caps and the kill switch for local sandboxes. Caps: cgroup v1 (memory, pids, cpu)
 * or v2. Where the hierarchy is not writable at all (Hangar is not root) the sandbox runs
 * uncapped and the runtime says so in the sandbox's image note; once it is writable, a cap that
 * cannot be applied fails the start: one odd value never silently drops the others.
 * Kill: every process of a sandbox (and of each exec, in a leaf of its own) is also in a cgroup
 * that can be killed at once, daemons and fork bombs included: `cgroup.kill` on cgroup v2 (a
 * pure v2 host, or the controller-less v2 mount of a hybrid host at <root>/unified), else the
 * v1 freezer (freeze, SIGKILL every member, thaw).
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { KillFailed, retryKill } from "../../core/kill.js";

export interface Caps {
  memoryBytes?: number;
  cpuMillicores?: number;
  pidsMax: number;
}

const quota = (millicores: number) => Math.max(MIN_CFS_QUOTA_US, millicores * 100);

export interface CgroupLeaf {
  procsFiles: string[];
  /** SIGKILLs every process in the leaf at once and waits until none is left; rejects (KillFailed) when some stay after the retries. */
  kill(): Promise<void>;
  remove(): Promise<void>;
}

export interface CgroupSet {
  procsFiles: string[];
  note: string;
  /** SIGKILLs every process of the sandbox at once and waits until none is left; false when there is no kill cgroup; rejects (KillFailed) when some stay after the retries. */
  kill(): Promise<boolean>;
  /** A child cgroup for one exec (same caps): its kill() takes exactly that exec's processes, daemons included. */
  leaf(name: string): Promise<CgroupLeaf>;
  remove(): Promise<void>;
}

type KillKind = "v2" | "freezer";

/**
 * Removes one (empty) cgroup directory. Gone already is done (an exec's leaf removes itself when
 * it ends); busy is retried for up to 1 s while its last processes exit.
 */
export async function removeCgroupDir(dir: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    try {
      await rmdir(dir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Each kill try waits this long for the cgroup to empty; then it is tried again (LOCAL_KILL_DELAYS_MS), then it fails. */
const KILL_SETTLE_MS = 2000;
/** Pauses before the retries of a local kill: a few, short (the kernel is here; no restart to wait out). */
export const LOCAL_KILL_DELAYS_MS = [50, 200, 800];

/**
 * Kills every process in `dir` (and below) and waits until it is empty. A kill that does not
 * empty it (the kill file could not be written, a member survived) is tried again after each of
 * `delaysMs`, then rejects with KillFailed naming the cgroup and why: never a quiet return with
 * the cgroup still populated.
 */
export async function killCgroup(dir: string, kind: KillKind, o: { settleMs?: number; delaysMs?: number[] } = {}): Promise<void> {
  const settleMs = o.settleMs ?? KILL_SETTLE_MS;
  await retryKill(() => (kind === "v2" ? killV2(dir, settleMs) : killFreezer(dir, settleMs)), {
    delays: o.delaysMs ?? LOCAL_KILL_DELAYS_MS,
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failed = (dir: string, what: string, why: string, cause?: unknown) =>
  new KillFailed(`could not kill the processes of cgroup ${dir}: ${what}`, why, cause);

/** cgroup v2: one write to cgroup.kill, then `populated 0` in cgroup.events (a cgroup already gone is empty). */
async function killV2(dir: string, settleMs: number): Promise<void> {
  const until = Date.now() + settleMs;
  let writeError: unknown;
  await writeFile(path.join(dir, "cgroup.kill"), "1").catch((e: unknown) => (writeError = e));
  let events = "";
  for (;;) {
    events = await readFile(path.join(dir, "cgroup.events"), "utf8").catch((e: NodeJS.ErrnoException) =>
      e.code === "ENOENT" ? "populated 0" : `unreadable: ${e.message}`,
    );
    if (/^populated 0$/m.test(events)) return;
    if (Date.now() >= until) break;
    await pause(5);
  }
  if (writeError)
    throw failed(
      dir,
      `writing cgroup.kill failed (${(writeError as Error).message}) and it still holds processes`,
      "write_failed",
      writeError,
    );
  throw failed(dir, `still populated ${settleMs} ms after cgroup.kill (${events.replace(/\s+/g, " ").trim()})`, "still_running");
}

/** Every pid in `d` and its sub-cgroups; a cgroup gone reads as empty. */
async function members(d: string): Promise<number[]> {
  const own = (await readFile(path.join(d, "cgroup.procs"), "utf8").catch(() => "")).split("\n").filter(Boolean).map(Number);
  const subs = (await readdir(d, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory());
  return [...own, ...(await Promise.all(subs.map((e) => members(path.join(d, e.name))))).flat()];
}

/** cgroup v1 freezer: frozen processes cannot fork, so one pass over the members gets them all. */
async function killFreezer(dir: string, settleMs: number): Promise<void> {
  const until = Date.now() + settleMs;
  let freezeError: unknown;
  await writeFile(path.join(dir, "freezer.state"), "FROZEN").catch((e: unknown) => (freezeError = e));
  while (
    !freezeError &&
    Date.now() < until &&
    !(await readFile(path.join(dir, "freezer.state"), "utf8").catch(() => "FROZEN")).startsWith("FROZEN")
  )
    await pause(2);
  for (const pid of await members(dir)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  await writeFile(path.join(dir, "freezer.state"), "THAWED").catch(() => undefined);
  let left = await members(dir);
  while (left.length > 0 && Date.now() < until) {
    await pause(5);
    left = await members(dir);
  }
  if (left.length === 0) return;
  const shown = left.slice(0, 8).join(" ") + (left.length > 8 ? " ..." : "");
  if (freezeError)
    throw failed(dir, `freezing failed (${(freezeError as Error).message}) and pids ${shown} are left`, "write_failed", freezeError);
  throw failed(dir, `pids ${shown} still there ${settleMs} ms after SIGKILL`, "still_running");
}

/** The kernel refuses a CFS quota under 1 ms per period: like the kubelet, a smaller CPU limit gets that minimum (10m). */
export const MIN_CFS_QUOTA_US = 1000;

export async function createCgroups(root: string, name: string, caps: Caps): Promise<CgroupSet> {
  const dirs: string[] = [];
  const v2 = existsSync(path.join(root, "cgroup.controllers"));
  const applied: string[] = [];
  const setup = async (dir: string, files: [string, string][]) => {
    await mkdir(dir, { recursive: true });
    dirs.push(dir);
    for (const [f, v] of files) {
      await writeFile(path.join(dir, f), v);
      applied.push(`${f}=${v}`);
    }
  };
  let killer: { dir: string; kind: KillKind } | undefined;
  try {
    if (v2) {
      const files: [string, string][] = [["pids.max", String(caps.pidsMax)]];
      if (caps.memoryBytes) files.push(["memory.max", String(caps.memoryBytes)]);
      if (caps.cpuMillicores) files.push(["cpu.max", `${quota(caps.cpuMillicores)} 100000`]);
      await setup(path.join(root, "hangar", name), files);
      killer = { dir: path.join(root, "hangar", name), kind: "v2" };
    } else {
      await setup(path.join(root, "pids", "hangar", name), [["pids.max", String(caps.pidsMax)]]);
      if (caps.memoryBytes) await setup(path.join(root, "memory", "hangar", name), [["memory.limit_in_bytes", String(caps.memoryBytes)]]);
      if (caps.cpuMillicores)
        await setup(path.join(root, "cpu", "hangar", name), [
          ["cpu.cfs_period_us", "100000"],
          ["cpu.cfs_quota_us", String(quota(caps.cpuMillicores))],
        ]);
      if (existsSync(path.join(root, "unified", "cgroup.kill")) || existsSync(path.join(root, "unified", "cgroup.procs"))) {
        killer = { dir: path.join(root, "unified", "hangar", name), kind: "v2" };
      } else if (existsSync(path.join(root, "freezer"))) {
        killer = { dir: path.join(root, "freezer", "hangar", name), kind: "freezer" };
      }
      if (killer) await setup(killer.dir, []);
    }
  } catch (e) {
    for (const d of dirs.reverse()) await rmdir(d).catch(() => undefined);
    const code = (e as NodeJS.ErrnoException).code;
    if (dirs.length === 0 && (code === "EACCES" || code === "EROFS" || code === "EPERM")) {
      return uncapped((e as Error).message);
    }
    throw new Error(
      `could not apply the sandbox's resource caps (${applied.join(", ") || "none applied"} before the failure): ${(e as Error).message}`,
      { cause: e },
    );
  }
  return cgroupSet(dirs, applied, killer);
}

/** cgroups this process cannot write: the sandbox runs without caps, said in its note. */
const uncapped = (why: string): CgroupSet => ({
  procsFiles: [],
  note: `no resource caps (cgroups not writable: ${why})`,
  kill: async () => false,
  leaf: async () => ({ procsFiles: [], kill: async () => undefined, remove: async () => undefined }),
  remove: async () => undefined,
});

/** The sandbox's cgroups (dirs, made), killed through `k` (cgroup.kill or the freezer) and with a leaf per exec below it. */
function cgroupSet(dirs: string[], applied: string[], k: { dir: string; kind: KillKind } | undefined): CgroupSet {
  const procsFiles = dirs.map((d) => path.join(d, "cgroup.procs"));
  const leaves: string[] = [];
  return {
    procsFiles,
    note: `cgroup caps ${applied.join(", ")}${k ? `; kill by ${k.kind === "v2" ? "cgroup.kill" : "freezer"}` : ""}`,
    kill: async () => {
      if (!k) return false;
      await killCgroup(k.dir, k.kind);
      return true;
    },
    leaf: async (leafName) => {
      if (!k) return { procsFiles, kill: async () => undefined, remove: async () => undefined };
      const dir = path.join(k.dir, leafName);
      await mkdir(dir);
      leaves.push(dir);
      return {
        // Caps stay the sandbox's (v1: its cap cgroups; v2: the leaf is below them).
        procsFiles: [...procsFiles.filter((f) => path.dirname(f) !== k.dir), path.join(dir, "cgroup.procs")],
        kill: () => killCgroup(dir, k.kind),
        remove: () =>
          rmdir(dir).then(
            () => undefined,
            () => undefined,
          ),
      };
    },
    remove: async () => {
      for (const d of [...leaves.reverse(), ...dirs.reverse()]) await removeCgroupDir(d);
    },
  };
}
