/**
 * Startup probes (Container.startup_probe): a command run in the sandbox until it exits 0; the
 * sandbox is RUNNING only then. Kubernetes runs it as the container's startupProbe (the kubelet,
 * durable across Hangar replicas); the local runtime runs `runStartupProbe` itself.
 */
export interface StartupProbe {
  exec: string[];
  periodSeconds: number;
  timeoutSeconds: number;
  failureThreshold: number;
  initialDelaySeconds: number;
}

/** Kubernetes' defaults for a field left 0. */
export const PROBE_DEFAULTS = { periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3, initialDelaySeconds: 0 };

export type ProbeOutcome = { ok: true; attempts: number } | { ok: false; attempts: number; reason: string };

/**
 * Tries the probe: after the initial delay, every period, until it exits 0 or fails
 * failureThreshold times in a row (a try that outlives its timeout fails). `run` resolves with the
 * exit code, or rejects when the command could not run (counted as a failure).
 */
export async function runStartupProbe(
  p: StartupProbe,
  run: (argv: string[], timeoutMs: number) => Promise<number>,
  sleep: (ms: number) => Promise<void>,
  alive: () => boolean = () => true,
): Promise<ProbeOutcome> {
  await sleep(p.initialDelaySeconds * 1000);
  let last = "";
  for (let attempt = 1; attempt <= p.failureThreshold; attempt++) {
    if (!alive()) return { ok: false, attempts: attempt - 1, reason: "the sandbox ended while its startup probe ran" };
    const code = await run(p.exec, p.timeoutSeconds * 1000).catch((e: Error) => e);
    if (code === 0) return { ok: true, attempts: attempt };
    last = typeof code === "number" ? (code === 124 ? `timed out after ${p.timeoutSeconds}s` : `exit code ${code}`) : code.message;
    if (attempt < p.failureThreshold) await sleep(p.periodSeconds * 1000);
  }
  return {
    ok: false,
    attempts: p.failureThreshold,
    reason: `the startup probe failed ${p.failureThreshold} time${p.failureThreshold > 1 ? "s" : ""} (last: ${last})`,
  };
}
