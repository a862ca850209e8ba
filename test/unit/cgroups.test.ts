/**
 * Local sandbox caps on this host's real cgroup hierarchy (make test runs as root): a CPU limit
 * below the kernel's 1 ms quota used to fail its write and silently drop every cap, memory and
 * pids included.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCgroups, MIN_CFS_QUOTA_US } from "../../runtime/local/cgroups.js";

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
        expect(dirs.map((d) => d.split("/")[4]).sort()).toEqual(["cpu", "memory", "pids"]);
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
    await expect(createCgroups(ROOT, name, { memoryBytes: -5, pidsMax: 64 })).rejects.toThrow(/could not apply the sandbox's resource caps/);
    expect(existsSync(path.join(ROOT, "pids/hangar", name))).toBe(false);
  });
});
