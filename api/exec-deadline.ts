/**
 * An exec call's deadline and cancel (ADR 0032): the kill at the deadline minus a margin (or at once
 * on cancel), what the caller hears of it (timed out, not killed, still being killed), and the output
 * loop that stops waiting once the answer is due.
 */
import type { ExecHandle } from "../controller/controller.js";
import type { ExecProcess } from "../runtime/types.js";
import type { CallContext } from "./call.js";

export function killAtMs(deadlineMs: number | undefined, nowMs: number, marginMs: number): number | undefined {
  if (deadlineMs === undefined) return undefined;
  const remaining = deadlineMs - nowMs;
  return remaining > marginMs + 500 ? deadlineMs - marginMs : deadlineMs - Math.min(50, Math.max(0, remaining / 10));
}

/**
 * The kill of a command that must not outlive its call (timeout, cancel, failure): started once.
 * A kill that fails after the runtime's retries was already counted and logged (reportKills,
 * ADR 0032); here it decides what the caller hears.
 */
function commandKiller(p: ExecProcess) {
  let k: Promise<Error | undefined> | undefined;
  return () =>
    (k ??= p.kill().then(
      () => undefined,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    ));
}

export function armDeadline(handle: ExecHandle, ctx: CallContext, policy: { deadlineMarginMs: number }) {
  const started = Date.now();
  const at = killAtMs(ctx.deadlineMs, started, policy.deadlineMarginMs);
  const kill = commandKiller(handle.process);
  let timedOut = false;
  let notKilled: Error | undefined;
  /** The timeout's kill had not settled when the call had to answer: it goes on in the background. */
  let killing = false;
  let stopWaiting!: () => void;
  /** Settles when the output need not be waited for any more: the call was cancelled, or the timeout's kill failed or is still going on when the call must answer. */
  const stop = new Promise<void>((r) => (stopWaiting = r));
  const confirmMs = killConfirmMs(policy.deadlineMarginMs);
  const timer =
    at === undefined
      ? undefined
      : setTimeout(
          () => {
            timedOut = true;
            const answerNow = setTimeout(() => {
              killing = true;
              stopWaiting();
            }, confirmMs);
            void kill().then((e) => {
              clearTimeout(answerNow);
              killing = false;
              if (!e) return;
              notKilled ??= e;
              stopWaiting();
            });
          },
          Math.max(0, at - started),
        );
  const onAbort = () => {
    void kill();
    stopWaiting();
  };
  if (ctx.signal.aborted) onAbort();
  else ctx.signal.addEventListener("abort", onAbort, { once: true });
  return {
    timedOut: () => timedOut,
    /** The timeout's kill failed after its retries: the command may still run. */
    notKilled: () => notKilled,
    /** The timeout's kill is still going on (neither confirmed nor failed) when the call must answer. */
    killing: () => killing,
    stop,
    kill,
    seconds: () => (Date.now() - started) / 1000,
    disarm() {
      if (timer) clearTimeout(timer);
      ctx.signal.removeEventListener("abort", onAbort);
    },
    /**
     * Kills the command unless it finished, then frees its slot. Waited for, except after a kill
     * that failed or is still going on: the caller's answer must not wait for its retries (they go
     * on, bounded, and a final failure is reported there); the slot is freed once they end.
     */
    async end(finished: boolean) {
      if (finished) return handle.release();
      if (notKilled || killing) return void kill().finally(() => handle.release());
      await kill();
      handle.release();
    },
  };
}

/** How long the caller waits for the timeout's kill to settle before it answers DEADLINE_EXCEEDED with the kill still going on: half the deadline margin, at least 0.2 s. Pure. */
export const killConfirmMs = (deadlineMarginMs: number) => Math.max(200, Math.floor(deadlineMarginMs / 2));

/**
 * The items of `it` until `stop` settles (then the iteration is left, and not waited for).
 * Not `Promise.race([iter.next(), stopped])` per turn: each race leaves a reaction on the pending
 * `stop`, holding that turn's item, so every chunk of an exec's output stayed in memory until
 * the call ended. One wake-up callback at a time instead, dropped after its turn.
 */
export async function* until<T>(it: AsyncIterable<T>, stop: Promise<void>): AsyncGenerator<T> {
  const iter = it[Symbol.asyncIterator]();
  // How the stop settled (a rejected stop rejects the loop, as the race did), and the turn waiting for it.
  let stopped: { error?: unknown } | undefined;
  let wake: { res(r: typeof STOPPED): void; rej(e: unknown): void } | undefined;
  void stop.then(
    () => {
      stopped = {};
      wake?.res(STOPPED);
    },
    (error: unknown) => {
      stopped = { error };
      wake?.rej(error);
    },
  );
  for (;;) {
    if (stopped && "error" in stopped) throw stopped.error;
    const r: IteratorResult<T> | typeof STOPPED = stopped
      ? STOPPED
      : await new Promise<IteratorResult<T> | typeof STOPPED>((res, rej) => {
          wake = { res, rej };
          iter.next().then(res, rej);
        });
    wake = undefined;
    if (r === STOPPED) {
      void iter.return?.()?.catch?.(() => undefined);
      return;
    }
    if (r.done) return;
    yield r.value;
  }
}
const STOPPED: unique symbol = Symbol("stopped");
