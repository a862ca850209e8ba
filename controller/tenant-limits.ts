/**
 * Per-tenant limits (ADR 0031): what one tenant may hold at once, so that no tenant can take every
 * slot of the machine or the cluster. Every decision here is a pure function of (limits, state, now);
 * controller/tenant-guard.ts keeps the state and turns a refusal into RESOURCE_EXHAUSTED.
 */

/** The limits' names, as errors, metrics and HANGAR_TENANT_LIMITS spell them. */
export type LimitName = "concurrent_sandboxes" | "creates_per_second" | "create_burst" | "held_calls" | "exec_streams" | "log_bytes";
/** The limits counted in slots taken and given back (a call that holds one until it ends). */
export type SlotLimit = "held_calls" | "exec_streams";

export interface TenantLimits {
  /** Live (not ended) sandboxes at once, counted from the records every replica sees. */
  concurrent_sandboxes: number;
  /** Creates refill at this rate (a token bucket per replica)... */
  creates_per_second: number;
  /** ...holding at most this many (a burst of creates at once). */
  create_burst: number;
  /** Calls waiting at once: held GetSandbox (ADR 0009), commands waiting for a start, followed log streams. */
  held_calls: number;
  /** Commands running at once: Exec, StreamExec, ReadFile, WriteFile. */
  exec_streams: number;
  /** Bytes of output the tenant's local sandboxes keep in Hangar's memory, all together (local runtime). */
  log_bytes: number;
}

export interface LimitTable {
  defaults: TenantLimits;
  /** Per-tenant overrides (HANGAR_TENANT_LIMITS): what a tenant's entry sets replaces the default. */
  tenants: Readonly<Record<string, Partial<TenantLimits>>>;
}

export const LIMIT_NAMES: readonly (keyof TenantLimits)[] = [
  "concurrent_sandboxes",
  "creates_per_second",
  "create_burst",
  "held_calls",
  "exec_streams",
  "log_bytes",
];

/** The retry delay a refusal carries: about when a slot of that kind is likely free again. */
export const RETRY_AFTER_MS: Readonly<Record<"concurrent_sandboxes" | SlotLimit, number>> = {
  concurrent_sandboxes: 2000,
  held_calls: 1000,
  exec_streams: 500,
};

export const limitsFor = (table: LimitTable, tenant: string): TenantLimits => ({ ...table.defaults, ...table.tenants[tenant] });

export interface Refusal {
  limit: LimitName;
  value: number;
  retryAfterMs: number;
}

/** A token bucket: `tokens` as of `atMs`. */
export interface Bucket {
  tokens: number;
  atMs: number;
}

/** The bucket refilled to `nowMs` (a new tenant's starts full). */
export function refill(b: Bucket | undefined, perSecond: number, burst: number, nowMs: number): Bucket {
  if (!b) return { tokens: burst, atMs: nowMs };
  const elapsed = Math.max(0, nowMs - b.atMs);
  return { tokens: Math.min(burst, b.tokens + (elapsed * perSecond) / 1000), atMs: Math.max(b.atMs, nowMs) };
}

/**
 * Whether the tenant may create one more sandbox now, given its live sandboxes and its bucket:
 * the bucket after taking a token, or the refusal (the bucket unchanged: a refused create costs
 * no token). The concurrent limit is judged first, so a tenant at it spends nothing.
 */
export function decideCreate(
  l: TenantLimits,
  live: number,
  bucket: Bucket | undefined,
  nowMs: number,
): { bucket: Bucket } | { refused: Refusal } {
  if (live >= l.concurrent_sandboxes)
    return { refused: { limit: "concurrent_sandboxes", value: l.concurrent_sandboxes, retryAfterMs: RETRY_AFTER_MS.concurrent_sandboxes } };
  const b = refill(bucket, l.creates_per_second, l.create_burst, nowMs);
  if (b.tokens >= 1) return { bucket: { tokens: b.tokens - 1, atMs: b.atMs } };
  // Until one whole token is back (at least 1 ms).
  const waitMs = Math.max(1, Math.ceil(((1 - b.tokens) * 1000) / l.creates_per_second));
  return { refused: { limit: "creates_per_second", value: l.creates_per_second, retryAfterMs: waitMs } };
}

/** Whether one more slot of a counted limit may be taken while `inUse` are held. */
export function decideSlot(l: TenantLimits, limit: SlotLimit, inUse: number): Refusal | undefined {
  return inUse >= l[limit] ? { limit, value: l[limit], retryAfterMs: RETRY_AFTER_MS[limit] } : undefined;
}

/** What each limit counts, for the refusal's message. */
export const LIMIT_WHAT: Readonly<Record<LimitName, string>> = {
  concurrent_sandboxes: "this tenant already has that many live sandboxes (delete one, or wait for one to end)",
  creates_per_second: "this tenant creates sandboxes faster than that",
  create_burst: "this tenant created that many sandboxes at once",
  held_calls: "this tenant already has that many waiting calls (held GetSandbox, commands waiting for a start, followed logs)",
  exec_streams: "this tenant already runs that many commands (Exec, StreamExec, ReadFile, WriteFile)",
  log_bytes: "this tenant's sandboxes already keep that many bytes of logs",
};
