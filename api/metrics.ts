/** Prometheus metrics: per-RPC counts and latency, exec durations, sandboxes by state. */
import { createServer, type Server } from "node:http";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { killFailures } from "../core/kill.js";
import { registerFleetGauges } from "./metrics-fleet.js";
import { registerKubeMetrics } from "./metrics-kube.js";
import { registerSourceGauges, type MetricSources } from "./metrics-sources.js";
import { registerTenantMetrics } from "./metrics-tenants.js";

export type { MetricSources } from "./metrics-sources.js";
export { MAX_TENANT_LABELS } from "./metrics-tenants.js";

/** Serves the registry's text at /metrics. */
function listen(registry: Registry, host: string, port: number): Promise<Server> {
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
}

/** What every process reports whatever its sources: kills that failed, and sandboxes by state. */
function registerCoreGauges(registry: Registry, sandboxCounts: () => Record<string, number>): void {
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
}

export function createMetrics(sandboxCounts: () => Record<string, number>, sources: MetricSources = {}) {
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
  const starts = new Histogram({
    name: "hangar_sandbox_start_duration_seconds",
    help: "Seconds from a sandbox's create to RUNNING, for the sandboxes this replica saw start (image pulls and warm-pool claims included)",
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  new Gauge({
    name: "hangar_info",
    help: "1, labelled with the runtime this Hangar runs (local or kubernetes)",
    labelNames: ["runtime"],
    registers: [registry],
  }).set({ runtime: sources.runtime ?? "unknown" }, 1);
  registerCoreGauges(registry, sandboxCounts);
  registerSourceGauges(registry, sources);
  registerFleetGauges(registry, sources);
  registerKubeMetrics(registry, sources);
  const limitRefused = registerTenantMetrics(registry, sources.tenants);
  return {
    registry,
    limitRefused,
    rpcDone(method: string, code: string, seconds: number) {
      rpcs.inc({ method, code });
      latency.observe({ method }, seconds);
    },
    execDone(outcome: string, seconds: number) {
      execs.observe({ outcome }, seconds);
    },
    startDone(seconds: number) {
      starts.observe(seconds);
    },
    listen(host: string, port: number): Promise<Server> {
      return listen(registry, host, port);
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
