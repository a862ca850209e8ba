/**
 * StreamExec: `ready` first, one `output` frame per pipe read, stdin with real EOF on `close` or
 * half-close, `exit` only after stdout/stderr are drained (contract §5; the deadline in exec-deadline.ts).
 */
import type * as grpc from "@grpc/grpc-js";
import { errors, type FieldViolation } from "../core/errors.js";
import { endedBySignal } from "../core/exit-code.js";
import type { Controller, ExecHandle } from "../controller/controller.js";
import type { ExecProcess } from "../runtime/types.js";
import type { CallContext } from "./call.js";
import { writeWithBackpressure } from "./call.js";
import { validateCommand, type ExecPolicy } from "./exec-command.js";
import { armDeadline, until } from "./exec-deadline.js";
import type { ExecStreamInit__Output } from "./generated/coreweave/sandbox/v1/ExecStreamInit.js";
import type { ExecStreamRequest__Output } from "./generated/coreweave/sandbox/v1/ExecStreamRequest.js";
import type { ExecStreamResponse } from "./generated/coreweave/sandbox/v1/ExecStreamResponse.js";
import type { Metrics } from "./metrics.js";
import { timestamp } from "./sandbox-view.js";

type ExecCall = grpc.ServerDuplexStream<ExecStreamRequest__Output, ExecStreamResponse>;
type Timer = ReturnType<typeof armDeadline>;

/** The client has half-closed and every message it sent before was read: no more input can come. */
export function inputEnded(stream: { readableLength: number; _readableState?: { ended?: boolean } }): boolean {
  return stream._readableState?.ended === true && stream.readableLength === 0;
}

/**
 * The init message, and whether the client already half-closed after it (an SDK exec without
 * stdin sends init and ends its side at once; the end is looked for one event-loop turn later).
 */
function firstMessage(call: ExecCall, signal: AbortSignal): Promise<{ first?: ExecStreamRequest__Output; inputEnded: boolean }> {
  return new Promise((resolve) => {
    const done = (m: ExecStreamRequest__Output | undefined) => {
      call.off("data", onData);
      call.off("end", onEnd);
      signal.removeEventListener("abort", onEnd);
      call.pause();
      if (!m) return resolve({ inputEnded: true });
      setImmediate(() => resolve({ first: m, inputEnded: inputEnded(call) }));
    };
    const onData = (m: ExecStreamRequest__Output) => done(m);
    const onEnd = () => done(undefined);
    call.on("data", onData);
    call.once("end", onEnd);
    signal.addEventListener("abort", onEnd, { once: true });
  });
}

/** The init message checked and the command started; undefined when the call was cancelled first. */
async function open(controller: Controller, call: ExecCall, ctx: CallContext) {
  const { first, inputEnded: noInput } = await firstMessage(call, ctx.signal);
  if (ctx.signal.aborted) return undefined;
  if (!first?.init) throw errors.invalidField("init", "the first message of StreamExec must be init");
  const init: ExecStreamInit__Output = first.init;
  const v: FieldViolation[] = [];
  const { id, argv } = validateCommand(init, v, "init.");
  const cols = init.tty_width || 80,
    rows = init.tty_height || 24;
  if (init.tty && (cols > 10000 || rows > 10000))
    v.push({ field: "init.tty_width", description: "terminal size must be below 10000x10000" });
  if (v.length) throw errors.invalid(v);
  const handle: ExecHandle = await controller.exec(
    ctx.tenant,
    id,
    {
      argv,
      env: init.env ?? {},
      tty: init.tty ? { cols, rows } : undefined,
      noInput,
      ...(init.container ? { container: init.container } : {}),
    },
    ctx.signal,
    "init.container",
  );
  return { id, handle, cols, rows };
}

/** Client -> process: stdin frames in order, EOF on close or half-close, resize for TTYs. Returns the end of input (idempotent). */
function pumpInput(call: ExecCall, p: ExecProcess, cols: number, rows: number): () => void {
  let inputDone = false;
  const endInput = () => {
    if (inputDone) return;
    inputDone = true;
    p.closeStdin();
  };
  // The loop must never leave early: a for-await that ends by a throw (or a return) destroys the
  // call, and the output, exit and status still to come would be lost (the client waits for its
  // deadline). So the iterator keeps the call on return, and a failed write (EPIPE: the process
  // closed its stdin or exited) ends the input; later stdin frames are discarded, as a pipe would.
  void (async () => {
    for await (const m of call.iterator({ destroyOnReturn: false }) as AsyncIterable<ExecStreamRequest__Output>) {
      if (m.stdin !== undefined && m.stdin !== null) {
        if (!inputDone) await p.write(Buffer.from(m.stdin)).catch(endInput);
      } else if (m.close) endInput();
      else if (m.resize) p.resize(m.resize.width || cols, m.resize.height || rows);
    }
    endInput();
  })().catch(() => endInput());
  return endInput;
}

/** How the command ended, once its output is drained: the caller hears exit, a stopped sandbox, or why not. */
async function finish(
  call: ExecCall,
  ctx: CallContext,
  p: ExecProcess,
  timer: Timer,
  metrics: Metrics,
  sandboxState: () => string,
  done: { finished: boolean },
): Promise<void> {
  const secs = timer.seconds();
  if (ctx.signal.aborted) {
    metrics.execDone("cancelled", secs);
    return;
  }
  const notKilled = timer.notKilled();
  if (notKilled) {
    metrics.execDone("timeout_not_killed", secs);
    throw errors.commandNotKilled(secs, notKilled.message);
  }
  // Its kill still going on: the command may not have exited yet, and the caller's deadline is near.
  if (timer.killing()) {
    metrics.execDone("timeout", secs);
    throw errors.commandTimeout(secs, true);
  }
  // A killed command may end without an exit status (its stream was cut): the timeout or
  // the cancel is what happened, not a lost backend.
  const outcome = await p.exited.then(
    (r) => r,
    (e: unknown) => e as Error,
  );
  if (timer.timedOut()) {
    metrics.execDone("timeout", secs);
    throw errors.commandTimeout(secs);
  }
  if (outcome instanceof Error) throw outcome;
  const { exitCode } = outcome;
  const state = sandboxState();
  if (state !== "RUNNING" && endedBySignal(exitCode)) {
    metrics.execDone("sandbox_stopped", secs);
    call.write({ error: { code: "SANDBOX_TERMINATED", message: `the sandbox stopped (${state}) while the command ran` } });
    call.end();
    return;
  }
  metrics.execDone("exited", secs);
  done.finished = true;
  call.write({ exit: { exit_code: exitCode, completed_time: timestamp(Date.now()) } });
  call.end();
}

export function createStreamExec(controller: Controller, policy: ExecPolicy, metrics: Metrics) {
  return async function streamExec(call: ExecCall, ctx: CallContext): Promise<void> {
    const opened = await open(controller, call, ctx);
    if (!opened) return;
    const { id, handle, cols, rows } = opened;
    const p = handle.process;
    const timer = armDeadline(handle, ctx, policy);
    const done = { finished: false };
    const endInput = pumpInput(call, p, cols, rows);
    try {
      call.resume();
      await writeWithBackpressure(call, { ready: { ready_time: timestamp(Date.now()) } }, ctx.signal);
      for await (const chunk of until(p.output(), timer.stop)) {
        if (ctx.signal.aborted) break;
        await writeWithBackpressure(
          call,
          { output: { stream: chunk.stream === "stdout" ? "STREAM_STDOUT" : "STREAM_STDERR", data: chunk.data } },
          ctx.signal,
        );
      }
      await finish(call, ctx, p, timer, metrics, () => controller.get(ctx.tenant, id).state, done);
    } finally {
      timer.disarm();
      endInput();
      // A command that ended normally may leave background processes running (as with
      // any exec); anything else (cancel, timeout, failure) takes the whole tree down.
      await timer.end(done.finished);
    }
  };
}
