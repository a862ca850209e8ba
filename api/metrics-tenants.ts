/** Per-tenant metrics (ADR 0031): refusals at a tenant's limits and each tenant's use, a label per tenant but never unbounded. */
import { Counter, Gauge, type Registry } from "prom-client";
import type { MetricSources } from "./metrics-sources.js";

/** Tenants beyond this many get the label "_other": a label per tenant, never unbounded. */
export const MAX_TENANT_LABELS = 200;

/** Registers the tenant metrics; returns what counts a refusal. */
export function registerTenantMetrics(registry: Registry, tenantStats: MetricSources["tenants"]) {
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
  return (tenant: string, limit: string) => {
    refusals.inc({ tenant: tenantLabel(tenant), limit });
  };
}
