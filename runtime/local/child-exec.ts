/**
 * An ExecProcess over a local child process: one output chunk per pipe read, pull-based
 * backpressure (the pipes are paused while the consumer is behind), exit reported only
 * after stdout and stderr reached EOF, and kill() that takes the whole process tree.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import type { Readable } from "node:stream";
import { createOutputQueue, type OutputQueue } from "../exec-output.js";
import type { ExecProcess, OutputChunk } from "../types.js";
import { killTree } from "./proc-tree.js";
import { exitCodeOf } from "../../core/exit-code.js";

const HIGH_WATER_CHUNKS = 16;
/**
 * After the process exited, output still in the pipes is read at once; pipes that stay
 * open and silent this long are held by background processes the command left behind
 * (`server &`), which keep running: we stop waiting for them.
 */
const IDLE_AFTER_EXIT_MS = 200;

/**
 * The child's stdout and stderr read into one output queue (the pipes paused while the consumer
 * is behind); `drained` resolves once both closed. Pipes still open IDLE_AFTER_EXIT_MS after the
 * exit with nothing to say are closed.
 */
function readOutput(child: ChildProcess): { out: OutputQueue; streams: Readable[]; drained: Promise<void> } {
  let openStreams = 0;
  const streams: Readable[] = [];
  const out = createOutputQueue({
    flow: {
      unit: "chunks",
      pauseAt: HIGH_WATER_CHUNKS,
      resumeBelow: HIGH_WATER_CHUNKS / 2,
      pause: () => {
        for (const s of streams) s.pause();
      },
      resume: () => {
        for (const s of streams) s.resume();
      },
    },
  });
  const attach = (r: Readable | null, stream: OutputChunk["stream"]) => {
    if (!r) return;
    openStreams++;
    streams.push(r);
    r.on("data", (data: Buffer) => {
      if (idleTimer) idleTimer.refresh();
      out.push(stream, data);
    });
    r.on("close", () => {
      if (--openStreams === 0) out.end();
    });
    r.on("error", () => undefined);
  };
  attach(child.stdout, "stdout");
  attach(child.stderr, "stderr");
  if (openStreams === 0) out.end();

  let idleTimer: NodeJS.Timeout | undefined;
  child.once("exit", () => {
    idleTimer = setTimeout(() => {
      for (const s of streams) if (!s.destroyed) s.destroy();
    }, IDLE_AFTER_EXIT_MS);
    idleTimer.unref();
  });
  const drained = new Promise<void>((resolve) => {
    const check = () => (openStreams === 0 ? resolve() : undefined);
    for (const s of streams) s.once("close", check);
    check();
  });
  return { out, streams, drained };
}

export function childExec(
  child: ChildProcess,
  opts: { resize?: (cols: number, rows: number) => void; killAll?: () => Promise<void> },
): ExecProcess {
  const { out, streams, drained } = readOutput(child);
  const exitCode = new Promise<number>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    child.once("exit", (code, signal) => resolve(exitCodeOf(code, signal)));
    child.once("error", () => resolve(127));
  });
  const exited = Promise.all([exitCode, drained]).then(([code]) => ({ exitCode: code }));
  let stdinClosed = false;
  child.stdin?.on("error", () => undefined);

  return {
    async write(data) {
      const stdin = child.stdin;
      if (!stdin || stdinClosed || stdin.destroyed) return; // the process is gone: input is discarded
      if (!stdin.write(data)) await Promise.race([once(stdin, "drain"), once(stdin, "close"), exitCode]);
    },
    closeStdin() {
      if (stdinClosed) return;
      stdinClosed = true;
      child.stdin?.end();
    },
    resize(cols, rows) {
      opts.resize?.(cols, rows);
    },
    output: () => out.output(),
    exited,
    async kill() {
      // The exec's own cgroup first: it holds the processes that left its tree (setsid daemons).
      // Its failure (KillFailed: processes left after the retries) is reported once the tree was
      // killed too: never dropped.
      const failed = await opts.killAll?.().then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      if (child.pid !== undefined) await killTree(child.pid);
      for (const s of streams) s.resume();
      if (failed) throw failed;
    },
  };
}
