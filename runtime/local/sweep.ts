/**
 * What a killed Hangar leaves behind, removed at the next start: the local runtime keeps no
 * sandbox across a restart (its sandboxes die with it: bubblewrap runs with --die-with-parent
 * and overlays live in the sandboxes' own mount namespaces), so everything under its data dir
 * and its cgroups belongs to sandboxes it no longer runs: their egress relays (pasta, recorded
 * in state.json with their start time so a reused pid is never hit), every process still in
 * their cgroups, the cgroups, and their directories.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { killFailures } from "../../core/kill.js";
import { killCgroup, removeCgroupDir } from "./cgroups.js";

export interface SandboxState {
  /** pid and /proc start time of the sandbox's pasta. */
  pasta?: { pid: number; start: string };
}

/** Field 22 of /proc/<pid>/stat: when the process started (clock ticks since boot). */
export async function startTime(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1").catch(() => "");
  return stat ? stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] : undefined;
}

export const writeState = (dir: string, s: SandboxState) => writeFile(path.join(dir, "state.json"), JSON.stringify(s));

/** The cgroup directories of one Hangar instance, in every hierarchy it uses. */
export function instanceCgroupDirs(root: string, instance: string): { dir: string; kill: boolean }[] {
  if (existsSync(path.join(root, "cgroup.controllers"))) return [{ dir: path.join(root, "hangar", instance), kill: true }];
  return [
    { dir: path.join(root, "unified", "hangar", instance), kill: true },
    { dir: path.join(root, "freezer", "hangar", instance), kill: false },
    ...["pids", "memory", "cpu"].map((c) => ({ dir: path.join(root, c, "hangar", instance), kill: false })),
  ];
}

async function rmdirDeep(dir: string): Promise<void> {
  const subs = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isDirectory());
  for (const s of subs) await rmdirDeep(path.join(dir, s.name));
  await removeCgroupDir(dir);
}

/**
 * Removes every leftover; returns how many sandboxes had left something. A leftover cgroup whose
 * processes cannot be killed is reported (counted, logged with the sandbox id) and left in place:
 * one stuck process of an earlier run must not stop every later start of Hangar.
 */
export async function sweepLeftovers(o: {
  dataDir: string;
  cgroupRoot: string;
  instance: string;
  kill?: { settleMs?: number; delaysMs?: number[] };
}): Promise<number> {
  const sandboxesDir = path.join(o.dataDir, "sandboxes");
  const ids = new Set<string>(await readdir(sandboxesDir).catch(() => [] as string[]));
  for (const id of ids) {
    const state = JSON.parse(await readFile(path.join(sandboxesDir, id, "state.json"), "utf8").catch(() => "{}")) as SandboxState;
    if (state.pasta && (await startTime(state.pasta.pid)) === state.pasta.start) {
      try {
        process.kill(state.pasta.pid, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  const stuck = new Set<string>();
  for (const { dir, kill } of instanceCgroupDirs(o.cgroupRoot, o.instance)) {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (!e.isDirectory()) continue;
      ids.add(e.name);
      const kind = kill ? "v2" : dir.includes(`${path.sep}freezer${path.sep}`) ? "freezer" : undefined;
      if (kind) {
        try {
          await killCgroup(path.join(dir, e.name), kind, o.kill);
        } catch (err) {
          stuck.add(e.name);
          killFailures.report("local", e.name, err, "a leftover sandbox of an earlier run of Hangar (its cgroup is left in place)");
        }
      }
      // A cgroup that still holds processes cannot be removed (EBUSY): left as it is.
      if (!stuck.has(e.name)) await rmdirDeep(path.join(dir, e.name));
    }
  }
  for (const id of await readdir(sandboxesDir).catch(() => [] as string[]))
    await rm(path.join(sandboxesDir, id), { recursive: true, force: true });
  return ids.size;
}

/**
 * Sandboxes die with Hangar even when it is killed: bubblewrap's --die-with-parent does not hold
 * once the sandbox's user namespace changes its ids (the kernel clears the parent-death signal on
 * a credential change). One small shell per Hangar gets SIGTERM when Hangar dies, for any
 * reason, and kills every sandbox cgroup of this instance; the next start sweeps the rest.
 */
export function startWatchdog(setpriv: string, killDirs: string[]): void {
  if (killDirs.length === 0) return;
  const kill = killDirs.map((d) => `for k in '${d.replace(/'/g, "")}'/*/cgroup.kill; do [ -e "$k" ] && echo 1 > "$k"; done`).join("; ");
  const script = `trap '${kill.replace(/'/g, "'\\''")}; kill $! 2>/dev/null; exit 0' TERM; while :; do sleep 3600 & wait $!; done`;
  const child = spawn(setpriv, ["--pdeathsig", "TERM", "--", "/bin/sh", "-c", script], { stdio: "ignore" });
  child.once("error", () => undefined);
  child.unref();
}
