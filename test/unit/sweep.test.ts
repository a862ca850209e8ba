/**
 * The sweep at start (runtime/local/sweep.ts) against fake cgroups: plain directories shaped like
 * a cgroup v2 hierarchy (no root needed). A leftover whose processes cannot be killed used to
 * throw out of the sweep and stop every start of Hangar; it is reported and the sweep goes on.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killFailures } from "../../core/kill.js";
import { sweepLeftovers } from "../../runtime/local/sweep.js";

const logged: { o: Record<string, unknown>; m: string }[] = [];
killFailures.setLog({ warn: (o, m) => logged.push({ o: o as Record<string, unknown>, m }) });

const STUCK = "11111111-1111-4111-8111-111111111111";
const EMPTY = "22222222-2222-4222-8222-222222222222";
const INSTANCE = "inst";

let root: string | undefined;
afterEach(async () => {
  if (root) await rm(root, { recursive: true, force: true });
  root = undefined;
});

const failures = () => killFailures.snapshot().find((x) => x.runtime === "local" && x.reason === "still_running")?.count ?? 0;

describe("sweep of an earlier run's leftovers", () => {
  it("a leftover cgroup that cannot be emptied is reported with its sandbox id; the sweep goes on to the others and removes the data dirs", async () => {
    root = await mkdtemp(path.join(tmpdir(), "hangar-sweep-"));
    const cgroupRoot = path.join(root, "cgroup");
    const dataDir = path.join(root, "data");
    await mkdir(cgroupRoot, { recursive: true });
    await writeFile(path.join(cgroupRoot, "cgroup.controllers"), "cpu memory pids\n"); // cgroup v2
    for (const [id, populated] of [
      [STUCK, 1],
      [EMPTY, 0],
    ] as const) {
      const cg = path.join(cgroupRoot, "hangar", INSTANCE, id);
      await mkdir(cg, { recursive: true });
      // A real cgroup's files go with its rmdir; here only the kernel's answer to a kill is shaped.
      if (populated) await writeFile(path.join(cg, "cgroup.events"), "populated 1\n");
      await mkdir(path.join(dataDir, "sandboxes", id), { recursive: true });
    }
    const before = failures();
    const swept = await sweepLeftovers({ dataDir, cgroupRoot, instance: INSTANCE, kill: { settleMs: 20, delaysMs: [5] } });
    expect(swept).toBe(2);
    expect(failures()).toBe(before + 1);
    const line = logged.find((l) => l.o.sandbox_id === STUCK);
    expect(line?.m).toMatch(/could not kill a leftover sandbox/);
    expect(line?.o.reason).toBe("still_running");
    expect(logged.some((l) => l.o.sandbox_id === EMPTY)).toBe(false);
    // Both were killed (the sweep went on past the stuck one, in whichever order it read them);
    // the stuck cgroup stays, both data dirs are gone.
    for (const id of [STUCK, EMPTY]) expect(existsSync(path.join(cgroupRoot, "hangar", INSTANCE, id, "cgroup.kill"))).toBe(true);
    expect(existsSync(path.join(cgroupRoot, "hangar", INSTANCE, STUCK))).toBe(true);
    expect(existsSync(path.join(dataDir, "sandboxes", STUCK))).toBe(false);
    expect(existsSync(path.join(dataDir, "sandboxes", EMPTY))).toBe(false);
  });
});
