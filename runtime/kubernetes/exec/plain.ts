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
import {
  KILL_GIVE_UP_MS,
  KILL_RETRY_BOUND_MS,
  KILL_TRY_TIMEOUT_MS,
  KillFailed,
  killFailures,
  killRetryDelays,
  retryKill,
} from "../../../core/kill.js";
import { createOutputQueue } from "../../exec-output.js";
import type { ExecProcess, OutputChunk } from "../../types.js";
import { EXIT_MARK_PRINTF, ExitMarkFilter } from "./exit-marker.js";

const HIGH_WATER_BYTES = 4 * 1024 * 1024;

/** The command's end is also written in band (exit-marker.ts): a cut stream reads as success otherwise. */
const WRAP = `echo $$ > "$0" 2>/dev/null; "$@"; rc=$?; rm -f "$0"; ${EXIT_MARK_PRINTF}; exit $rc`;
/** For commands that get no input: stdin is /dev/null whatever the container runtime attaches. */
const WRAP_NO_INPUT = `echo $$ > "$0" 2>/dev/null; "$@" </dev/null; rc=$?; rm -f "$0"; ${EXIT_MARK_PRINTF}; exit $rc`;
/** For TTYs: the size is set before the command starts (the first resize message can arrive late). */
const WRAP_TTY = 'f=$0; stty cols "$1" rows "$2" 2>/dev/null; shift 2; echo $$ > "$f" 2>/dev/null; "$@"; rc=$?; rm -f "$f"; exit $rc';
const KILL = [
  'f=$0; root=$(cat "$f" 2>/dev/null) || { echo hangar-killed; exit 0; }; all=" $root "; more=1',
  "while [ $more = 1 ]; do more=0",
  '  for s in /proc/[0-9]*/stat; do read -r pid comm state ppid rest < "$s" 2>/dev/null || continue',
  '    case "$all" in *" $ppid "*) case "$all" in *" $pid "*) ;; *) all="$all$pid "; more=1;; esac;; esac',
  "  done",
  "done",
  'kill -KILL $all 2>/dev/null; rm -f "$f"; echo hangar-killed; exit 0',
].join("\n");

export function exitCodeOf(status: k8s.V1Status): number {
  if (status.status === "Success") return 0;
  const cause = status.details?.causes?.find((c) => c.reason === "ExitCode");
  if (status.reason === "NonZeroExitCode" && cause?.message !== undefined) return Number(cause.message);
  throw errors.unavailable(`exec failed: ${status.message ?? status.reason ?? "unknown error"}`);
}

export interface KubeExecOptions {
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

export async function kubeExec(o: KubeExecOptions): Promise<ExecProcess> {
  const pidFile = `/tmp/.hangar-exec-${randomUUID()}`;
  const argv = !o.shell
    ? o.argv
    : o.tty
      ? ["/bin/sh", "-c", WRAP_TTY, pidFile, String(o.tty.cols), String(o.tty.rows), ...o.argv]
      : ["/bin/sh", "-c", o.noInput ? WRAP_NO_INPUT : WRAP, pidFile, ...o.argv];
  let closed = false;
  const link: { ws?: { close(): void; _socket?: { pause(): void; resume(): void } } } = {};
  const out = createOutputQueue({
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
  const stderrSink = marked
    ? new Writable({
        write: (chunk, _e, cb) => {
          push("stderr")(marked.push(Buffer.from(chunk)));
          cb();
        },
      })
    : sink("stderr");
  const stdin = new PassThrough();
  const stdout = o.tty ? new TtyOut(o.tty.cols, o.tty.rows, push("stdout")) : sink("stdout");
  let resolveExit!: (v: { exitCode: number }) => void;
  let rejectExit!: (e: unknown) => void;
  const exited = new Promise<{ exitCode: number }>((res, rej) => {
    resolveExit = res;
    rejectExit = rej;
  });
  exited.catch(() => undefined);
  let status: k8s.V1Status | undefined;
  const socket = await new k8s.Exec(o.kc)
    .exec(
      o.namespace,
      o.pod,
      o.container ?? "main",
      argv,
      stdout,
      o.tty ? null : stderrSink,
      o.noInput && !o.tty ? null : stdin,
      !!o.tty,
      (s) => {
        status = s;
      },
    )
    .catch((e: unknown) => {
      throw errors.unavailable(`could not open the exec websocket: ${(e as Error).message ?? e}`, e);
    });
  link.ws = socket as unknown as typeof link.ws;
  /**
   * One kill exec: true once it ran to its end (its "hangar-killed" line: a stream cut by a
   * kubelet restart also reports success, exit-marker.ts); false when it failed or took over
   * `timeoutMs` (retryKill's share of the bound: at most KILL_TRY_TIMEOUT_MS).
   */
  const killOnce = (timeoutMs: number) =>
    new Promise<boolean>((resolve) => {
      let said = "";
      let ok = false;
      new k8s.Exec(o.kc)
        // At least one stream must be attached, or the kubelet refuses the exec.
        .exec(
          o.namespace,
          o.pod,
          o.container ?? "main",
          ["/bin/sh", "-c", KILL, pidFile],
          new Writable({
            write: (c, _e, cb) => {
              said += String(c);
              cb();
            },
          }),
          null,
          null,
          false,
          (st) => (ok = st?.status === "Success"),
        )
        // Decided once the stream is closed, with all of its output read.
        .then(
          (w) => {
            w.on("close", () => resolve(ok && said.includes("hangar-killed")));
            // Past the second, given up on: its websocket is closed too, never left open.
            setTimeout(() => w.close(), timeoutMs).unref();
          },
          () => resolve(false),
        );
      setTimeout(() => resolve(false), timeoutMs).unref();
    });
  /**
   * Kills the command's process tree (a no-op once it ended: the wrapper removed its pid file).
   * Not confirmed (the apiserver or kubelet restarting): asked again with backoff, each try
   * started within KILL_RETRY_BOUND_MS and ended within KILL_GIVE_UP_MS of the first (core/kill.ts
   * retryKill; the bound the chaos suite's vanish check uses), so the
   * command of a vanished caller, or of a stream a restart cut, does not outlive it; still not
   * confirmed then, it rejects (KillFailed "unconfirmed"), and whoever asked reports it. Without a
   * shell there is no wrapper to kill through: `lastResort` (the sandbox ends, ADR 0032), else
   * KillFailed "no_kill_path".
   */
  let killing: Promise<void> | undefined;
  const killTree = () =>
    (killing ??= (async () => {
      if (!o.shell) {
        if (!o.lastResort)
          throw new KillFailed(
            "the image has no /bin/sh and the command did not run through the exec agent: nothing in the pod can kill it",
            "no_kill_path",
          );
        return o.lastResort(
          "a command could not be killed otherwise: the image has no /bin/sh and the command did not run through the exec agent",
        );
      }
      await retryKill(
        async (ms) => {
          if (!(await killOnce(ms)))
            throw new KillFailed(
              `the kill exec in pod ${o.pod} did not confirm within ${KILL_GIVE_UP_MS / 1000}s (the kubelet or apiserver unreachable?)`,
              "unconfirmed",
            );
        },
        { delays: o.killDelaysMs ?? killRetryDelays(), boundMs: KILL_RETRY_BOUND_MS, tryTimeoutMs: KILL_TRY_TIMEOUT_MS },
      );
    })());
  socket.on("close", () => {
    if (marked) push("stderr")(marked.flush());
    closed = true;
    out.end();
    // A stream lost without the command's end leaves the command running in the pod, its caller
    // told UNAVAILABLE (it may retry): it is killed rather than left to run unseen.
    const cut = (why: string) => {
      void killTree().catch((e: unknown) =>
        killFailures.report("kubernetes", o.sandboxId ?? o.pod, e, "a command whose exec stream was cut"),
      );
      rejectExit(errors.unavailable(why));
    };
    if (!status) return cut("the exec websocket closed without an exit status (the pod may have stopped)");
    try {
      const exitCode = exitCodeOf(status);
      // "Success" without the wrapper's end marker: the stream was cut (a kubelet restart), not an exit 0.
      if (marked && exitCode === 0 && marked.rc === undefined)
        return cut("the exec stream was cut before the command ended (the kubelet or apiserver went away); its result is unknown");
      resolveExit({ exitCode });
    } catch (e) {
      rejectExit(e);
    }
  });
  socket.on("error", () => undefined);
  let stdinEnded = false;

  return {
    async write(data) {
      if (stdinEnded || closed) return;
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
    output: () => out.output(),
    exited,
    async kill() {
      try {
        // Ended with its status: nothing to kill. Cut (killing already): that kill's outcome.
        if (!closed || killing) await killTree();
      } finally {
        link.ws?._socket?.resume();
        link.ws?.close();
      }
    },
  };
}
