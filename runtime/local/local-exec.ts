/**
 * Commands in a running local sandbox: each joins it through the launcher (nsenter and the
 * guard) in a cgroup leaf of its own; a startup probe's try is one such command.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { killFailures } from "../../core/kill.js";
import type { ExecOptions, ExecProcess } from "../types.js";
import { inCgroups, PTY_HELPER_PATH } from "./bwrap-args.js";
import { childExec } from "./child-exec.js";
import { ended, getSandbox, type LocalState } from "./local-sandboxes.js";

export function createLocalExec(s: LocalState) {
  let execSeq = 0;
  const { o } = s;

  async function exec(id: string, opts: ExecOptions): Promise<ExecProcess> {
    const sb = getSandbox(s, id);
    if (!sb.initPid || ended(sb)) throw errors.notRunning(id, "exited");
    // The pty is made inside the sandbox (by the helper mounted there), so job control sees its own pids.
    const isolated = o.isolation === "bubblewrap";
    const inner = opts.tty
      ? [isolated ? PTY_HELPER_PATH : o.tools.ptyHelper, String(opts.tty.cols), String(opts.tty.rows), "--", ...opts.argv]
      : opts.argv;
    let argv = isolated ? s.launcher.joinArgv(sb.initPid, o.sandboxUid, inner) : inner;
    const leaf = await sb.cgroups.leaf(`exec-${++execSeq}`);
    argv = inCgroups(leaf.procsFiles, argv);
    const env = { ...sb.env, ...(opts.tty ? { TERM: "xterm-256color" } : {}), ...(opts.env ?? {}) };
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: o.isolation === "none" ? path.join(sb.dir, "home") : "/",
      env: o.isolation === "none" ? { ...process.env, ...env, HOME: path.join(sb.dir, "home") } : env,
      stdio: opts.tty ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (e) => reject(errors.internal(`exec failed to start: ${e.message}`, e)));
    }).catch(async (e) => {
      await leaf.remove();
      throw e;
    });
    const ctl = child.stdio[3] as NodeJS.WritableStream | null | undefined;
    const p = childExec(child, { resize: (cols, rows) => ctl?.write(`${cols} ${rows}\n`), killAll: leaf.kill });
    // An exec that left background processes keeps its leaf until the sandbox ends.
    void p.exited.then(() => leaf.remove());
    return p;
  }

  /** One try of a startup probe: its exit code, 124 when it outlived its timeout (then killed). */
  async function probeOnce(id: string, argv: string[], timeoutMs: number): Promise<number> {
    const p = await exec(id, { argv, noInput: true });
    void (async () => {
      for await (const chunk of p.output()) void chunk; // drained: the probe's output is not kept
    })().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((r) => (timer = setTimeout(() => r(124), timeoutMs)));
    const code = await Promise.race([p.exited.then((e) => e.exitCode), timedOut]);
    clearTimeout(timer);
    if (code === 124) await p.kill().catch((e: unknown) => killFailures.report("local", id, e, "a startup probe"));
    return code;
  }

  return { exec, probeOnce };
}
