/**
 * The per-tenant limits' settings (ADR 0031), read by cmd/config-policy.ts: the defaults every
 * tenant gets (HANGAR_TENANT_*) and the overrides per tenant (HANGAR_TENANT_LIMITS, JSON).
 */
import { LIMIT_NAMES, type LimitTable, type TenantLimits } from "../controller/tenant-limits.js";

export class LimitsConfigError extends Error {}

type Int = (key: string, def: number, min: number, max: number) => number;

/** Bounds of each limit, for the defaults' settings and the overrides alike. */
const BOUNDS: Record<keyof TenantLimits, [number, number]> = {
  concurrent_sandboxes: [1, 100_000],
  creates_per_second: [1, 10_000],
  create_burst: [1, 100_000],
  held_calls: [1, 1_000_000],
  exec_streams: [1, 100_000],
  log_bytes: [64 * 1024, Number.MAX_SAFE_INTEGER],
};

export const DEFAULT_LOCAL_LOG_BYTES = 8 * 1024 * 1024;
const TENANT = /^[a-z0-9]([a-z0-9._-]{0,61}[a-z0-9])?$/; // as api/auth.ts's keys file names tenants

/**
 * HANGAR_TENANT_LIMITS: `{"<tenant>": {"concurrent_sandboxes": 128, ...}, ...}`; each entry sets some
 * limits of one tenant, the rest stay the defaults. Unknown tenants' names, unknown limits and
 * values out of bounds are refused by name.
 */
export function parseTenantLimits(text: string, g: { maxSandboxes: number; maxExecs: number }): Record<string, Partial<TenantLimits>> {
  if (!text.trim()) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new LimitsConfigError(
      `HANGAR_TENANT_LIMITS: not JSON (${(e as Error).message}); expected e.g. {"team-a": {"concurrent_sandboxes": 128, "exec_streams": 512}}`,
    );
  }
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new LimitsConfigError("HANGAR_TENANT_LIMITS: expected a JSON object of tenant -> limits");
  const out: Record<string, Partial<TenantLimits>> = {};
  for (const [tenant, entry] of Object.entries(v as Record<string, unknown>)) {
    const at = `HANGAR_TENANT_LIMITS.${tenant}`;
    if (!TENANT.test(tenant))
      throw new LimitsConfigError(
        `${at}: "${tenant.slice(0, 64)}" is not a tenant name (1-63 characters of a-z, 0-9, '.', '_', '-', as in HANGAR_API_KEYS_FILE)`,
      );
    if (!entry || typeof entry !== "object" || Array.isArray(entry))
      throw new LimitsConfigError(`${at}: expected an object of limits (${LIMIT_NAMES.join(", ")})`);
    const limits: Partial<TenantLimits> = {};
    for (const [k, n] of Object.entries(entry as Record<string, unknown>)) {
      if (!(LIMIT_NAMES as string[]).includes(k))
        throw new LimitsConfigError(`${at}.${k}: unknown limit (one of ${LIMIT_NAMES.join(", ")})`);
      const key = k as keyof TenantLimits;
      const [min, max] = bounds(key, g);
      if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min || n > max)
        throw new LimitsConfigError(`${at}.${k}=${JSON.stringify(n)}: expected an integer from ${min} to ${max}`);
      limits[key] = n;
    }
    out[tenant] = limits;
  }
  return out;
}

/** A tenant's sandboxes and commands never go past the global limits, which apply first anyway: a larger value is a mistake. */
function bounds(key: keyof TenantLimits, g: { maxSandboxes: number; maxExecs: number }): [number, number] {
  const [min, max] = BOUNDS[key];
  if (key === "concurrent_sandboxes") return [min, g.maxSandboxes];
  if (key === "exec_streams") return [min, g.maxExecs];
  return [min, max];
}

/**
 * The limit table. Defaults: a quarter of the global sandbox and command limits (so while one tenant
 * is at its limit three quarters stay for the others), a burst as large as the tenant's sandbox
 * limit (a batch of creates at once is normal use) refilled at 10 a second, 256 held calls, and
 * the tenant's sandboxes' full logs. Open mode (no keys file: one tenant) gives that one tenant the
 * global limits and no create rate to speak of (the bound, 10,000 a second): there is no other
 * tenant to be fair to.
 */
export function readTenantLimits(
  int: Int,
  str: (key: string, def: string) => string,
  g: { maxSandboxes: number; maxExecs: number; open: boolean; localLogBytes: number },
): LimitTable {
  const share = (n: number) => (g.open ? n : Math.max(1, Math.floor(n / 4)));
  const concurrent = int("HANGAR_TENANT_MAX_SANDBOXES", share(g.maxSandboxes), 1, g.maxSandboxes);
  const defaults: TenantLimits = {
    concurrent_sandboxes: concurrent,
    creates_per_second: int("HANGAR_TENANT_CREATES_PER_SECOND", g.open ? BOUNDS.creates_per_second[1] : 10, ...BOUNDS.creates_per_second),
    create_burst: int("HANGAR_TENANT_CREATE_BURST", concurrent, ...BOUNDS.create_burst),
    held_calls: int("HANGAR_TENANT_MAX_HELD_CALLS", 256, ...BOUNDS.held_calls),
    exec_streams: int("HANGAR_TENANT_MAX_EXECS", share(g.maxExecs), 1, g.maxExecs),
    log_bytes: int("HANGAR_TENANT_LOG_BYTES", concurrent * g.localLogBytes, ...BOUNDS.log_bytes),
  };
  return { defaults, tenants: parseTenantLimits(str("HANGAR_TENANT_LIMITS", ""), g) };
}
