/** Gauges of the fleet a Hangar runs: its warm pools, its runners' capacity and GPUs, and how its lifecycle keeps up. */
import { Counter, Gauge, type Registry } from "prom-client";
import type { RunnerInfo } from "../core/types.js";
import type { PoolStats } from "../runtime/types.js";

export interface FleetSources {
  /** Each warm pool now and since start (Kubernetes runtime with HANGAR_KUBE_WARM_POOLS). */
  pools?: () => PoolStats[];
  /** The runners sandboxes can be placed on (discovery's list). */
  runners?: () => RunnerInfo[];
  /** How far behind the reaper is and how long the oldest start has taken so far. */
  lifecycle?: () => { reapLagSeconds: number; oldestStartingSeconds: number };
}

/** A gauge whose series are set afresh from `fill` at each scrape (series gone from the source go too). */
function gauge(registry: Registry, name: string, help: string, labelNames: string[], fill: (g: Gauge) => void) {
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      fill(this);
    },
  });
}

/** A counter whose values are read from `fill` at each scrape (counts the source keeps since start). */
function counter(
  registry: Registry,
  name: string,
  help: string,
  labelNames: string[],
  fill: (add: (labels: Record<string, string>, n: number) => void) => void,
) {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      fill((labels, n) => this.inc(labels, n));
    },
  });
}

function registerPools(registry: Registry, pools: () => PoolStats[]) {
  const now = {
    size: "Target idle pods of each warm pool",
    idle: "Idle pods of each warm pool now",
    ready: "Idle pods of each warm pool that can be claimed now (running, exec proven)",
  } as const;
  for (const key of ["size", "idle", "ready"] as const)
    gauge(registry, `hangar_pool_${key}`, now[key], ["pool"], (g) => {
      for (const p of pools()) g.set({ pool: p.pool }, p[key]);
    });
  counter(
    registry,
    "hangar_pool_claims_total",
    "Creates on this replica that asked a warm pool for a pod, by outcome: hit (a pod claimed), miss (none could be: the sandbox got a pod of its own)",
    ["pool", "outcome"],
    (add) => {
      for (const p of pools()) {
        add({ pool: p.pool, outcome: "hit" }, p.hits);
        add({ pool: p.pool, outcome: "miss" }, p.misses);
      }
    },
  );
  counter(
    registry,
    "hangar_pool_refills_total",
    "Warm pod creates this replica started, by outcome: started, failed (the apiserver refused the create)",
    ["pool", "outcome"],
    (add) => {
      for (const p of pools()) {
        add({ pool: p.pool, outcome: "started" }, p.refills);
        add({ pool: p.pool, outcome: "failed" }, p.refillFailures);
      }
    },
  );
}

function registerRunners(registry: Registry, runners: () => RunnerInfo[]) {
  const of = (r: RunnerInfo) => ({ runner: r.runnerId });
  gauge(
    registry,
    "hangar_runner_cpu_millicores",
    "CPU of each runner in millicores, by kind: max (the most one sandbox can get), available (not asked for by live sandboxes)",
    ["runner", "kind"],
    (g) => {
      for (const r of runners()) {
        g.set({ ...of(r), kind: "max" }, r.maxCpuMillicores);
        g.set({ ...of(r), kind: "available" }, r.availableCpuMillicores);
      }
    },
  );
  gauge(
    registry,
    "hangar_runner_memory_bytes",
    "Memory of each runner in bytes, by kind: max, available (as hangar_runner_cpu_millicores)",
    ["runner", "kind"],
    (g) => {
      for (const r of runners()) {
        g.set({ ...of(r), kind: "max" }, r.maxMemoryBytes);
        g.set({ ...of(r), kind: "available" }, r.availableMemoryBytes);
      }
    },
  );
  gauge(
    registry,
    "hangar_runner_gpus",
    "GPUs of each runner with any, by kind: total (allocatable on its nodes), available (not asked for by live sandboxes)",
    ["runner", "kind"],
    (g) => {
      for (const r of runners()) {
        if (!r.gpus) continue;
        g.set({ ...of(r), kind: "total" }, r.gpus.total);
        g.set({ ...of(r), kind: "available" }, r.gpus.available);
      }
    },
  );
  gauge(registry, "hangar_runner_sandboxes", "Live sandboxes on each runner", ["runner"], (g) => {
    for (const r of runners()) g.set(of(r), r.runningSandboxes);
  });
}

export function registerFleetGauges(registry: Registry, s: FleetSources): void {
  if (s.pools) registerPools(registry, s.pools);
  if (s.runners) registerRunners(registry, s.runners);
  const lifecycle = s.lifecycle;
  if (lifecycle) {
    gauge(
      registry,
      "hangar_reaper_lag_seconds",
      "How long the reaper's most overdue action (expire, force-kill, forget) has been due; a reaper that keeps up stays under HANGAR_REAP_INTERVAL_MS",
      [],
      (g) => g.set(lifecycle().reapLagSeconds),
    );
    gauge(
      registry,
      "hangar_sandbox_oldest_starting_seconds",
      "Age of the oldest sandbox still starting (PENDING or CREATING) on this replica; 0 when none is",
      [],
      (g) => g.set(lifecycle().oldestStartingSeconds),
    );
  }
}
