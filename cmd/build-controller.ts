/**
 * The controller over the runtime, with the tenant guard that holds each tenant to its limits and
 * the metrics that read both (the metrics exist first: the guard counts its refusals there).
 */
import type pino from "pino";
import { createMetrics } from "../api/metrics.js";
import type { SecretResolver } from "../core/secrets.js";
import type { TemplateRecord } from "../core/templates.js";
import { createController } from "../controller/controller.js";
import { createDirSnapshotStore } from "../controller/snapshot-store.js";
import { createTenantGuard } from "../controller/tenant-guard.js";
import type { Runtime } from "../runtime/types.js";
import type { Config } from "./config.js";
import type { TrimLoop } from "./malloc-trim.js";

type Controller = ReturnType<typeof createController>;

export async function buildController(
  cfg: Config,
  log: pino.Logger,
  o: { runtime: Runtime; secrets: SecretResolver | undefined; sharedTemplates: TemplateRecord[]; trimLoop: TrimLoop | undefined },
) {
  const { runtime, trimLoop } = o;
  const holder: { controller?: Controller } = {};
  const metrics = createMetrics(() => holder.controller?.counts() ?? {}, {
    runtime: runtime.name,
    runners: () => runtime.runners(),
    lifecycle: () => holder.controller?.lifecycleStats() ?? { reapLagSeconds: 0, oldestStartingSeconds: 0 },
    ...(runtime.poolStats ? { pools: () => runtime.poolStats?.() ?? [] } : {}),
    ...(runtime.netinitStats ? { netinit: () => runtime.netinitStats?.() ?? { failures: 0 } } : {}),
    ...(runtime.apiStats ? { api: () => runtime.apiStats?.() ?? [] } : {}),
    ...(runtime.podStats ? { pods: () => runtime.podStats?.() ?? { withoutRecord: 0 } } : {}),
    ...(runtime.watchStats ? { watch: () => runtime.watchStats?.() } : {}),
    ...(runtime.execStats ? { exec: () => runtime.execStats?.() as Record<string, number> | undefined } : {}),
    ...(runtime.agentStats ? { agents: () => runtime.agentStats?.() } : {}),
    ...(trimLoop ? { trim: () => trimLoop.stats() } : {}),
    tenants: () => {
      const live = holder.controller?.liveByTenant() ?? new Map<string, number>();
      const used = new Map(tenantGuard.usage().map((u) => [u.tenant, u]));
      return [...new Set([...live.keys(), ...used.keys()])].map((tenant) => ({
        tenant,
        sandboxes: live.get(tenant) ?? 0,
        held_calls: used.get(tenant)?.held_calls ?? 0,
        exec_streams: used.get(tenant)?.exec_streams ?? 0,
      }));
    },
  });
  const tenantGuard = createTenantGuard({ table: cfg.tenantLimits, onRefused: (tenant, limit) => metrics.limitRefused(tenant, limit) });
  const controller = createController({
    runtime,
    defaultDenyEgress: cfg.defaultDenyEgress,
    policy: { retentionMs: cfg.retentionSeconds * 1000, expiryGraceMs: 0, stuckAfterMs: 30_000 },
    defaultLifetimeSeconds: cfg.defaultLifetimeSeconds,
    maxLifetimeSeconds: cfg.maxLifetimeSeconds,
    maxSandboxes: cfg.maxSandboxes,
    maxExecsPerSandbox: cfg.maxExecsPerSandbox,
    maxExecs: cfg.maxExecs,
    maxFileBytes: cfg.maxFileBytes,
    reapIntervalMs: cfg.reapIntervalMs,
    secrets: o.secrets,
    tenants: tenantGuard,
    sharedTemplates: o.sharedTemplates,
    ...(cfg.snapshots
      ? {
          snapshots: {
            store: await createDirSnapshotStore(cfg.snapshots.dir),
            maxBytes: cfg.snapshots.maxBytes,
            maxPerTenant: cfg.snapshots.perTenant,
          },
        }
      : {}),
    log: log.child({ component: "controller" }),
    onRunning: (seconds) => metrics.startDone(seconds),
  });
  holder.controller = controller;
  return { controller, metrics, tenantGuard };
}
