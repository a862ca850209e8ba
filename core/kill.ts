/**
 * Kills are never silent (issue 38, ADR 0032). A kill that does not confirm the command gone is
 * retried with backoff within one bound (tries started within KILL_RETRY_BOUND_MS, all of it over
 * within KILL_GIVE_UP_MS); one that is still unconfirmed then is logged with the sandbox id,
 * counted (`hangar_kill_failures_total{runtime,reason}`) and surfaced (the call's error, or the
 * sandbox's status message). The Kubernetes kills and the chaos suite's "a vanished client's
 * command is gone" check use this same bound; local kills retry less (runtime/local/cgroups.ts).
 */

/**
 * How long after its first try a kill may still start a try (the pause before it included). It
 * covers a restart of the kubelet or the apiserver on the plain exec path (each answered again
 * within ~4 s on the test node, docs/benchmarks.md), with room for the exec that kills to be
 * scheduled after it.
 */
export const KILL_RETRY_BOUND_MS = 20_000;
/** How long one kill try may take before it counts as unconfirmed (Kubernetes: the kill exec's own time). */
export const KILL_TRY_TIMEOUT_MS = 1_000;
/**
 * The longest a command may outlive a kill that started, counted from its first try, tries and
 * pauses together: tries start within KILL_RETRY_BOUND_MS and each takes at most
 * KILL_TRY_TIMEOUT_MS (retryKill). After that the kill has failed, and was counted, logged and
 * surfaced. The chaos suite's "a vanished client's command is gone" check waits exactly this long.
 */
export const KILL_GIVE_UP_MS = KILL_RETRY_BOUND_MS + KILL_TRY_TIMEOUT_MS;
/** The first pause between tries; each next one doubles, up to KILL_RETRY_MAX_DELAY_MS. */
export const KILL_RETRY_FIRST_DELAY_MS = 250;
export const KILL_RETRY_MAX_DELAY_MS = 2_000;

/** The pauses before each retry: doubling from `firstMs`, capped at `maxMs`, all of them within `boundMs`. Pure. */
export function killRetryDelays(
  boundMs = KILL_RETRY_BOUND_MS,
  firstMs = KILL_RETRY_FIRST_DELAY_MS,
  maxMs = KILL_RETRY_MAX_DELAY_MS,
): number[] {
  const out: number[] = [];
  let total = 0;
  for (let d = firstMs; d > 0 && total + d <= boundMs; d = Math.min(d * 2, maxMs)) {
    out.push(d);
    total += d;
  }
  return out;
}

/** A kill that did not take: the command (or cgroup) may still run. */
export class KillFailed extends Error {
  constructor(
    message: string,
    /** A short label for the metric: why it failed (`still_running`, `write_failed`, `unreachable`, `no_kill_path`, ...). */
    readonly why: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "KillFailed";
  }
}

/**
 * Runs `attempt` until it resolves, pausing `delays[i]` before retry i; rejects with the last
 * error once the delays are spent. `stop()` true ends the retries early (the command ended on its
 * own: nothing is left to kill), resolving.
 *
 * With `boundMs` and `tryTimeoutMs`, the tries themselves are bounded too, from the first try's
 * start: no try starts past `boundMs` (a retry whose pause would start it later is not made, nor
 * one whose pause ran late; the last error rejects), and each try is given `tryTimeoutMs` (its
 * argument), by which the attempt must have ended (a try past its time counts as failed). So the
 * whole kill, tries and pauses, ends within `boundMs + tryTimeoutMs` of its start (KILL_GIVE_UP_MS
 * for KILL_RETRY_BOUND_MS and KILL_TRY_TIMEOUT_MS). Without them the delays alone bound the
 * retries, and a try is given Infinity.
 */
export async function retryKill(
  attempt: (timeoutMs: number) => Promise<void>,
  o: {
    delays?: number[];
    sleep?: (ms: number) => Promise<void>;
    stop?: () => boolean;
    boundMs?: number;
    tryTimeoutMs?: number;
    now?: () => number;
  } = {},
): Promise<{ tries: number }> {
  const delays = o.delays ?? killRetryDelays();
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
  const now = o.now ?? Date.now;
  const bound = o.boundMs ?? Infinity;
  const tryMs = o.tryTimeoutMs ?? Infinity;
  const t0 = now();
  for (let i = 0; ; i++) {
    try {
      await attempt(tryMs);
      return { tries: i + 1 };
    } catch (e) {
      const pause = delays[i];
      if (pause === undefined || now() - t0 + pause > bound) throw e;
      await sleep(pause);
      if (o.stop?.()) return { tries: i + 1 };
      // A pause that ran late must not start a try past the bound either.
      if (now() - t0 > bound) throw e;
    }
  }
}

const KILL_NOTE = "; its processes could not be killed";
/** A sandbox's state reason noting that a kill failed (once; pure): `<reason>; its processes could not be killed (<why>), retried`. */
export function withKillNote(reason: string, e: unknown): string {
  const base = reason.includes(KILL_NOTE) ? reason.slice(0, reason.indexOf(KILL_NOTE)) : reason;
  return `${base}${KILL_NOTE} (${((e as Error)?.message ?? String(e)).slice(0, 200)}), retried`;
}

/** The label a failed kill is counted under. */
export const killWhy = (e: unknown): string => (e instanceof KillFailed ? e.why : "error");

type KillLog = { warn(o: object, m: string): void };

/**
 * Failed kills since start, by runtime and reason (why it failed: KillFailed.why), and where they
 * are logged (cmd/ installs Hangar's logger at start). One per process: the runtimes, the exec
 * API, the file calls and the reaper all report here; `hangar_kill_failures_total` reads it.
 */
export const killFailures = (() => {
  const counts = new Map<string, number>();
  const reported = new WeakSet<object>();
  // Until cmd/ installs Hangar's logger: one JSON line on stderr, never nothing.
  let log: KillLog = {
    warn: (o, m) => void process.stderr.write(`${JSON.stringify({ msg: m, ...o, err: String((o as { err?: unknown }).err) })}\n`),
  };
  return {
    setLog(l: KillLog) {
      log = l;
    },
    /** Counts and logs one kill that failed after its retries: the command (or the sandbox's processes) may still run. */
    report(runtime: string, sandboxId: string, e: unknown, what = "a command") {
      // One failure is reported once, whoever else hears of it (the cut stream's kill, then the caller's).
      if (typeof e === "object" && e !== null) {
        if (reported.has(e)) return;
        reported.add(e);
      }
      const reason = killWhy(e);
      const key = `${runtime}\u0000${reason}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      log.warn({ err: e, sandbox_id: sandboxId, runtime, reason }, `could not kill ${what}: it may still run`);
    },
    snapshot(): { runtime: string; reason: string; count: number }[] {
      return [...counts].map(([k, count]) => {
        const [runtime = "", reason = ""] = k.split("\u0000");
        return { runtime, reason, count };
      });
    },
  };
})();

/** The process with a kill() whose failure is reported (counted, logged with the sandbox id) before it is rethrown to the caller. */
export function reportKills<P extends { kill(): Promise<void> }>(p: P, runtime: string, sandboxId: string): P {
  const kill = () =>
    p.kill().catch((e: unknown) => {
      killFailures.report(runtime, sandboxId, e);
      throw e;
    });
  return { ...p, kill };
}
