/** Prometheus metrics: per-RPC counts and latency, exec durations, sandboxes by state. */
import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { killFailures } from "../core/kill.js";

/** What the process reports beyond the API's own counts; each absent source adds no metric. */
export interface MetricSources {
  watch?: () => { relists: number } | undefined;
  exec?: () => Record<string, number> | undefined;
  agents?: () => Record<string, number> | undefined;
  trim?: () => { trims: number; seconds: number; releasedBytes: number } | undefined;
  /** Per-tenant use (ADR 0031): live sandboxes, held calls and commands of each tenant with any. */
  tenants?: () => { tenant: string; sandboxes: number; held_calls: number; exec_streams: number }[];
}

/** Tenants beyond this many get the label "_other": a label per tenant, never unbounded. */
export const MAX_TENANT_LABELS = 200;

export function createMetrics(sandboxCounts: () => Record<string, number>, sources: MetricSources = {}) {
  const { watch: watchStats, exec: execStats, agents: agentStats, trim: trimStats, tenants: tenantStats } = sources;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "hangar_process_" });
  const rpcs = new Counter({
    name: "hangar_grpc_requests_total",
    help: "gRPC calls by method and status code",
    labelNames: ["method", "code"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "hangar_grpc_request_duration_seconds",
    help: "gRPC call duration by method (streams: until the stream ends)",
    labelNames: ["method"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const execs = new Histogram({
    name: "hangar_exec_duration_seconds",
    help: "Duration of commands run through StreamExec/Exec, by outcome",
    labelNames: ["outcome"],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
    registers: [registry],
  });
  new Counter({
    name: "hangar_kill_failures_total",
    help: "Kills that failed after their retries (ADR 0032): a command or a sandbox's processes may still run. By runtime and reason: still_running (processes left after the kill), write_failed (the cgroup's kill file could not be written), unreachable (the kill exec found no way into the pod), unconfirmed (no confirmation within the bound), no_kill_path (nothing in the pod can kill it), error (anything else)",
    labelNames: ["runtime", "reason"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { runtime, reason, count } of killFailures.snapshot()) this.inc({ runtime, reason }, count);
    },
  });
  const states = ["PENDING", "CREATING", "RUNNING", "TERMINATING", "COMPLETED", "FAILED"];
  new Gauge({
    name: "hangar_sandboxes",
    help: "Sandboxes known to this Hangar by state (terminal ones until their retention ends)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const c = sandboxCounts();
      for (const s of states) this.set({ state: s }, c[s] ?? 0);
    },
  });
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
  if (execStats) {
    new Gauge({
      name: "hangar_kube_exec_commands",
      help: "Commands started since start by the path they took: direct (the exec agent's direct link), agent (its channel through the apiserver), plain (an exec per command); Kubernetes runtime",
      labelNames: ["path"],
      registers: [registry],
      collect() {
        for (const [path, n] of Object.entries(execStats() ?? {})) this.set({ path }, n);
      },
    });
  }
  if (agentStats) {
    new Gauge({
      name: "hangar_kube_agent_starts",
      help: "Exec agent starts since start by how the agent got into the pod: found (a copy already there: netinit's from Hangar's image, or an earlier install), installed (streamed in through exec stdin first: the pod had no copy of this build), unusable (neither worked: plain exec); Kubernetes runtime",
      labelNames: ["how"],
      registers: [registry],
      collect() {
        for (const [how, n] of Object.entries(agentStats() ?? {})) this.set({ how }, n);
      },
    });
  }
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
  const labelled = new Set<string>();
  const tenantLabel = (t: string) => {
    if (labelled.has(t)) return t;
    if (labelled.size >= MAX_TENANT_LABELS) return "_other";
    labelled.add(t);
    return t;
  };
  const refusals = new Counter({
    name: "hangar_tenant_limit_refusals_total",
    help: "Calls refused at a per-tenant limit, by tenant and limit (held_calls also counts GetSandbox calls answered without their hold)",
    labelNames: ["tenant", "limit"],
    registers: [registry],
  });
  if (tenantStats) {
    for (const key of ["sandboxes", "held_calls", "exec_streams"] as const) {
      new Gauge({
        name: `hangar_tenant_${key}`,
        help: {
          sandboxes: "Live sandboxes per tenant (every replica's records)",
          held_calls: "Held calls per tenant on this replica (held GetSandbox, commands waiting for a start, followed logs)",
          exec_streams: "Commands running per tenant on this replica",
        }[key],
        labelNames: ["tenant"],
        registers: [registry],
        collect() {
          this.reset();
          const sums = new Map<string, number>();
          for (const u of tenantStats()) sums.set(tenantLabel(u.tenant), (sums.get(tenantLabel(u.tenant)) ?? 0) + u[key]);
          for (const [tenant, n] of sums) this.set({ tenant }, n);
        },
      });
    }
  }
  return {
    registry,
    limitRefused(tenant: string, limit: string) {
      refusals.inc({ tenant: tenantLabel(tenant), limit });
    },
    rpcDone(method: string, code: string, seconds: number) {
      rpcs.inc({ method, code });
      latency.observe({ method }, seconds);
    },
    execDone(outcome: string, seconds: number) {
      execs.observe({ outcome }, seconds);
    },
    listen(host: string, port: number): Promise<Server> {
      const server = createServer((req, res) => {
        if (req.url !== "/metrics") {
          res.writeHead(404).end("see /metrics\n");
          return;
        }
        registry.metrics().then(
          (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
          () => res.writeHead(500).end(),
        );
      });
      return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => resolve(server));
      });
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
