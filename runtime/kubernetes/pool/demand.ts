/**
 * Demand-sized pools (`image=min-max`, ADR 0041): a pool keeps enough pods for the claims it saw
 * in its busiest 10 s of the last 5 minutes, never fewer than min nor more than the operator's max.
 * An RL step's burst keeps its pool at the burst's size through the pause before the next step;
 * a pool nobody claims from shrinks to min within 5 minutes. Pure: the counts are the caller's.
 */

/** Claims are counted per bucket of this length. */
export const DEMAND_BUCKET_MS = 10_000;
/** Buckets older than this are forgotten: the pool shrinks back after this long without demand. */
export const DEMAND_WINDOW_MS = 300_000;

/** Claim counts per bucket (bucket = floor(ms / DEMAND_BUCKET_MS)), oldest first. */
export type DemandBuckets = { bucket: number; claims: number }[];

/** The buckets with one more claim at `nowMs`, those past the window dropped (returns a new array). */
export function recordClaim(b: DemandBuckets, nowMs: number): DemandBuckets {
  const bucket = Math.floor(nowMs / DEMAND_BUCKET_MS);
  const kept = b.filter((x) => x.bucket > bucket - DEMAND_WINDOW_MS / DEMAND_BUCKET_MS);
  const last = kept[kept.length - 1];
  if (last?.bucket === bucket) return [...kept.slice(0, -1), { bucket, claims: last.claims + 1 }];
  return [...kept, { bucket, claims: 1 }];
}

/**
 * How many pods the pool keeps now: `size` for a fixed pool (no min); for a demand-sized one the
 * busiest bucket within the window, clamped to [min, size].
 */
export function demandTarget(pool: { size: number; min?: number }, b: DemandBuckets, nowMs: number): number {
  if (pool.min === undefined) return pool.size;
  const from = Math.floor(nowMs / DEMAND_BUCKET_MS) - DEMAND_WINDOW_MS / DEMAND_BUCKET_MS;
  const peak = b.reduce((m, x) => (x.bucket > from ? Math.max(m, x.claims) : m), 0);
  return Math.min(pool.size, Math.max(pool.min, peak));
}
