/**
 * What the controller and the API hold every sandbox to: retention and lifetimes, the global
 * limits, the deadlines and holds, the egress default, and the per-tenant limits (read by
 * cmd/config-limits.ts, ADR 0031).
 */
import { ConfigError, type Env } from "./config-env.js";
import { LimitsConfigError, readTenantLimits } from "./config-limits.js";

/** `open`: no keys file (one tenant); `localLogBytes`: a local sandbox's log size (HANGAR_LOCAL_LOG_BYTES). */
export function readPolicy(env: Env, g: { open: boolean; localLogBytes: number }) {
  const tenantLimits = (() => {
    try {
      return readTenantLimits(env.int, env.str, {
        maxSandboxes: env.int("HANGAR_MAX_SANDBOXES", 256, 1, 100_000),
        maxExecs: env.int("HANGAR_MAX_EXECS", 1024, 1, 100_000),
        open: g.open,
        localLogBytes: g.localLogBytes,
      });
    } catch (e) {
      throw e instanceof LimitsConfigError ? new ConfigError(e.message) : e;
    }
  })();
  return {
    retentionSeconds: env.int("HANGAR_RETENTION_SECONDS", 3600, 0, 30 * 86400),
    defaultLifetimeSeconds: env.int("HANGAR_DEFAULT_LIFETIME_SECONDS", 3600, 1, 30 * 86400),
    maxLifetimeSeconds: env.int("HANGAR_MAX_LIFETIME_SECONDS", 86400, 1, 30 * 86400),
    maxSandboxes: env.int("HANGAR_MAX_SANDBOXES", 256, 1, 100_000),
    maxExecsPerSandbox: env.int("HANGAR_MAX_EXECS_PER_SANDBOX", 64, 1, 10_000),
    maxExecs: env.int("HANGAR_MAX_EXECS", 1024, 1, 100_000),
    maxFileBytes: env.int("HANGAR_MAX_FILE_BYTES", 32 * 1024 * 1024, 1024, 99 * 1024 * 1024),
    maxGraceSeconds: env.int("HANGAR_MAX_GRACE_SECONDS", 3600, 0, 86400),
    getHoldMs: env.int("HANGAR_GET_HOLD_MS", 2000, 0, 30_000),
    execDeadlineMarginMs: env.int("HANGAR_EXEC_DEADLINE_MARGIN_MS", 5000, 0, 60_000),
    reapIntervalMs: env.int("HANGAR_REAP_INTERVAL_MS", 1000, 50, 60_000),
    defaultDenyEgress: env.bool("HANGAR_DEFAULT_DENY_EGRESS", true),
    reportPreparing: env.bool("HANGAR_REPORT_PREPARING", true),
    tenantLimits,
  };
}
