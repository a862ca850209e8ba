/**
 * Local sandbox caps on this host's real cgroup hierarchy (make test runs as root): a CPU limit
 * below the kernel's 1 ms quota used to fail its write and silently drop every cap, memory and
 * pids included.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inCgroups } from "../../runtime/local/bwrap-args.js";
import { KillFailed } from "../../core/kill.js";
import { createCgroups, killCgroup, MIN_CFS_QUOTA_US } from "../../runtime/local/cgroups.js";

const ROOT = "/sys/fs/cgroup";
const read = (f: string) => readFileSync(f, "utf8").trim();

describe("cgroup caps", () => {
  it("cpu: 1m keeps the memory and pids caps and gets the kernel's minimum quota", async () => {
    expect(process.getuid?.(), "writes the host's cgroups: needs root, as make test has").toBe(0);
    const name = `unit-${process.pid}`;
    const set = await createCgroups(ROOT, name, { cpuMillicores: 1, memoryBytes: 64 * 1024 * 1024, pidsMax: 64 });
    try {
      expect(set.note).toContain("pids");
      const dirs = set.procsFiles.map((f) => path.dirname(f));
      const v2 = existsSync(path.join(ROOT, "cgroup.controllers"));
      if (v2) {
        const d = dirs[0] as string;
        expect(read(path.join(d, "pids.max"))).toBe("64");
        expect(read(path.join(d, "memory.max"))).toBe(String(64 * 1024 * 1024));
        expect(read(path.join(d, "cpu.max"))).toBe(`${MIN_CFS_QUOTA_US} 100000`);
      } else {
        expect(dirs.map((d) => d.split("/")[4]).sort()).toEqual(["cpu", "memory", "pids", "unified"]);
        expect(read(path.join(ROOT, "pids/hangar", name, "pids.max"))).toBe("64");
        expect(read(path.join(ROOT, "memory/hangar", name, "memory.limit_in_bytes"))).toBe(String(64 * 1024 * 1024));
        expect(read(path.join(ROOT, "cpu/hangar", name, "cpu.cfs_quota_us"))).toBe(String(MIN_CFS_QUOTA_US));
      }
    } finally {
      await set.remove();
    }
  });

  it("a cap the writable hierarchy refuses fails the start instead of running uncapped", async () => {
    const name = `unit-bad-${process.pid}`;
    await expect(createCgroups(ROOT, name, { memoryBytes: -5, pidsMax: 64 })).rejects.toThrow(
      /could not apply the sandbox's resource caps/,
    );
    expect(existsSync(path.join(ROOT, "pids/hangar", name))).toBe(false);
  });

  const alive = (pid: number) => {
    try {
      return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
    } catch {
      return false;
    }
  };
  /** Starts `script` in the cgroups and returns the pids it reports on stdout (one per line) once it printed `n`. */
  const startIn = async (procsFiles: string[], script: string, n: number): Promise<number[]> => {
    const argv = inCgroups(procsFiles, ["/bin/sh", "-c", script]);
    const child = spawn(argv[0] as string, argv.slice(1), { stdio: ["ignore", "pipe", "ignore"], detached: true });
    let out = "";
    return new Promise((resolve) => {
      child.stdout?.on("data", (b: Buffer) => {
        out += b.toString();
        const pids = out.split("\n").filter(Boolean).map(Number);
        if (pids.length >= n) resolve(pids);
      });
    });
  };
  // Daemons that left the process tree (setsid, double fork) and a process that keeps forking.
  const ESCAPERS =
    "setsid sh -c 'echo $$; exec sleep 300' & (sh -c 'echo $$; exec sleep 300' &) ; sh -c 'echo $$; while :; do sleep 300 & done' & echo $$; wait";

  it("kill takes every process of the sandbox at once: daemons, re-parented children and a forking loop", async () => {
    const set = await createCgroups(ROOT, `unit-kill-${process.pid}`, { pidsMax: 512 });
    try {
      const pids = await startIn(set.procsFiles, ESCAPERS, 4);
      expect(pids.every(alive)).toBe(true);
      expect(await set.kill()).toBe(true);
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      await set.remove();
    }
    expect(existsSync(path.join(ROOT, "unified/hangar", `unit-kill-${process.pid}`))).toBe(false);
  });

  it("an exec's leaf kill takes that exec's daemons and leaves the rest of the sandbox running", async () => {
    const set = await createCgroups(ROOT, `unit-leaf-${process.pid}`, { pidsMax: 512 });
    try {
      const main = await startIn(set.procsFiles, "echo $$; exec sleep 300", 1);
      const leaf = await set.leaf("exec-1");
      const exec = await startIn(leaf.procsFiles, ESCAPERS, 4);
      await leaf.kill();
      expect(exec.filter(alive)).toEqual([]);
      expect(main.every(alive)).toBe(true);
      await leaf.remove();
      await set.kill();
      expect(main.filter(alive)).toEqual([]);
    } finally {
      await set.remove(); // the leaf removed itself already (stop latency: docs/benchmarks.md)
    }
  });

  it("the cgroup v1 freezer kills the same way where there is no cgroup.kill", async () => {
    const dir = path.join(ROOT, "freezer/hangar", `unit-freezer-${process.pid}`);
    const { mkdir, rmdir } = await import("node:fs/promises");
    await mkdir(dir, { recursive: true });
    try {
      const pids = await startIn([path.join(dir, "cgroup.procs")], ESCAPERS, 4);
      await killCgroup(dir, "freezer");
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      await rmdir(dir);
    }
  });

  // A kill that does not empty the cgroup is retried, then fails loudly (issue 38): it used to
  // return after 2 s as if it had worked. These cgroups are plain directories shaped like one
  // whose kill the kernel does not carry out (no root needed).
  const fakeCgroup = async (files: Record<string, string>, dirs: string[] = []) => {
    const { mkdtemp, mkdir, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const dir = await mkdtemp(path.join(tmpdir(), "hangar-fake-cgroup-"));
    for (const d of dirs) await mkdir(path.join(dir, d));
    for (const [f, v] of Object.entries(files)) await writeFile(path.join(dir, f), v);
    return dir;
  };
  const quick = { settleMs: 50, delaysMs: [10, 10] };

  it("cgroup v2: cgroup.kill that cannot be written, the cgroup still populated: KillFailed naming the cgroup, not a quiet return", async () => {
    const dir = await fakeCgroup({ "cgroup.events": "populated 1\nfrozen 0\n" }, ["cgroup.kill"]);
    const err = await killCgroup(dir, "v2", quick).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(KillFailed);
    expect((err as KillFailed).why).toBe("write_failed");
    expect((err as Error).message).toContain(dir);
  });

  it("cgroup v2: written but never emptied: KillFailed (still_running) after the retries", async () => {
    const dir = await fakeCgroup({ "cgroup.events": "populated 1\n" });
    await expect(killCgroup(dir, "v2", quick)).rejects.toMatchObject({ why: "still_running" });
    expect(read(path.join(dir, "cgroup.kill"))).toBe("1");
  });

  it("cgroup v2: a kill that empties the cgroup only on its retry: cgroup.kill written again, then success", async () => {
    const dir = await fakeCgroup({ "cgroup.events": "populated 1\n" });
    const { writeFile, rm } = await import("node:fs/promises");
    // Each write of cgroup.kill is counted and taken away; the cgroup empties after the second.
    let writes = 0;
    const watcher = setInterval(() => {
      if (!existsSync(path.join(dir, "cgroup.kill"))) return;
      rmSync(path.join(dir, "cgroup.kill"));
      if (++writes === 2) void writeFile(path.join(dir, "cgroup.events"), "populated 0\n");
    }, 5);
    try {
      await expect(killCgroup(dir, "v2", { settleMs: 100, delaysMs: [50, 50, 50] })).resolves.toBeUndefined();
      expect(writes).toBe(2);
    } finally {
      clearInterval(watcher);
      await rm(dir, { recursive: true });
    }
  });

  it("freezer: a member that stays listed after SIGKILL: KillFailed naming its pid", async () => {
    const victim = spawn("sleep", ["300"], { stdio: "ignore" });
    const dir = await fakeCgroup({ "cgroup.procs": `${victim.pid}\n`, "freezer.state": "THAWED\n" });
    const err = await killCgroup(dir, "freezer", quick).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(KillFailed);
    expect((err as KillFailed).why).toBe("still_running");
    expect((err as Error).message).toContain(String(victim.pid));
  });
});
