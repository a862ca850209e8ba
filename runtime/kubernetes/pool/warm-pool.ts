/**
 * Warm pools: per image (or per shared template: the image with its resources and working
 * directory), a number of pre-started idle pods whose exec was already proven.
 * CreateSandbox claims one by relabelling it (sandbox id, tenant, tags, record, finalizer) in a
 * merge patch that carries the pod's resourceVersion, so the apiserver lets exactly one
 * claimer win (409 for the others, who try the next pod). Every replica refills in the
 * background, paced, and after claims pause; surplus idle pods (two replicas refilling at once)
 * are trimmed. What is
 * claimable is a pure function of the pods (`claimable`, table-tested).
 */
import * as k8s from "@kubernetes/client-node";
import { createHash } from "node:crypto";
import type { SandboxSpec } from "../../../core/types.js";
import type { PoolStats } from "../../types.js";
import { isConflict, isNotFound } from "../kube-errors.js";
import { MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID, sandboxLabels, TAGS_ANNOTATION } from "../pod/labels.js";
import { EGRESS_LABEL, ownAnnotationsOut } from "../pod/spec.js";
import { HOSTS_ANNOTATION, RECORD_ANNOTATION, RECORD_FINALIZER } from "../pod/keys.js";
import { poolKey, type PoolShape, type WarmPoolConfig } from "./config.js";
import type { MainResources } from "./caps.js";
import { candidates } from "./claim-order.js";
import { POOL_LABEL, EXEC_ANNOTATION, CLAIMED_LABEL } from "../pod/keys.js";
import { cellClaimLabels, heldByPool, isCellPod } from "./reuse.js";
import { type DemandBuckets, demandTarget, recordClaim } from "./demand.js";
import { refillCount, refillDeferred } from "./refill.js";
import { isUnanswered, patchClaim } from "./lost-claim.js";
export { REFILL_MAX_DEFER_MS, REFILL_PER_TICK, REFILL_QUIET_MS, refillCount, refillDeferred } from "./refill.js";
export { POOL_LABEL, EXEC_ANNOTATION, CLAIMED_LABEL };

export {
  parseWarmPools,
  poolFor,
  poolMatch,
  poolKey,
  poolShapeOf,
  type PoolShape,
  type WarmPoolConfig,
  type WarmPoolEntry,
} from "./config.js";
export { resolveWarmPools } from "./resolve.js";
export { claimOrder, mainResourcesOf } from "./claim-order.js";

/** again: a retry of the same start (waiting for a returning pod), not more demand; shell: only a pod whose image has /bin/sh. */
export interface ClaimHow {
  again?: boolean;
  shell?: boolean;
  /** A sized pool's claim (ADR 0043): only pods that can be resized to these, those already at them first. */
  resources?: MainResources;
  /**
   * Runs on a candidate before its claim patch and answers the pod to claim (a sized pool's resize,
   * whose new resourceVersion the claim then carries); a 409 or 404 moves on to the next candidate.
   */
  prepare?: (pod: k8s.V1Pod) => Promise<k8s.V1Pod>;
}

export interface ClaimFor {
  id: string;
  spec: SandboxSpec;
  tenant: string;
  recordText: string;
  egress: boolean;
  /** Hostname grants the egress proxy allows this sandbox (the pod's annotation, as a cold pod gets it). */
  hostnames?: string[];
  /** The sandbox's lifetime plus the backstop margin. */
  deadlineSeconds: number;
}

/**
 * The merge patch that turns an idle pool pod into the sandbox's pod (pure, table-tested): the
 * pod's resourceVersion as precondition, the sandbox's labels and record, the pool label gone,
 * and activeDeadlineSeconds counted from the claim (the pod's age plus the lifetime).
 */
export function claimPatch(pod: k8s.V1Pod, c: ClaimFor, nowMs: number): object {
  const cell = isCellPod(pod);
  const startedMs = new Date(pod.status?.startTime ?? pod.metadata?.creationTimestamp ?? nowMs).getTime();
  const age = Number.isFinite(startedMs) ? Math.max(0, Math.ceil((nowMs - startedMs) / 1000)) : 0;
  return {
    metadata: {
      resourceVersion: pod.metadata?.resourceVersion,
      labels: {
        ...sandboxLabels(c.id, c.spec.tags, c.tenant),
        [EGRESS_LABEL]: c.egress ? "allow" : "deny",
        [POOL_LABEL]: null,
        [CLAIMED_LABEL]: "true",
        ...(cell ? cellClaimLabels(pod, c.tenant) : {}),
      },
      annotations: {
        ...ownAnnotationsOut(c.spec.annotations),
        [TAGS_ANNOTATION]: JSON.stringify(c.spec.tags),
        [RECORD_ANNOTATION]: c.recordText,
        ...(c.hostnames?.length ? { [HOSTS_ANNOTATION]: JSON.stringify(c.hostnames) } : {}),
      },
      finalizers: [RECORD_FINALIZER],
    },
    // A reusable pod outlives its sandboxes: a deadline (which can only be lowered) would end it.
    ...(cell ? {} : { spec: { activeDeadlineSeconds: age + c.deadlineSeconds } }),
  };
}

/** A pool's label value: a hash of its image (and of its shape and node selector, when it has them). */
export const poolName = (image: string, shape?: PoolShape, nodeSelector?: Record<string, string>) =>
  `p${createHash("sha256")
    .update(poolKey(image, shape, nodeSelector))
    .digest("hex")
    .slice(0, 12)}`;

/** Idle pods of a pool, and which of them are ready to be claimed (running, exec proven, not being deleted). */
export function claimable(pods: k8s.V1Pod[], pool: string): { idle: k8s.V1Pod[]; ready: k8s.V1Pod[] } {
  const idle = pods.filter(
    (p) =>
      p.metadata?.labels?.[POOL_LABEL] === pool &&
      !p.metadata?.labels?.[SANDBOX_ID] &&
      !p.metadata?.deletionTimestamp &&
      !["Succeeded", "Failed"].includes(p.status?.phase ?? ""),
  );
  const ready = idle.filter(
    (p) => p.metadata?.annotations?.[EXEC_ANNOTATION] && p.status?.containerStatuses?.find((c) => c.name === "main")?.state?.running,
  );
  return { idle, ready };
}

export interface WarmPoolDeps {
  core: k8s.CoreV1Api;
  namespace: string;
  pools: WarmPoolConfig[];
  pods: () => k8s.V1Pod[];
  /** An idle pod of the pool (the runtime's locked-down pod spec, generateName set). */
  idlePod: (pool: WarmPoolConfig, labels: Record<string, string>) => k8s.V1Pod;
  /** Proves exec works in the pod; resolves "sh" or "plain". */
  probe: (podName: string) => Promise<"sh" | "plain">;
  log: { warn(o: object, m: string): void };
  now?: () => number;
}

const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

/** Proves exec on each running idle pod not proven yet (once at a time per pod), and marks it claimable. */
function probeIdle(d: WarmPoolDeps, idle: k8s.V1Pod[], inFlight: Set<string>) {
  for (const pod of idle) {
    const n = pod.metadata?.name ?? "";
    if (
      pod.status?.containerStatuses?.find((c) => c.name === "main")?.state?.running &&
      !pod.metadata?.annotations?.[EXEC_ANNOTATION] &&
      !inFlight.has(n)
    ) {
      inFlight.add(n);
      void d
        .probe(n)
        .then((mode) =>
          d.core.patchNamespacedPod(
            { name: n, namespace: d.namespace, body: { metadata: { annotations: { [EXEC_ANNOTATION]: mode } } } },
            mergePatch,
          ),
        )
        .catch((e: unknown) => d.log.warn({ err: e, pod: n }, "warm pod probe failed"))
        .finally(() => inFlight.delete(n));
    }
  }
}

/** Two replicas refilling at once overshoot: trim back, newest first (the same choice on every replica). */
function trimSurplus(d: WarmPoolDeps, idle: k8s.V1Pod[], size: number) {
  const surplus = idle.length - size;
  if (surplus <= 0) return;
  const newest = [...idle].sort((a, b) => (a.metadata?.name ?? "").localeCompare(b.metadata?.name ?? "")).slice(-surplus);
  // The precondition keeps a pod another replica claimed meanwhile (409) from being deleted.
  for (const pod of newest) {
    void d.core
      .deleteNamespacedPod({
        name: pod.metadata?.name ?? "",
        namespace: d.namespace,
        gracePeriodSeconds: 0,
        body: { preconditions: { resourceVersion: pod.metadata?.resourceVersion } },
      })
      .catch(() => undefined);
  }
}

/** Per pool: claims and refills since start (metrics). */
function poolCounters() {
  type Counts = Omit<PoolStats, "pool" | "size" | "idle" | "ready">;
  const counted = new Map<string, Counts>();
  const counts = (pool: string): Counts => counted.get(pool) ?? { hits: 0, misses: 0, refills: 0, refillFailures: 0 };
  const count = (pool: string, key: keyof Counts) => {
    const c = counts(pool);
    c[key]++;
    counted.set(pool, c);
  };
  return { count, counts: (pool: string) => ({ ...counts(pool) }) };
}

export function createWarmPools(d: WarmPoolDeps) {
  const inFlight = new Set<string>(); // pods being created or probed by this replica
  const claiming = new Set<string>(); // pods this replica is claiming: concurrent creates pick different ones
  let creating = 0;
  // Per pool: when a claim was last seen: one by this replica, or idle pods gone since the last
  // tick (another replica's claims; the same pause is wanted for them).
  const lastClaimMs = new Map<string, number>();
  const idleAtLastTick = new Map<string, number>();
  const shortSinceMs = new Map<string, number>(); // per pool: since when it has been short of pods
  const now = d.now ?? Date.now;
  const demand = new Map<string, DemandBuckets>(); // per pool: claims per 10 s (demand-sized pools)
  const target = (p: WarmPoolConfig, name: string) => demandTarget(p, demand.get(name) ?? [], now());
  const demanded = (name: string) => demand.set(name, recordClaim(demand.get(name) ?? [], now()));
  const { count, counts } = poolCounters();

  async function refillOnce(): Promise<void> {
    const all = d.pods();
    for (const p of d.pools) {
      const name = poolName(p.image, p.shape, p.nodeSelector);
      const { idle } = claimable(all, name);
      // Reusable pods hosting a sandbox now come back to the pool (ADR 0040): counted as the pool's.
      const held = heldByPool(all, name);
      probeIdle(d, idle, inFlight);
      const t = now();
      const size = target(p, name);
      if (idle.length < (idleAtLastTick.get(name) ?? 0)) lastClaimMs.set(name, Math.max(lastClaimMs.get(name) ?? 0, t));
      idleAtLastTick.set(name, idle.length);
      if (size - held - idle.length - creating <= 0) shortSinceMs.delete(name);
      else if (!shortSinceMs.has(name)) shortSinceMs.set(name, t);
      const missing = refillDeferred(t, lastClaimMs.get(name), shortSinceMs.get(name) ?? t)
        ? 0
        : refillCount(size - held, idle.length, creating);
      for (let i = 0; i < missing; i++) {
        creating++;
        count(name, "refills");
        void d.core
          .createNamespacedPod({ namespace: d.namespace, body: d.idlePod(p, { [MANAGED_BY]: MANAGED_BY_VALUE, [POOL_LABEL]: name }) })
          .catch((e: unknown) => {
            count(name, "refillFailures");
            d.log.warn({ err: e, image: p.image, template: p.template, runner: p.runnerId }, "could not create a warm pod");
          })
          .finally(() => creating--);
      }
      trimSurplus(d, idle, Math.max(0, size - held));
    }
  }

  /**
   * Claims a ready pod of the pool for a sandbox: one merge patch with the pod's
   * resourceVersion as precondition. Returns the claimed pod's name, or undefined when no pod
   * could be claimed (empty pool, or every candidate taken by someone else first). Every first
   * try counts as demand (a demand-sized pool grows to it), hit or miss.
   */
  async function claim(pool: WarmPoolConfig, tenant: string, patch: (pod: k8s.V1Pod) => object, how: ClaimHow = {}) {
    const { again = false, shell = false } = how;
    const pn = poolName(pool.image, pool.shape, pool.nodeSelector);
    lastClaimMs.set(pn, now());
    if (!again) demanded(pn); // one sandbox, one unit of demand (`again`: its start waits for a returning pod)
    const order = candidates(claimable(d.pods(), pn).ready, tenant, shell, claiming, how.resources);
    for (const pod of order.slice(0, 4)) {
      const name = pod.metadata?.name ?? "";
      if (claiming.has(name)) continue;
      claiming.add(name);
      try {
        await patchClaim(d.core, d.namespace, name, patch(how.prepare ? await how.prepare(pod) : pod), d.log);
        // Keep it reserved until the watch shows it claimed, so no later create here tries it.
        setTimeout(() => claiming.delete(name), 30_000).unref();
        count(pn, "hits");
        return name;
      } catch (e) {
        claiming.delete(name);
        if (isUnanswered(e)) throw e; // it may hold this pod: neither it nor another may be taken
        if (!isConflict(e) && !isNotFound(e)) d.log.warn({ err: e, pod: name }, "claiming a warm pod failed");
      }
    }
    count(pn, "misses");
    return undefined;
  }

  /** Each pool's target size, idle and claimable pods now, and its claims and refills since start (metrics). */
  function stats(): PoolStats[] {
    const all = d.pods();
    return d.pools.map((p) => {
      const pool = poolName(p.image, p.shape, p.nodeSelector);
      const { idle, ready } = claimable(all, pool);
      return { pool, size: target(p, pool), idle: idle.length, ready: ready.length, ...counts(pool) };
    });
  }

  /** A reusable pod given back to its pool (ADR 0040): no longer reserved by its last claim here. */
  const returned = (name: string) => void claiming.delete(name);

  const timer = setInterval(() => void refillOnce().catch((e: unknown) => d.log.warn({ err: e }, "warm pool refill failed")), 1000);
  timer.unref();
  return { claim, returned, refillOnce, stats, close: () => clearInterval(timer) };
}
