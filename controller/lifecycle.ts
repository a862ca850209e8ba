/**
 * Lifecycle decisions as pure functions of (records, now): table-tested in
 * test/unit/lifecycle.test.ts. The loops in controller.ts only carry them out.
 */
import { isTerminal, type SandboxRecord, type State } from "../core/types.js";

export interface LifecyclePolicy {
  retentionMs: number;
  /** Grace given to a sandbox whose max lifetime passed (0 = hard kill). */
  expiryGraceMs: number;
  /** How long past its grace a TERMINATING sandbox may linger before it is force-killed. */
  stuckAfterMs: number;
}

export type ReapAction = { t: "expire"; id: string; graceMs: number } | { t: "force-kill"; id: string } | { t: "forget"; id: string };

/** Lifetime is counted from start (from create while the sandbox has not started yet). */
export function expiresAtMs(r: SandboxRecord): number | undefined {
  if (r.effectiveLifetimeSeconds <= 0) return undefined;
  return (r.startedAtMs ?? r.createdAtMs) + r.effectiveLifetimeSeconds * 1000;
}

/** When the reaper's next action on the record falls due (forget, force-kill or expire); undefined: none. */
export function dueAtMs(r: SandboxRecord, p: LifecyclePolicy): number | undefined {
  if (isTerminal(r.state)) return (r.endedAtMs ?? r.createdAtMs) + p.retentionMs;
  if (r.stop) return r.stop.requestedAtMs + r.stop.graceMs + p.stuckAfterMs;
  return expiresAtMs(r);
}

export function planReap(records: Iterable<SandboxRecord>, nowMs: number, p: LifecyclePolicy): ReapAction[] {
  const out: ReapAction[] = [];
  for (const r of records) {
    const due = dueAtMs(r, p);
    if (due === undefined || due > nowMs) continue;
    if (isTerminal(r.state)) out.push({ t: "forget", id: r.id });
    else if (r.stop) out.push({ t: "force-kill", id: r.id });
    else out.push({ t: "expire", id: r.id, graceMs: p.expiryGraceMs });
  }
  return out;
}

/**
 * How far behind the reaper is (metrics): how long the longest-due of its actions has been due,
 * 0 when none is. A reaper that keeps up keeps this under its interval.
 */
export function reapLagMs(records: Iterable<SandboxRecord>, nowMs: number, p: LifecyclePolicy): number {
  let lag = 0;
  for (const r of records) {
    const due = dueAtMs(r, p);
    if (due !== undefined && nowMs - due > lag) lag = nowMs - due;
  }
  return lag;
}

/** How long the oldest sandbox still starting (PENDING or CREATING) has been at it since its create; 0 when none (metrics). */
export function oldestStartingMs(records: Iterable<SandboxRecord>, nowMs: number): number {
  let age = 0;
  for (const r of records)
    if ((r.state === "PENDING" || r.state === "CREATING") && nowMs - r.createdAtMs > age) age = nowMs - r.createdAtMs;
  return age;
}

/** The state a sandbox takes when its main process ended. */
export function stateOnExit(
  r: SandboxRecord,
  exitCode: number,
  runtimeReason: string,
  startFailure?: string,
  endedBy?: string,
): { state: State; reason: string } {
  if (startFailure && !r.stop) return { state: "FAILED", reason: `main process could not start: ${startFailure}` };
  // CREATING with a start time: the start finished and RUNNING is being stored (ADR 0014); it ran.
  if ((r.state === "PENDING" || r.state === "CREATING") && r.startedAtMs === undefined) {
    if (r.stop) return { state: "COMPLETED", reason: `stopped before it started (${runtimeReason})` };
    return { state: "FAILED", reason: `main process exited during start: ${runtimeReason}` };
  }
  if (r.stop?.why === "expired")
    return { state: "COMPLETED", reason: `max lifetime of ${r.effectiveLifetimeSeconds}s exceeded; exit code ${exitCode}` };
  if (r.stop) return { state: "COMPLETED", reason: `stopped by ${r.stop.why === "purged" ? "purge" : "delete"}; exit code ${exitCode}` };
  if (endedBy) return { state: "COMPLETED", reason: `${endedBy}; exit code ${exitCode}` };
  return { state: "COMPLETED", reason: `main process exited with code ${exitCode}` };
}

/** States only move forward: a terminal record never changes, TERMINATING never returns to RUNNING. */
export function canMove(from: State, to: State): boolean {
  if (isTerminal(from)) return false;
  if (from === "TERMINATING") return isTerminal(to);
  const order: State[] = ["PENDING", "CREATING", "RUNNING", "TERMINATING"];
  return isTerminal(to) || order.indexOf(to) > order.indexOf(from);
}

/**
 * What a stored record (written by another replica, or before a restart) changes in this
 * process's copy: a stop or a delete it did not know of, and states that move forward. Undefined = nothing.
 */
export function mergeStored(local: SandboxRecord, stored: SandboxRecord): Partial<SandboxRecord> | undefined {
  const out: Partial<SandboxRecord> = {};
  if (stored.stop && !local.stop && !isTerminal(local.state)) out.stop = stored.stop;
  if (stored.deletedAtMs !== undefined && local.deletedAtMs === undefined) out.deletedAtMs = stored.deletedAtMs;
  if (stored.state !== local.state && canMove(local.state, stored.state)) {
    out.state = stored.state;
    out.stateReason = stored.stateReason;
    if (stored.startedAtMs !== undefined) out.startedAtMs = stored.startedAtMs;
    if (stored.endedAtMs !== undefined) out.endedAtMs = stored.endedAtMs;
    if (stored.exitCode !== undefined) out.exitCode = stored.exitCode;
    if (stored.imageNote) out.imageNote = stored.imageNote;
  }
  return Object.keys(out).length ? out : undefined;
}
