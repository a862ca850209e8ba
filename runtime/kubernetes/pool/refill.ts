/** How fast a warm pool refills, and when it waits for claims to pause: pure, table-tested (warm-pool.ts uses them). */

/**
 * Pool pod creates one replica has in flight at most, refilling at most this many per tick
 * (1 s; a claim no longer triggers a refill of its own). A burst of claims empties the pool at
 * once; replacing every pod in the same moment puts the node's whole pod-start load on top of
 * the claims (a 100-claim burst took 43 s with unpaced refill).
 */
export const REFILL_PER_TICK = 10;

/** How many pool pods to create now (pure, table-tested). */
export function refillCount(size: number, idle: number, creating: number, perTick = REFILL_PER_TICK): number {
  return Math.max(0, Math.min(size - idle - creating, perTick - creating));
}

/**
 * Refill yields to claims: while claims keep coming (the last one less than REFILL_QUIET_MS ago)
 * no pool pod is created, for at most REFILL_MAX_DEFER_MS from when the pool first fell short.
 * Pod starts land on the same node (and apiserver) as the claims; measured on the test node, a
 * refill tick inside a burst of 100 claims made it take 660-920 ms instead of 290 ms
 * (bench/burst-probe.mjs). Under a steady stream of claims the refill waits once, then runs
 * every tick.
 */
export const REFILL_QUIET_MS = 1000;
export const REFILL_MAX_DEFER_MS = 3000;

/** Whether this tick's refill waits for claims to pause (pure, table-tested). */
export function refillDeferred(
  nowMs: number,
  lastClaimMs: number | undefined,
  shortSinceMs: number,
  quietMs = REFILL_QUIET_MS,
  maxDeferMs = REFILL_MAX_DEFER_MS,
): boolean {
  if (lastClaimMs === undefined || nowMs - lastClaimMs >= quietMs) return false;
  return nowMs - shortSinceMs < maxDeferMs;
}
