import type { FieldViolation } from "../core/errors.js";
import { PROBE_DEFAULTS, type StartupProbe } from "../core/probe.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import { hasNul } from "./spec-text.js";

/** Container.startup_probe -> a probe with Kubernetes' defaults for fields left 0. */
export function probeOf(p: Container__Output["startup_probe"], at: string, v: FieldViolation[]): StartupProbe | undefined {
  if (!p) return undefined;
  const exec = p.exec ?? [];
  if (!exec.length || !exec[0]) v.push({ field: `${at}.exec`, description: "required: the command to run (argv)" });
  if (exec.length > 256 || exec.some(hasNul) || exec.reduce((a, s) => a + Buffer.byteLength(s), 0) > 64 * 1024)
    v.push({ field: `${at}.exec`, description: "at most 256 arguments, 64 KiB, without NUL" });
  const num = (
    k: "period_seconds" | "timeout_seconds" | "failure_threshold" | "initial_delay_seconds",
    min: number,
    max: number,
    def: number,
  ) => {
    const n = Number(p[k] ?? 0);
    if (n === 0) return def;
    if (!Number.isInteger(n) || n < min || n > max) v.push({ field: `${at}.${k}`, description: `must be ${min} to ${max} (0: ${def})` });
    return n;
  };
  const probe: StartupProbe = {
    exec: [...exec],
    periodSeconds: num("period_seconds", 1, 3600, PROBE_DEFAULTS.periodSeconds),
    timeoutSeconds: num("timeout_seconds", 1, 3600, PROBE_DEFAULTS.timeoutSeconds),
    failureThreshold: num("failure_threshold", 1, 1000, PROBE_DEFAULTS.failureThreshold),
    initialDelaySeconds: num("initial_delay_seconds", 0, 3600, PROBE_DEFAULTS.initialDelaySeconds),
  };
  const worst = probe.initialDelaySeconds + probe.failureThreshold * (probe.periodSeconds + probe.timeoutSeconds);
  if (worst > 3600)
    v.push({ field: at, description: `may take up to ${worst}s (initial delay + failures x (period + timeout)); at most 3600` });
  return probe;
}
