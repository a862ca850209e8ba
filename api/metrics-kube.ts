/** The Kubernetes runtime's apiserver calls and the sandbox pods it holds no record for; each absent source adds none. */
import { Counter, Gauge, type Registry } from "prom-client";
import type { MetricSources } from "./metrics-sources.js";

export function registerKubeMetrics(registry: Registry, s: Pick<MetricSources, "api" | "pods">): void {
  const api = s.api;
  if (api) {
    new Counter({
      name: "hangar_kube_api_calls_total",
      help: "Calls to the apiserver through the Kubernetes client's typed APIs (not the pod watch or exec streams), by verb (HTTP method) and resource (pods, pods/log, nodes, …); Kubernetes runtime",
      labelNames: ["verb", "resource"],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of api()) if (c.code === undefined) this.inc({ verb: c.verb, resource: c.resource }, c.count);
      },
    });
    new Counter({
      name: "hangar_kube_api_responses_total",
      help: "The apiserver's answers to those calls, by verb, resource and code (the HTTP status; error: no answer came); Kubernetes runtime",
      labelNames: ["verb", "resource", "code"],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of api()) if (c.code !== undefined) this.inc({ verb: c.verb, resource: c.resource, code: c.code }, c.count);
      },
    });
  }
  const pods = s.pods;
  if (pods)
    new Gauge({
      name: "hangar_kube_pods_without_record",
      help: "Hangar's sandbox pods (not a warm pool's idle ones, not being deleted) that this replica holds no record for: a record released while its pod stayed, one a newer Hangar wrote, a pod without its sandbox id; Kubernetes runtime",
      registers: [registry],
      collect() {
        this.set(pods().withoutRecord);
      },
    });
}
