/**
 * The state behind the per-tenant limits of controller/tenant-limits.ts, kept per replica: each
 * tenant's create bucket and its slots in use (held calls, commands). Live sandboxes are not kept
 * here: the controller counts them from its records, which hold every replica's sandboxes.
 */
import { errors } from "../core/errors.js";
import {
  decideCreate,
  decideSlot,
  LIMIT_WHAT,
  limitsFor,
  type Bucket,
  type LimitName,
  type LimitTable,
  type Refusal,
  type SlotLimit,
  type TenantLimits,
} from "./tenant-limits.js";

export interface TenantGuardOptions {
  table: LimitTable;
  now?: () => number;
  /** Each refusal (and each GetSandbox answered without its hold), by tenant and limit: a metric. */
  onRefused?: (tenant: string, limit: LimitName) => void;
}

export interface TenantUsage {
  tenant: string;
  held_calls: number;
  exec_streams: number;
}

export type TenantGuard = ReturnType<typeof createTenantGuard>;

export function createTenantGuard(o: TenantGuardOptions) {
  const now = o.now ?? Date.now;
  const buckets = new Map<string, Bucket>();
  const inUse: Record<SlotLimit, Map<string, number>> = { held_calls: new Map(), exec_streams: new Map() };

  const refuse = (tenant: string, r: Refusal) => {
    o.onRefused?.(tenant, r.limit);
    return errors.tenantLimit(r.limit, r.value, LIMIT_WHAT[r.limit], r.retryAfterMs);
  };

  /** Takes a slot; the returned release is idempotent. */
  const take = (tenant: string, limit: SlotLimit): (() => void) => {
    const m = inUse[limit];
    m.set(tenant, (m.get(tenant) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const n = (m.get(tenant) ?? 1) - 1;
      if (n <= 0) m.delete(tenant);
      else m.set(tenant, n);
    };
  };

  return {
    limits: (tenant: string): TenantLimits => limitsFor(o.table, tenant),

    /**
     * Throws RESOURCE_EXHAUSTED naming the limit when the tenant, with `live` sandboxes now, may not
     * create one more; spends nothing. A create asks this before its lookups (a tenant at its limit
     * costs no secret or volume lookup), then `admitCreate` in the same turn as its record's insert.
     */
    checkCreate(tenant: string, live: number): void {
      const d = decideCreate(limitsFor(o.table, tenant), live, buckets.get(tenant), now());
      if ("refused" in d) throw refuse(tenant, d.refused);
    },

    /** As checkCreate, and when admitted spends a token: call it synchronously with the record's insert. */
    admitCreate(tenant: string, live: number): void {
      const d = decideCreate(limitsFor(o.table, tenant), live, buckets.get(tenant), now());
      if ("refused" in d) throw refuse(tenant, d.refused);
      buckets.set(tenant, d.bucket);
    },

    /** A slot of the limit, or RESOURCE_EXHAUSTED naming it. */
    acquire(tenant: string, limit: SlotLimit): () => void {
      const r = decideSlot(limitsFor(o.table, tenant), limit, inUse[limit].get(tenant) ?? 0);
      if (r) throw refuse(tenant, r);
      return take(tenant, limit);
    },

    /** A slot of the limit, or undefined (counted as refused) when the tenant is at it: for calls that can go on without one. */
    tryAcquire(tenant: string, limit: SlotLimit): (() => void) | undefined {
      const r = decideSlot(limitsFor(o.table, tenant), limit, inUse[limit].get(tenant) ?? 0);
      if (r) {
        o.onRefused?.(tenant, r.limit);
        return undefined;
      }
      return take(tenant, limit);
    },

    /** Slots in use per tenant (tenants with none are left out). */
    usage(): TenantUsage[] {
      const tenants = new Set([...inUse.held_calls.keys(), ...inUse.exec_streams.keys()]);
      return [...tenants].map((tenant) => ({
        tenant,
        held_calls: inUse.held_calls.get(tenant) ?? 0,
        exec_streams: inUse.exec_streams.get(tenant) ?? 0,
      }));
    },
  };
}

/** The stream, with `release` called when its reader is done with it (ended, broke off, or failed). */
export async function* releasing<T>(stream: AsyncIterable<T>, release: () => void): AsyncIterable<T> {
  try {
    yield* stream;
  } finally {
    release();
  }
}
