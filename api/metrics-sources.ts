/** Gauges of what the process reports beyond the API's own counts (the runtime's watch, exec paths, agents, malloc_trim); each absent source adds none. */
import { Counter, Gauge, type Registry } from "prom-client";
import type { ApiCallCount } from "../runtime/types.js";
import type { FleetSources } from "./metrics-fleet.js";

/** What the process reports beyond the API's own counts; each absent source adds no metric. */
export interface MetricSources extends FleetSources {
  /** The runtime this process runs (hangar_info). */
  runtime?: string;
  watch?: () => { relists: number } | undefined;
  exec?: () => Record<string, number> | undefined;
  agents?: () => Record<string, number> | undefined;
  netinit?: () => { failures: number };
  /** Apiserver calls and answers (Kubernetes runtime). */
  api?: () => ApiCallCount[];
  /** Sandbox pods without a record on this replica (Kubernetes runtime). */
  pods?: () => { withoutRecord: number };
  trim?: () => { trims: number; seconds: number; releasedBytes: number } | undefined;
  /** Per-tenant use (ADR 0031): live sandboxes, held calls and commands of each tenant with any. */
  tenants?: () => { tenant: string; sandboxes: number; held_calls: number; exec_streams: number }[];
}

/** A gauge of counts by one label, read from its source at each scrape. */
function countsGauge(registry: Registry, name: string, help: string, label: string, stats: () => Record<string, number> | undefined) {
  new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      for (const [key, n] of Object.entries(stats() ?? {})) this.set({ [label]: key }, n);
    },
  });
}

export function registerSourceGauges(registry: Registry, sources: MetricSources): void {
  const { watch: watchStats, exec: execStats, agents: agentStats, trim: trimStats } = sources;
  if (watchStats) {
    new Gauge({
      name: "hangar_kube_pod_watch_relists",
      help: "Full relists of the sandbox pod watch since start (it expired: 410 Gone, e.g. across an apiserver restart); Kubernetes runtime",
      registers: [registry],
      collect() {
        const w = watchStats();
        if (w) this.set(w.relists);
      },
    });
  }
  const netinit = sources.netinit;
  if (netinit)
    new Counter({
      name: "hangar_kube_netinit_failures_total",
      help: "Sandbox starts on this replica that failed because the pod's network setup (the hangar-netinit init container) failed or could not start; Kubernetes runtime",
      registers: [registry],
      collect() {
        this.reset();
        this.inc(netinit().failures);
      },
    });
  if (execStats)
    countsGauge(
      registry,
      "hangar_kube_exec_commands",
      "Commands started since start by the path they took: direct (the exec agent's direct link), agent (its channel through the apiserver), plain (an exec per command); Kubernetes runtime",
      "path",
      execStats,
    );
  if (agentStats)
    countsGauge(
      registry,
      "hangar_kube_agent_starts",
      "Exec agent starts since start by how the agent got into the pod: found (a copy already there: netinit's from Hangar's image, or an earlier install), installed (streamed in through exec stdin first: the pod had no copy of this build), unusable (neither worked: plain exec); Kubernetes runtime",
      "how",
      agentStats,
    );
  if (trimStats) {
    const trims = {
      trims: "Calls of glibc's malloc_trim since start (HANGAR_MALLOC_TRIM_SECONDS)",
      seconds: "Seconds spent in malloc_trim since start",
      releasedBytes: "Bytes of RSS malloc_trim handed back since start (RSS before minus after, summed)",
    } as const;
    const names = {
      trims: "hangar_malloc_trims",
      seconds: "hangar_malloc_trim_seconds",
      releasedBytes: "hangar_malloc_trim_released_bytes",
    } as const;
    for (const key of ["trims", "seconds", "releasedBytes"] as const) {
      new Gauge({
        name: names[key],
        help: trims[key],
        registers: [registry],
        collect() {
          const t = trimStats();
          if (t) this.set(t[key]);
        },
      });
    }
  }
}
