/**
 * The web console, when HANGAR_CONSOLE_LISTEN asks for it (ADR 0039): its view of the fleet (runners,
 * pools, each tenant's use against its limits) and the last hour of Hangar's own figures, over the
 * controller and the same credential check as the API.
 */
import { readFileSync } from "node:fs";
import type pino from "pino";
import type { CredentialCheck } from "../api/auth.js";
import { createConsole } from "../console/server.js";
import type { Fleet, TenantUse } from "../console/deps.js";
import { createHistory } from "../console/history.js";
import type { Controller } from "../controller/controller.js";
import type { TenantGuard } from "../controller/tenant-guard.js";
import type { Runtime } from "../runtime/types.js";
import type { ConsoleConfig } from "./config-console.js";
import { fail } from "./fail.js";

export const PLOTTED = ["live", "running", "starting", "pool_idle", "exec_streams"] as const;
const SAMPLE_MS = 15_000;
const WINDOW_MS = 3600_000;

interface Parts {
  controller: Controller;
  runtime: Runtime;
  tenantGuard: TenantGuard;
  check: CredentialCheck;
  installDir: string;
}

function fleetOf(p: Parts) {
  return (only?: string): Fleet => {
    const live = p.controller.liveByTenant();
    const used = new Map(p.tenantGuard.usage().map((u) => [u.tenant, u]));
    const names = only !== undefined ? [only] : [...new Set([...live.keys(), ...used.keys()])].sort();
    const tenants: TenantUse[] = names.map((tenant) => ({
      tenant,
      sandboxes: live.get(tenant) ?? 0,
      held_calls: used.get(tenant)?.held_calls ?? 0,
      exec_streams: used.get(tenant)?.exec_streams ?? 0,
      limits: { ...p.tenantGuard.limits(tenant) },
    }));
    return {
      runners: p.runtime.runners().map((r) => ({
        id: r.runnerId,
        healthy: r.healthy,
        running: r.runningSandboxes,
        cpuMillicores: r.availableCpuMillicores,
        memoryBytes: r.availableMemoryBytes,
        gpus: r.gpus?.available ?? 0,
      })),
      pools: (p.runtime.poolStats?.() ?? []).map(({ pool, size, idle, ready, hits, misses }) => ({
        pool,
        size,
        idle,
        ready,
        hits,
        misses,
      })),
      tenants,
    };
  };
}

function probeOf(p: Parts) {
  return (): Record<string, number> => {
    const c = p.controller.counts();
    const n = (s: string) => c[s] ?? 0;
    return {
      live: n("PENDING") + n("CREATING") + n("RUNNING"),
      running: n("RUNNING"),
      starting: n("PENDING") + n("CREATING"),
      pool_idle: (p.runtime.poolStats?.() ?? []).reduce((a, s) => a + s.idle, 0),
      exec_streams: p.tenantGuard.usage().reduce((a, u) => a + u.exec_streams, 0),
    };
  };
}

export async function startConsole(cfg: ConsoleConfig, log: pino.Logger, p: Parts) {
  const history = createHistory({ probe: probeOf(p), now: Date.now, intervalMs: SAMPLE_MS, windowMs: WINDOW_MS });
  const tls = cfg.tls ? { cert: readFileSync(cfg.tls.cert), key: readFileSync(cfg.tls.key) } : undefined;
  const consoleServer = await createConsole(
    {
      controller: p.controller,
      check: p.check,
      fleet: fleetOf(p),
      history,
      plotted: PLOTTED,
      operators: cfg.operators,
      operatorWrite: cfg.operatorWrite,
      sessionTtlMs: cfg.sessionSeconds * 1000,
      secureCookie: cfg.secureCookie,
      installDir: p.installDir,
      now: Date.now,
      log: log.child({ component: "console" }),
    },
    tls,
  ).catch((e: Error) => fail(`HANGAR_CONSOLE_LISTEN: ${e.message}`));
  const addr = await consoleServer
    .listen(cfg.listen.host, cfg.listen.port)
    .catch((e: Error) => fail(`HANGAR_CONSOLE_LISTEN=${cfg.listen.text}: ${e.message}`));
  history.start();
  log.info({ console_port: addr.port, host: addr.address, tls: !!tls, operators: cfg.operators.length }, "console listening");
  return { close: () => (history.stop(), consoleServer.close()) };
}
