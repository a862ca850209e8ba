/**
 * Held calls: a GetSandbox that waits for the state to change (ADR 0009), and a command that
 * waits for a sandbox still starting. Each holds one of the tenant's held_calls slots.
 */
import type { SandboxRecord, State } from "../core/types.js";
import { owned, present, type SandboxTable } from "./sandbox-table.js";
import type { TenantGuard } from "./tenant-guard.js";

export const START_WAIT_MS = 10_000;
const NEVER = new AbortController().signal;

/**
 * The record once its state differs from `from`, or as it is after `maxMs` or when the
 * signal fires: a GetSandbox of a sandbox in a transitional state answers the moment it
 * moves on instead of leaving the caller to poll (ADR 0009).
 */
export async function getChanged(
  t: SandboxTable,
  tenants: TenantGuard | undefined,
  q: { tenant: string; id: string; from: State; maxMs: number; signal: AbortSignal; counted?: boolean },
): Promise<SandboxRecord> {
  const { tenant, id, from, maxMs, signal } = q;
  const r = owned(t, tenant, id);
  if (r.state !== from || maxMs <= 0 || signal.aborted) return r;
  // A tenant at its held_calls limit is answered at once, as a poll would be (the hold only saves it the next poll).
  const held = (q.counted ?? true) && tenants ? tenants.tryAcquire(tenant, "held_calls") : () => undefined;
  if (!held) return r;
  await new Promise<void>((resolve) => {
    const set = t.waiters.get(id) ?? new Set<() => void>();
    t.waiters.set(id, set);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      set.delete(done);
      if (set.size === 0 && t.waiters.get(id) === set) t.waiters.delete(id);
      resolve();
    };
    const timer = setTimeout(done, maxMs);
    signal.addEventListener("abort", done, { once: true });
    set.add(done);
  }).finally(held);
  return owned(t, tenant, id);
}

/**
 * A sandbox still starting is waited for (at most startWaitMs, or until the caller goes)
 * before a command is refused as not running: another replica may have answered RUNNING a
 * moment before this one's watch shows it, and an apiserver outage delays that further.
 */
export async function startedOrWait(
  t: SandboxTable,
  tenants: TenantGuard | undefined,
  startWaitMs: number,
  q: { tenant: string; id: string; signal?: AbortSignal },
): Promise<void> {
  const { tenant, id, signal } = q;
  const until = t.now() + startWaitMs;
  const first = present(t, tenant, id);
  if (first.state !== "PENDING" && first.state !== "CREATING") return;
  const held = tenants?.acquire(tenant, "held_calls"); // one slot for the whole wait
  try {
    for (let r = first; (r.state === "PENDING" || r.state === "CREATING") && !signal?.aborted;) {
      const left = until - t.now();
      if (left <= 0) return;
      const before = r.state;
      r = await getChanged(t, tenants, { tenant, id, from: before, maxMs: left, signal: signal ?? NEVER, counted: false });
      if (r.state === before) return; // waited all it may
    }
  } finally {
    held?.();
  }
}
