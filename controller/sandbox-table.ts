/**
 * The sandboxes this replica knows: one record per sandbox (scoped to the tenant that created
 * it), found by id or by (tenant, request_id); the state moves of a record, each stored where it
 * outlives this process when the runtime can, and the callers woken when a state changes.
 */
import { errors } from "../core/errors.js";
import { isTerminal, type SandboxRecord, type State } from "../core/types.js";
import type { Runtime } from "../runtime/types.js";
import { canMove } from "./lifecycle.js";

export interface Log {
  info(o: object, m: string): void;
  warn(o: object, m: string): void;
  error(o: object, m: string): void;
}

export interface SandboxTable {
  readonly records: Map<string, SandboxRecord>;
  /** Sandbox ids by requestKey(tenant, request_id). */
  readonly byRequest: Map<string, string>;
  /** Callers waiting for a sandbox's state to change (a held GetSandbox), by sandbox id. */
  readonly waiters: Map<string, Set<() => void>>;
  /** The last save of each sandbox still landing. */
  readonly saving: Map<string, Promise<void>>;
  readonly runtime: Runtime;
  readonly now: () => number;
  readonly log: Log;
  readonly onStateChange?: (from: State | undefined, to: State) => void;
  readonly onRunning?: (secondsSinceCreate: number) => void;
}

export function newTable(o: Pick<SandboxTable, "runtime" | "now" | "log" | "onStateChange" | "onRunning">): SandboxTable {
  return { records: new Map(), byRequest: new Map(), waiters: new Map(), saving: new Map(), ...o };
}

export const requestKey = (tenant: string, requestId: string) => `${tenant}\u0000${requestId}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Wakes the callers waiting for the sandbox's state to change. */
export function changed(t: SandboxTable, id: string) {
  const w = t.waiters.get(id);
  if (!w) return;
  t.waiters.delete(id);
  for (const wake of w) wake();
}

/** Stores the record where it outlives this process, when the runtime can (Kubernetes: on the pod). */
export function save(t: SandboxTable, r: SandboxRecord) {
  const p = t.runtime.records?.save(r).catch((e: unknown) => t.log.warn({ err: e, sandbox_id: r.id }, "could not store the record"));
  if (!p) return;
  t.saving.set(r.id, p);
  void p.finally(() => {
    if (t.saving.get(r.id) === p) t.saving.delete(r.id);
  });
}

/** Settles when what was last stored of the sandbox has landed (saves land in call order): a delete is answered once its stop is durable. */
export const stored = (t: SandboxTable, id: string): Promise<void> => t.saving.get(id) ?? Promise.resolve();

export function setState(t: SandboxTable, r: SandboxRecord, to: State, reason: string, stored = false) {
  if (r.state === to || !canMove(r.state, to)) return false;
  const from = r.state;
  r.state = to;
  r.stateReason = reason;
  r.preparing = undefined;
  r.pull = undefined;
  if (isTerminal(to)) r.endedAtMs ??= t.now();
  t.onStateChange?.(from, to);
  if (to === "RUNNING") t.onRunning?.((t.now() - r.createdAtMs) / 1000);
  changed(t, r.id);
  if (to !== "CREATING" && !stored) save(t, r); // CREATING is stored with the pod itself
  return true;
}

/**
 * RUNNING is shown only once it is stored: a caller that saw RUNNING here and goes to another
 * replica (or finds this one restarted) finds it RUNNING there too.
 */
export async function becomeRunning(t: SandboxTable, r: SandboxRecord, note: string, alreadyStored = false) {
  if (r.state === "CREATING" && alreadyStored) setState(t, r, "RUNNING", note, true);
  else if (r.state === "CREATING" && t.runtime.records) {
    await t.runtime.records
      .save({ ...r, state: "RUNNING", stateReason: note })
      .catch((e: unknown) => t.log.warn({ err: e, sandbox_id: r.id }, "could not store the record"));
    if (r.state === "CREATING") setState(t, r, "RUNNING", note, true);
  } else if (r.state === "CREATING") setState(t, r, "RUNNING", note);
  if (r.stop) void t.runtime.stop(r.id, r.stop.graceMs).catch((e) => t.log.warn({ err: e, sandbox_id: r.id }, "stop failed"));
}

export function owned(t: SandboxTable, tenant: string, id: string): SandboxRecord {
  const r = t.records.get(id);
  if (!r || r.tenant !== tenant) throw errors.sandboxNotFound(id);
  return r;
}

/** A sandbox of this tenant that was not deleted: what every RPC but Get and List acts on. */
export function present(t: SandboxTable, tenant: string, id: string): SandboxRecord {
  const r = owned(t, tenant, id);
  if (r.deletedAtMs !== undefined) throw errors.sandboxNotFound(id);
  return r;
}

export function running(t: SandboxTable, tenant: string, id: string): SandboxRecord {
  const r = present(t, tenant, id);
  if (r.state !== "RUNNING") throw errors.notRunning(id, r.state);
  return r;
}

/** Live sandboxes, of one tenant or all. */
export function live(t: SandboxTable, tenant?: string) {
  let n = 0; // one pass, no copy: this runs on every create
  for (const r of t.records.values()) if (!isTerminal(r.state) && (tenant === undefined || r.tenant === tenant)) n++;
  return n;
}

/** Sandboxes per state. */
export function counts(t: SandboxTable) {
  const c: Record<string, number> = {};
  for (const r of t.records.values()) c[r.state] = (c[r.state] ?? 0) + 1;
  return c;
}

/** Live sandboxes per tenant (the per-tenant gauge). */
export function liveByTenant(t: SandboxTable) {
  const c = new Map<string, number>();
  for (const r of t.records.values()) if (!isTerminal(r.state)) c.set(r.tenant, (c.get(r.tenant) ?? 0) + 1);
  return c;
}

/**
 * Before an id this replica does not know is answered NOT_FOUND: another replica may have just
 * created it (the create answered there; the watch here is a moment behind, or longer while the
 * apiserver restarts). The runtime settles it from its watch (runtime/kubernetes/id-lookup.ts).
 * Ids that are not UUIDs are not looked up (NOT_FOUND for them costs nothing).
 */
export async function ensure(t: SandboxTable, id: string, tenant?: string): Promise<void> {
  const known = t.records.get(id);
  // Another tenant's id waits as an unknown one does: the answer's timing tells nothing.
  if ((known && (tenant === undefined || known.tenant === tenant)) || !t.runtime.records?.lookup || !UUID.test(id)) return;
  await t.runtime.records.lookup(id).catch((e: unknown) => t.log.warn({ err: e, sandbox_id: id }, "could not look the sandbox up"));
}
