/**
 * A local sandbox is RUNNING only once its command started (runtime/local/command-started.ts):
 * when bubblewrap never writes the user namespace's maps, or never execs the command, the start
 * fails saying which, instead of reporting RUNNING once the wait is over.
 */
import { describe, expect, it } from "vitest";
import { commandStarted, type ProcReader } from "../../runtime/local/command-started.js";

const BWRAP = "/usr/bin/bwrap";

/** /proc as the given files say, on a clock that moves only when the code sleeps. */
function proc(files: Record<string, string>, exes: Record<string, string>): ProcReader & { slept: number } {
  let t = 0;
  const r = {
    slept: 0,
    read: async (p: string) => files[p] ?? "",
    readlink: async (p: string) => exes[p] ?? "",
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
      r.slept += ms;
    },
  };
  return r;
}

const maps = { "/proc/10/uid_map": "0 200000 65536\n", "/proc/10/gid_map": "0 200000 65536\n" };

describe("commandStarted", () => {
  it("resolves once the maps are written and the init's child runs the command", async () => {
    const p = proc({ ...maps, "/proc/10/task/10/children": "11 " }, { "/proc/11/exe": "/bin/sh" });
    await expect(commandStarted(10, BWRAP, 5000, p)).resolves.toBeUndefined();
    expect(p.slept).toBe(0);
  });

  it("fails, naming the maps, when bubblewrap never writes them (never RUNNING)", async () => {
    const p = proc({ "/proc/10/task/10/children": "11 " }, { "/proc/11/exe": "/bin/sh" });
    await expect(commandStarted(10, BWRAP, 5000, p)).rejects.toMatchObject({
      code: "UNAVAILABLE",
      message: "the sandbox did not start within 5 s: the sandbox's user namespace got no uid/gid maps",
    });
    expect(p.slept).toBeGreaterThanOrEqual(5000);
  });

  it("fails, naming the exec, when the init's child is still bubblewrap", async () => {
    const p = proc({ ...maps, "/proc/10/task/10/children": "11 " }, { "/proc/11/exe": BWRAP });
    await expect(commandStarted(10, BWRAP, 5000, p)).rejects.toMatchObject({
      message: "the sandbox did not start within 5 s: bubblewrap did not start the command",
    });
  });

  it("fails when the init has no child at all", async () => {
    await expect(commandStarted(10, BWRAP, 5000, proc(maps, {}))).rejects.toMatchObject({
      message: expect.stringMatching(/did not start the command$/),
    });
  });
});
