/**
 * Exec over the Kubernetes exec websocket (v5.channel.k8s.io through @kubernetes/client-node):
 * one output chunk per websocket frame, stdin with a real EOF (v5 close), TTY with resize,
 * the exit code from the status channel after output is drained. Closing the websocket does
 * not kill the command, so commands run under a tiny sh wrapper that records its pid, and
 * kill() takes that pid's whole process tree down with a second exec (retried, tries and pauses
 * together within KILL_GIVE_UP_MS of the first; rejects when never confirmed). A websocket lost without a status ends the
 * exec with UNAVAILABLE and kills the command.
 */
import * as k8s from "@kubernetes/client-node";
import { randomUUID } from "node:crypto";
import { PassThrough, Writable } from "node:stream";
import { errors } from "../../../core/errors.js";
import { killFailures } from "../../../core/kill.js";
import { createOutputQueue, deferredExit, type OutputQueue } from "../../exec-output.js";
import type { ExecProcess, OutputChunk } from "../../types.js";
import { EXIT_MARK_PRINTF, ExitMarkFilter } from "./exit-marker.js";
import { plainKiller, TREE_OF_ROOT, type KillTarget, type PlainKiller } from "./plain-kill.js";

const HIGH_WATER_BYTES = 4 * 1024 * 1024;

/**
 * The wrapper's watch (ADR 0045): when the exec stream is cut (a kubelet or apiserver restart, the
 * replica that opened it gone), containerd SIGKILLs the wrapper alone, the leader of its own session
 * and group, and the command runs on. So a subshell (no stdio of the exec's) checks each second that
 * the wrapper lives, and once it is gone with its pid file still there (it never saw the command end)
 * kills what the kill exec would (plain-kill.ts), itself excepted, and removes the pid file. A command
 * that ended removed the pid file first: what it left running in the background is not touched.
 * Without `sleep` it stops watching rather than spin.
 */
const WATCH = [
  '( while kill -0 $$ 2>/dev/null; do sleep 1 || exit 0; done; [ -e "$0" ] || exit 0',
  "root=$$; read -r me rest < /proc/self/stat",
  TREE_OF_ROOT,
  'kill -KILL $all; rm -f "$0" ) </dev/null >/dev/null 2>&1 &',
].join("\n");
/** The command's end is also written in band (exit-marker.ts): a cut stream reads as success otherwise. */
export const WRAP = `echo $$ > "$0" 2>/dev/null; ${WATCH} "$@"; rc=$?; rm -f "$0"; ${EXIT_MARK_PRINTF}; exit $rc`;
/** For commands that get no input: stdin is /dev/null whatever the container runtime attaches. */
const WRAP_NO_INPUT = `echo $$ > "$0" 2>/dev/null; ${WATCH} "$@" </dev/null; rc=$?; rm -f "$0"; ${EXIT_MARK_PRINTF}; exit $rc`;
/** For TTYs: the size is set before the command starts (the first resize message can arrive late). */
const WRAP_TTY = 'f=$0; stty cols "$1" rows "$2" 2>/dev/null; shift 2; echo $$ > "$f" 2>/dev/null; "$@"; rc=$?; rm -f "$f"; exit $rc';
export function exitCodeOf(status: k8s.V1Status): number {
  if (status.status === "Success") return 0;
  const cause = status.details?.causes?.find((c) => c.reason === "ExitCode");
  if (status.reason === "NonZeroExitCode" && cause?.message !== undefined) return Number(cause.message);
  throw errors.unavailable(`exec failed: ${status.message ?? status.reason ?? "unknown error"}`);
}

export interface KubeExecOptions extends KillTarget {
  kc: k8s.KubeConfig;
  namespace: string;
  pod: string;
  argv: string[];
  tty?: { cols: number; rows: number };
  /** The image has /bin/sh: wrap the command so it can be killed. */
  shell: boolean;
  /** No stdin stream at all: the command reads EOF at once (see ExecOptions.noInput). */
  noInput?: boolean;
  /** The pod's container (default "main", the primary). */
  container?: string;
  /** Whose command this is, for the log of a kill that failed. */
  sandboxId?: string;
  /** Without a shell: how to kill the command all the same (ends the sandbox); absent, such a kill fails with no_kill_path. */
  lastResort?: (why: string) => Promise<void>;
  /** The pauses between kill tries (default killRetryDelays(): within KILL_RETRY_BOUND_MS). */
  killDelaysMs?: number[];
}

class TtyOut extends Writable {
  columns: number;
  rows: number;
  constructor(cols: number, rows: number, write: (b: Buffer) => void) {
    super({
      write: (chunk, _e, cb) => {
        write(Buffer.from(chunk));
        cb();
      },
    });
    this.columns = cols;
    this.rows = rows;
  }
}

/** The argv that runs the command: under the sh wrapper (its pid in `pidFile`) when the image has a shell. */
function wrappedArgv(o: KubeExecOptions, pidFile: string): string[] {
  return !o.shell
    ? o.argv
    : o.tty
      ? ["/bin/sh", "-c", WRAP_TTY, pidFile, String(o.tty.cols), String(o.tty.rows), ...o.argv]
      : ["/bin/sh", "-c", o.noInput ? WRAP_NO_INPUT : WRAP, pidFile, ...o.argv];
}

type Link = { ws?: { close(): void; _socket?: { pause(): void; resume(): void } } };

/** The output queue, its websocket paused while more than HIGH_WATER_BYTES wait for the consumer. */
function socketOutput(link: Link): OutputQueue {
  return createOutputQueue({
    flow: {
      unit: "bytes",
      pauseAt: HIGH_WATER_BYTES + 1,
      resumeBelow: HIGH_WATER_BYTES / 2,
      pause: () => {
        if (!link.ws?._socket) return false;
        link.ws._socket.pause();
      },
      resume: () => link.ws?._socket?.resume(),
    },
  });
}

/** The websocket's stdout and stderr, written into `out`. */
function outputSinks(o: KubeExecOptions, out: OutputQueue): { stdout: Writable; stderr: Writable; marked?: ExitMarkFilter } {
  const push = (stream: OutputChunk["stream"]) => (data: Buffer) => out.push(stream, data);
  const sink = (stream: OutputChunk["stream"]) =>
    new Writable({
      write: (chunk, _e, cb) => {
        push(stream)(Buffer.from(chunk));
        cb();
      },
    });
  // Wrapped, without a TTY: stderr carries the wrapper's end marker (exit-marker.ts).
  const marked = o.shell && !o.tty ? new ExitMarkFilter() : undefined;
  const stderr = marked
    ? new Writable({
        write: (chunk, _e, cb) => {
          push("stderr")(marked.push(Buffer.from(chunk)));
          cb();
        },
      })
    : sink("stderr");
  const stdout = o.tty ? new TtyOut(o.tty.cols, o.tty.rows, push("stdout")) : sink("stdout");
  return { stdout, stderr, ...(marked ? { marked } : {}) };
}

/**
 * What the closed stream says: the exit code, or why the stream was cut before the command ended
 * (the command is then killed). Throws UNAVAILABLE for an exec that failed. Pure.
 */
export function streamEnd(status: k8s.V1Status | undefined, marked: ExitMarkFilter | undefined): { exitCode: number } | { cut: string } {
  if (!status) return { cut: "the exec websocket closed without an exit status (the pod may have stopped)" };
  const exitCode = exitCodeOf(status);
  // "Success" without the wrapper's end marker: the stream was cut (a kubelet restart), not an exit 0.
  if (marked && exitCode === 0 && marked.rc === undefined)
    return { cut: "the exec stream was cut before the command ended (the kubelet or apiserver went away); its result is unknown" };
  return { exitCode };
}

/** Opens the exec websocket; UNAVAILABLE when it cannot be opened. */
async function openExec(
  o: KubeExecOptions,
  argv: string[],
  io: { stdout: Writable; stderr: Writable; stdin: PassThrough },
  onStatus: (s: k8s.V1Status) => void,
) {
  return new k8s.Exec(o.kc)
    .exec(
      o.namespace,
      o.pod,
      o.container ?? "main",
      argv,
      io.stdout,
      o.tty ? null : io.stderr,
      o.noInput && !o.tty ? null : io.stdin,
      !!o.tty,
      onStatus,
    )
    .catch((e: unknown) => {
      throw errors.unavailable(`could not open the exec websocket: ${(e as Error).message ?? e}`, e);
    });
}

export async function kubeExec(o: KubeExecOptions): Promise<ExecProcess> {
  const pidFile = `/tmp/.hangar-exec-${randomUUID()}`;
  let closed = false;
  const link: Link = {};
  const out = socketOutput(link);
  const { stdout, stderr, marked } = outputSinks(o, out);
  const stdin = new PassThrough();
  const exit = deferredExit();
  let status: k8s.V1Status | undefined;
  const socket = await openExec(o, wrappedArgv(o, pidFile), { stdout, stderr, stdin }, (s) => {
    status = s;
  });
  link.ws = socket as unknown as Link["ws"];
  const killer = plainKiller(o, pidFile);
  socket.on("close", () => {
    if (marked) out.push("stderr", marked.flush());
    closed = true;
    out.end();
    // A stream lost without the command's end leaves the command running in the pod, its caller
    // told UNAVAILABLE (it may retry): it is killed rather than left to run unseen.
    const cut = (why: string) => {
      void killer
        .kill()
        .catch((e: unknown) => killFailures.report("kubernetes", o.sandboxId ?? o.pod, e, "a command whose exec stream was cut"));
      exit.reject(errors.unavailable(why));
    };
    let end: ReturnType<typeof streamEnd>;
    try {
      end = streamEnd(status, marked);
    } catch (e) {
      return exit.reject(e);
    }
    if ("cut" in end) return cut(end.cut);
    exit.resolve(end);
  });
  socket.on("error", () => undefined);
  return plainProcess({ stdin, stdout, out, exited: exit.exited, killer, link, closed: () => closed });
}

/** The ExecProcess over an open exec websocket. */
function plainProcess(p: {
  stdin: PassThrough;
  stdout: Writable;
  out: OutputQueue;
  exited: Promise<{ exitCode: number }>;
  killer: PlainKiller;
  link: Link;
  closed(): boolean;
}): ExecProcess {
  const { stdin, stdout, link } = p;
  let stdinEnded = false;
  return {
    async write(data) {
      if (stdinEnded || p.closed()) return;
      if (!stdin.write(data)) await new Promise<void>((r) => stdin.once("drain", () => r()));
    },
    closeStdin() {
      if (stdinEnded) return;
      stdinEnded = true;
      stdin.end();
    },
    resize(cols, rows) {
      if (stdout instanceof TtyOut) {
        stdout.columns = cols;
        stdout.rows = rows;
        stdout.emit("resize");
      }
    },
    output: () => p.out.output(),
    exited: p.exited,
    async kill() {
      try {
        // Ended with its status: nothing to kill. Cut (killing already): that kill's outcome.
        if (!p.closed() || p.killer.started) await p.killer.kill();
      } finally {
        link.ws?._socket?.resume();
        link.ws?.close();
      }
    },
  };
}
