/**
 * The kill of a plain exec's command (plain.ts): closing the websocket does not kill it (a cut
 * stream makes containerd SIGKILL the sh wrapper alone, its command reparented), so a second exec
 * takes down the process tree and the process group of the pid the wrapper recorded in its pid file;
 * retried with backoff within KILL_GIVE_UP_MS of the first try, rejected (KillFailed) when never
 * confirmed. Without a shell there is no wrapper: the last resort ends the sandbox (ADR 0032).
 */
import * as k8s from "@kubernetes/client-node";
import { Writable } from "node:stream";
import { KILL_GIVE_UP_MS, KILL_RETRY_BOUND_MS, KILL_TRY_TIMEOUT_MS, KillFailed, killRetryDelays, retryKill } from "../../../core/kill.js";

// The exec's process (the wrapper) leads its own session and group. When the stream is cut, the
// container runtime SIGKILLs that process alone and what it started runs on, reparented: so the tree
// grows from the wrapper and from every member of its group (a dead wrapper's command is one).
/** sh: sets `all` to " $root " and every pid below it or in root's group, and below those; never `$me`. */
export const TREE_OF_ROOT = [
  'all=" $root "; more=1',
  "while [ $more = 1 ]; do more=0",
  '  for s in /proc/[0-9]*/stat; do read -r pid comm state ppid pgrp rest < "$s" 2>/dev/null || continue',
  '    case "$all" in *" $pid "*) continue;; esac',
  '    [ "$pid" = "$me" ] && continue',
  '    case "$all" in *" $ppid "*) all="$all$pid "; more=1; continue;; esac',
  '    [ "$pgrp" = "$root" ] && { all="$all$pid "; more=1; }',
  "  done",
  "done",
].join("\n");
export const KILL_SCRIPT = [
  'f=$0; me=; root=$(cat "$f" 2>/dev/null) || { echo hangar-killed; exit 0; }',
  TREE_OF_ROOT,
  'kill -KILL $all 2>/dev/null; rm -f "$f"; echo hangar-killed; exit 0',
].join("\n");

/** Where the command runs and how it may be killed (a part of KubeExecOptions). */
export interface KillTarget {
  kc: k8s.KubeConfig;
  namespace: string;
  pod: string;
  container?: string;
  shell: boolean;
  lastResort?: (why: string) => Promise<void>;
  killDelaysMs?: number[];
}

/**
 * One kill exec: true once it ran to its end (its "hangar-killed" line: a stream cut by a
 * kubelet restart also reports success, exit-marker.ts); false when it failed or took over
 * `timeoutMs` (retryKill's share of the bound: at most KILL_TRY_TIMEOUT_MS).
 */
function killOnce(o: KillTarget, pidFile: string, timeoutMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    let said = "";
    let ok = false;
    new k8s.Exec(o.kc)
      // At least one stream must be attached, or the kubelet refuses the exec.
      .exec(
        o.namespace,
        o.pod,
        o.container ?? "main",
        ["/bin/sh", "-c", KILL_SCRIPT, pidFile],
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
}

export interface PlainKiller {
  /** Kills the command's process tree; every call after the first shares the first one's outcome. */
  kill(): Promise<void>;
  /** Whether kill() was called. */
  readonly started: boolean;
}

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
export function plainKiller(o: KillTarget, pidFile: string): PlainKiller {
  let killing: Promise<void> | undefined;
  const killTree = async () => {
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
        if (!(await killOnce(o, pidFile, ms)))
          throw new KillFailed(
            `the kill exec in pod ${o.pod} did not confirm within ${KILL_GIVE_UP_MS / 1000}s (the kubelet or apiserver unreachable?)`,
            "unconfirmed",
          );
      },
      { delays: o.killDelaysMs ?? killRetryDelays(), boundMs: KILL_RETRY_BOUND_MS, tryTimeoutMs: KILL_TRY_TIMEOUT_MS },
    );
  };
  return {
    kill: () => (killing ??= killTree()),
    get started() {
      return killing !== undefined;
    },
  };
}
