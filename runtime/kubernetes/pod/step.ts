/**
 * What a replica does when it looks at a sandbox's pod (a watch event, or the 1 s tick): a pure
 * function of (what it knows of the sandbox, the pod's view, now), table-tested. The runtime
 * carries out the step; the times it returns are what it remembers for the next look.
 */
import type { ExitInfo } from "../../types.js";
import type { PodView } from "./state.js";
import { KILLED_EXIT_CODE } from "../../../core/exit-code.js";

/** How long past the startup timeout a sandbox left CREATING by a stopped replica waits before it is failed. */
export const ORPHAN_GRACE_MS = 15_000;
/**
 * How long a replica that did not start a sandbox waits, after seeing its pod exit while the
 * record still says CREATING, before it reports the exit itself: the starting replica is
 * normally about to store RUNNING (the main process ran) and its report is the right one.
 */
export const ADOPTED_EXIT_GRACE_MS = 5_000;
/**
 * How long a replica that did not start a sandbox lets its pod run while the record still says
 * CREATING before it finishes the start itself (probe, mounted files, RUNNING): the replica that
 * started it is gone (killed mid-create) or cut off. Normally that one stores RUNNING within
 * milliseconds of the pod running; two replicas finishing the same start is harmless (ADR 0014).
 */
export const TAKEOVER_AFTER_MS = 5_000;
/**
 * Under load the starting replica finishes starts in turn (each needs a probe exec and a record
 * write through a busy apiserver), so a start it is still finishing can wait past TAKEOVER_AFTER_MS
 * for a reason other than its death: the scale bed saw 131 of 5,000 starts taken over, each probed
 * and written twice, at 10,000 sandboxes. The patience grows with the backlog this replica sees:
 * every other start it sees waiting adds this much, up to TAKEOVER_MAX_MS.
 */
export const TAKEOVER_PER_WAITING_MS = 50;
export const TAKEOVER_MAX_MS = 120_000;

/** How long an adopted start may wait in CREATING with its pod running before this replica finishes it. */
export const takeoverAfterMs = (waiting: number): number =>
  Math.min(TAKEOVER_MAX_MS, TAKEOVER_AFTER_MS + Math.max(0, waiting - 1) * TAKEOVER_PER_WAITING_MS);

export interface SandboxFacts {
  /** This replica's start() is in charge (it created or claimed the pod, and has not returned). */
  own: boolean;
  started: boolean;
  exited: boolean;
  takingOver: boolean;
  /** The state in the record annotation on the pod. */
  recordState?: string;
  creatingSeenMs?: number;
  exitSeenMs?: number;
  podCreatedMs: number;
  /** Adopted starts this replica sees waiting (pod running, record CREATING), this one included. */
  waitingStarts?: number;
}

export type PodStep =
  | { t: "none"; creatingSeenMs?: number; exitSeenMs?: number }
  | { t: "finish"; exit: Omit<ExitInfo, "endedAtMs">; deletePod?: true }
  | { t: "take-over"; creatingSeenMs: number };

const NONE: PodStep = { t: "none" };

export function podStep(f: SandboxFacts, view: PodView, deleted: boolean, nowMs: number, startupTimeoutMs: number): PodStep {
  if (f.exited) return NONE;
  if (!f.own && view.t === "running" && f.recordState === "CREATING") {
    const seen = f.creatingSeenMs ?? nowMs;
    if (nowMs - seen >= takeoverAfterMs(f.waitingStarts ?? 1) && !f.takingOver) return { t: "take-over", creatingSeenMs: seen };
    return { t: "none", creatingSeenMs: seen };
  }
  if (!f.started) {
    if (f.own) return NONE; // our own start() is still deciding
    // Adopted while starting, and the replica that started it is gone (or the start failed there).
    if (view.t === "exited") {
      const seen = f.exitSeenMs ?? nowMs;
      if (nowMs - seen >= ADOPTED_EXIT_GRACE_MS || deleted)
        return {
          t: "finish",
          exit: { exitCode: view.exitCode, reason: view.reason, endedBy: view.endedBy, ...(view.ranAtMs ? { ranAtMs: view.ranAtMs } : {}) },
        };
      return { t: "none", exitSeenMs: seen };
    }
    if (view.t === "start-failed")
      return { t: "finish", exit: { exitCode: KILLED_EXIT_CODE, reason: view.reason, startFailure: view.reason } };
    if (deleted)
      return {
        t: "finish",
        exit: { exitCode: KILLED_EXIT_CODE, reason: "the pod was deleted while starting", endedBy: "the pod was deleted" },
      };
    if (nowMs - f.podCreatedMs > startupTimeoutMs + ORPHAN_GRACE_MS) {
      return {
        t: "finish",
        exit: {
          exitCode: KILLED_EXIT_CODE,
          reason: "abandoned while starting",
          startFailure: "Hangar restarted while the sandbox was starting",
        },
        deletePod: true,
      };
    }
    return NONE;
  }
  if (view.t === "exited")
    return {
      t: "finish",
      exit: { exitCode: view.exitCode, reason: view.reason, endedBy: view.endedBy, ...(view.ranAtMs ? { ranAtMs: view.ranAtMs } : {}) },
    };
  if (deleted) return { t: "finish", exit: { exitCode: KILLED_EXIT_CODE, reason: "the pod was deleted", endedBy: "the pod was deleted" } };
  return NONE;
}
