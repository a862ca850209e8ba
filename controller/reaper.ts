/**
 * The reaper: on each tick it carries out planReap() (controller/lifecycle.ts) — expire what
 * outlived its lifetime, force-kill what did not stop in its grace period, drop what passed its
 * retention. One sweep at a time.
 */
import { killFailures, withKillNote } from "../core/kill.js";
import { planReap, type LifecyclePolicy } from "./lifecycle.js";
import { requestKey, type SandboxTable } from "./sandbox-table.js";
import { stop } from "./stopping.js";

async function sweep(t: SandboxTable, policy: LifecyclePolicy): Promise<void> {
  const { runtime, log } = t;
  for (const a of planReap(t.records.values(), t.now(), policy)) {
    const r = t.records.get(a.id);
    if (!r) continue;
    if (a.t === "expire") {
      log.info({ sandbox_id: r.id, lifetime_s: r.effectiveLifetimeSeconds }, "max lifetime exceeded");
      stop(t, r, a.graceMs, "expired");
    } else if (a.t === "force-kill") {
      log.warn({ sandbox_id: r.id }, "sandbox did not stop after its grace period: killing");
      // A force kill that fails is counted, logged and retried on the next sweeps (after stuckAfterMs each).
      await runtime.stop(r.id, 0).catch((e: unknown) => {
        killFailures.report(runtime.name, r.id, e, "the sandbox (force kill)");
        r.stateReason = withKillNote(r.stateReason, e); // GetSandbox shows it (state_reason)
      });
      if (r.stop) r.stop.requestedAtMs = t.now();
    } else {
      t.records.delete(r.id);
      if (r.requestId) t.byRequest.delete(requestKey(r.tenant, r.requestId));
      await runtime.remove(r.id).catch((e) => log.warn({ err: e, sandbox_id: r.id }, "remove failed"));
    }
  }
}

export function createReaper(t: SandboxTable, policy: LifecyclePolicy, intervalMs: number) {
  /** One sweep at a time: a call while a sweep runs (a slow stop, a slow remove) joins that sweep. */
  let reaping: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  function reapOnce(): Promise<void> {
    reaping ??= sweep(t, policy).finally(() => (reaping = undefined));
    return reaping;
  }
  return {
    reapOnce,
    start() {
      timer = setInterval(() => void reapOnce().catch((e) => t.log.error({ err: e }, "reaper tick failed")), intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
