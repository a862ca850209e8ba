/**
 * The runtime's one stream of events (Runtime.subscribe) applied to the sandbox table: every
 * input from below that is not an answer to a call — a start's progress, a record stored, an
 * exit, a record of another replica, a start another replica began and this one finished.
 */
import type { PullProgress } from "../core/pull-progress.js";
import { isTerminal, type SandboxRecord } from "../core/types.js";
import type { ExitInfo, RuntimeEvent, StartedSandbox } from "../runtime/types.js";
import { mergeStored, stateOnExit } from "./lifecycle.js";
import { becomeRunning, changed, requestKey, setState, type SandboxTable } from "./sandbox-table.js";

/** Creates waiting for their record to be stored ("stored" events), by sandbox id. */
export type StoredWaiters = Map<string, () => void>;

/** A starting sandbox's reason follows the runtime's (a GPU sandbox waiting for the scheduler says why). */
function onProgress(t: SandboxTable, id: string, reason: string, preparing = false, pull?: PullProgress) {
  const r = t.records.get(id);
  if (r?.state !== "CREATING") return;
  r.stateReason = reason;
  r.pull = preparing ? pull : undefined;
  if (!!r.preparing === preparing) return;
  r.preparing = preparing || undefined;
  changed(t, id); // a held Get sees PREPARING begin and end
}

/** A record stored by another replica or before a restart: new ones are taken as they are, known ones only move forward. */
function onRecord(t: SandboxTable, stored: SandboxRecord) {
  const r = t.records.get(stored.id);
  if (!r) {
    t.records.set(stored.id, stored);
    if (stored.requestId) t.byRequest.set(requestKey(stored.tenant, stored.requestId), stored.id);
    t.onStateChange?.(undefined, stored.state);
    return;
  }
  const m = mergeStored(r, stored);
  if (!m) return;
  const from = r.state;
  Object.assign(r, m);
  if (m.state) {
    t.onStateChange?.(from, m.state);
    changed(t, r.id);
  }
}

/** A start another replica began and this one finished (that one is gone): RUNNING, stored first. */
function onStarted(t: SandboxTable, id: string, started: StartedSandbox) {
  const r = t.records.get(id);
  if (!r || r.state !== "CREATING") return;
  r.imageNote = started.imageNote;
  r.startedAtMs = started.startedAtMs;
  void becomeRunning(t, r, started.imageNote);
}

/**
 * The main process ended. With durable records the end is shown once stored, like RUNNING: a
 * caller that saw COMPLETED and then finds this replica restarted sees COMPLETED there too.
 * `ending`: sandboxes whose end is being stored before it is shown.
 */
function onExit(t: SandboxTable, ending: Set<string>, id: string, exit: ExitInfo) {
  const r = t.records.get(id);
  if (!r || isTerminal(r.state) || ending.has(id)) return;
  // The runtime saw the main process run (a replica that did not start it, or an exit reported
  // before the start's own answer): it did not die "during start".
  if (r.startedAtMs === undefined && exit.ranAtMs !== undefined && !exit.startFailure) r.startedAtMs = exit.ranAtMs;
  const next = stateOnExit(r, exit.exitCode, exit.reason, exit.startFailure, exit.endedBy);
  const apply = () => {
    ending.delete(id);
    if (isTerminal(r.state)) return;
    r.exitCode = exit.exitCode;
    r.endedAtMs = exit.endedAtMs;
    setState(t, r, next.state, next.reason, !!t.runtime.records);
    t.log.info({ sandbox_id: id, state: r.state, exit_code: exit.exitCode }, "sandbox ended");
  };
  if (!t.runtime.records) return apply();
  ending.add(id);
  const ended: SandboxRecord = { ...r, exitCode: exit.exitCode, endedAtMs: exit.endedAtMs, state: next.state, stateReason: next.reason };
  void t.runtime.records
    .save(ended)
    .catch((e: unknown) => t.log.warn({ err: e, sandbox_id: id }, "could not store the record"))
    .then(apply);
}

/** Subscribes the table to the runtime's events; a "stored" event wakes the create waiting in `storedWaiters`. */
export function followRuntime(t: SandboxTable, storedWaiters: StoredWaiters): void {
  const ending = new Set<string>();
  t.runtime.subscribe((e: RuntimeEvent) => {
    switch (e.t) {
      case "progress":
        return onProgress(t, e.id, e.reason, e.preparing, e.pull);
      case "stored": {
        const w = storedWaiters.get(e.id);
        storedWaiters.delete(e.id);
        return w?.();
      }
      case "exit":
        return onExit(t, ending, e.id, e.exit);
      case "record":
        return onRecord(t, e.record);
      case "started":
        return onStarted(t, e.id, e.started);
    }
  });
}
