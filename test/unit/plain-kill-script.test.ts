/**
 * The plain exec path's kill script (plain-kill.ts), run here with /bin/sh as the kill exec runs it
 * in the pod. A cut exec stream makes containerd SIGKILL the exec's own process (the sh wrapper, the
 * leader of its session and group) and nothing else: the command it started runs on, reparented.
 * The script must still find it, through the wrapper's group, and what it started, a child that
 * left the group (setsid) included. And the wrapper's own watch (ADR 0045), for when nobody is left
 * to run the script (the replica that opened the stream died): the command's group dies with the
 * wrapper, and what a command that ended left in the background lives on.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { KILL_SCRIPT } from "../../runtime/kubernetes/exec/plain-kill.js";
import { WRAP } from "../../runtime/kubernetes/exec/plain.js";

const dir = mkdtempSync(join(tmpdir(), "hangar-kill-"));
/** The live (non-zombie) pids whose command line holds `mark`. */
const pidsWith = (mark: string) =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "utf8").includes(mark) && !/\) Z /.test(readFileSync(`/proc/${p}/stat`, "utf8"));
      } catch {
        return false;
      }
    });
const until = async (what: () => boolean, ms = 5000) => {
  for (const t0 = Date.now(); !what() && Date.now() - t0 < ms;) await new Promise((r) => setTimeout(r, 20));
  return what();
};
let left: string[] = [];
afterEach(() => {
  for (const p of left) {
    try {
      process.kill(Number(p), "SIGKILL");
    } catch {
      // gone
    }
  }
});

/** The wrapper `wrap` (its pid file `pidFile`) running `sh -c script mark`, as the exec's process runs in the pod: the leader of its own session and group. */
const wrapped = (wrap: string, pidFile: string, script: string, mark: string) =>
  spawn("/bin/sh", ["-c", wrap, pidFile, "/bin/sh", "-c", script, mark], { detached: true, stdio: "ignore" });
/** A command that runs on: a child in its group and one that left it (setsid), each with the mark in its command line. */
const LOOP = 'sh -c "sleep 300; :" "$0" & setsid sh -c "sleep 301; :" "$0" & while :; do sleep 1; done';

it("kills a command whose wrapper was SIGKILLed alone (a cut stream), with a child that left its group", async () => {
  const mark = `hangar-kill-mark-${process.pid}-${Date.now()}`;
  const pidFile = join(dir, "pid");
  const wrapper = wrapped('echo $$ > "$0"; "$@"; rm -f "$0"', pidFile, LOOP, mark);
  expect(await until(() => pidsWith(mark).length === 4)).toBe(true); // wrapper, its command, its two children
  left = pidsWith(mark);
  process.kill(wrapper.pid!, "SIGKILL");
  expect(await until(() => pidsWith(mark).length === 3)).toBe(true); // the command runs on without it
  expect(execFileSync("/bin/sh", ["-c", KILL_SCRIPT, pidFile]).toString()).toBe("hangar-killed\n");
  expect(await until(() => pidsWith(mark).length === 0)).toBe(true);
});

it("says killed without touching anything when the command already ended (no pid file)", () => {
  expect(execFileSync("/bin/sh", ["-c", KILL_SCRIPT, join(dir, "absent")]).toString()).toBe("hangar-killed\n");
});

it("the wrapper's watch kills the command's tree once the wrapper is SIGKILLed (a child that left its group too), with no kill exec at all", async () => {
  const mark = `hangar-watch-mark-${process.pid}-${Date.now()}`;
  const pidFile = join(dir, "watched");
  const wrapper = wrapped(WRAP, pidFile, LOOP, mark);
  expect(await until(() => pidsWith(mark).length === 5)).toBe(true); // wrapper, its watch (a fork of it), its command, its two children
  left = pidsWith(mark);
  process.kill(wrapper.pid!, "SIGKILL");
  expect(await until(() => pidsWith(mark).length === 0)).toBe(true);
});

it("the watch leaves alone what a command that ended started in the background, and the exit code is the command's", async () => {
  const mark = `hangar-bg-mark-${process.pid}-${Date.now()}`;
  const pidFile = join(dir, "ended");
  const wrapper = wrapped(WRAP, pidFile, 'sh -c "sleep 300; :" "$0" >/dev/null 2>&1 & exit 3', mark);
  const code = await new Promise<number | null>((r) => wrapper.on("exit", (c) => r(c)));
  expect(code).toBe(3);
  left = pidsWith(mark);
  await new Promise((r) => setTimeout(r, 2500)); // past the watch's next look
  expect(pidsWith(mark)).toHaveLength(1);
});
