/**
 * StreamExec and unary Exec (contract §5): `ready` first, one `output` frame per pipe
 * read, stdin with real EOF on `close` or half-close, `exit` only after stdout/stderr are
 * drained. The command is killed (whole process tree) on cancel, and at the call's
 * deadline minus a margin, ending with DEADLINE_EXCEEDED + CWSANDBOX_COMMAND_TIMEOUT; a timeout
 * whose kill failed (after its retries) ends with INTERNAL + CWSANDBOX_COMMAND_NOT_KILLED instead:
 * the command may still run (ADR 0032). A kill still going on when the call must answer (half the
 * margin later) is a timeout too: it goes on in the background, and a final failure is reported.
 */
import type * as grpc from "@grpc/grpc-js";
import { errors, type FieldViolation } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import { writeWithBackpressure } from "./call.js";
import { armDeadline, until } from "./exec-deadline.js";
import type { ExecRequest__Output } from "./generated/coreweave/sandbox/v1/ExecRequest.js";
import type { ExecResponse } from "./generated/coreweave/sandbox/v1/ExecResponse.js";
import type { ExecStreamInit__Output } from "./generated/coreweave/sandbox/v1/ExecStreamInit.js";
import type { ExecStreamRequest__Output } from "./generated/coreweave/sandbox/v1/ExecStreamRequest.js";
import type { ExecStreamResponse } from "./generated/coreweave/sandbox/v1/ExecStreamResponse.js";
import type { Metrics } from "./metrics.js";
import { timestamp } from "./sandbox-view.js";
import { LIMITS } from "./limits.js";
import { sandboxId } from "./spec.js";
import { envBytes } from "./spec-text.js";
import { endedBySignal } from "../core/exit-code.js";

export interface ExecPolicy {
  /** Kill this long before the call's deadline so the caller still hears why (SDK deadline = timeout + 5 s). */
  deadlineMarginMs: number;
  defaultMaxOutputBytes: number;
  maxOutputBytes: number;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

function validateCommand(
  init: { sandbox_id?: string; command?: string[]; env?: Record<string, string>; container?: string },
  v: FieldViolation[],
  base: string,
) {
  const id = sandboxId(init.sandbox_id, `${base}sandbox_id`);
  const argv = init.command ?? [];
  if (argv.length === 0 || !argv[0]) v.push({ field: `${base}command`, description: "required: the program and its arguments" });
  if (argv.some((a) => a.includes("\u0000"))) v.push({ field: `${base}command`, description: "must not contain NUL" });
  if (argv.reduce((a, s) => a + Buffer.byteLength(s), 0) > 1024 * 1024)
    v.push({ field: `${base}command`, description: "must total at most 1 MiB" });
  if (envBytes(init.env ?? {}) > LIMITS.envBytes)
    v.push({ field: `${base}env`, description: `names and values must total at most ${LIMITS.envBytes} bytes` });
  for (const [k, val] of Object.entries(init.env ?? {})) {
    if (!ENV_NAME.test(k) || val.includes("\u0000"))
      v.push({ field: `${base}env[${JSON.stringify(k.slice(0, 64))}]`, description: "invalid environment variable" });
  }
  if ((init.container ?? "").length > 63) v.push({ field: `${base}container`, description: "a container name (at most 63 characters)" });
  return { id, argv };
}

/** When to kill the command: the deadline minus the margin, or just before a short deadline. */
type ExecCall = grpc.ServerDuplexStream<ExecStreamRequest__Output, ExecStreamResponse>;

/** The client has half-closed and every message it sent before was read: no more input can come. */
export function inputEnded(stream: { readableLength: number; _readableState?: { ended?: boolean } }): boolean {
  return stream._readableState?.ended === true && stream.readableLength === 0;
}

export function createExecHandlers(controller: Controller, policy: ExecPolicy, metrics: Metrics) {
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

  async function streamExec(call: ExecCall, ctx: CallContext): Promise<void> {
    const { first, inputEnded: noInput } = await firstMessage(call, ctx.signal);
    if (ctx.signal.aborted) return;
    if (!first?.init) throw errors.invalidField("init", "the first message of StreamExec must be init");
    const init: ExecStreamInit__Output = first.init;
    const v: FieldViolation[] = [];
    const { id, argv } = validateCommand(init, v, "init.");
    const cols = init.tty_width || 80,
      rows = init.tty_height || 24;
    if (init.tty && (cols > 10000 || rows > 10000))
      v.push({ field: "init.tty_width", description: "terminal size must be below 10000x10000" });
    if (v.length) throw errors.invalid(v);
    const handle = await controller.exec(
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
    const p = handle.process;
    const timer = armDeadline(handle, ctx, policy);
    let finished = false;
    // Client -> process: stdin frames in order, EOF on close or half-close, resize for TTYs.
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
      const state = controller.get(ctx.tenant, id).state;
      if (state !== "RUNNING" && endedBySignal(exitCode)) {
        metrics.execDone("sandbox_stopped", secs);
        call.write({ error: { code: "SANDBOX_TERMINATED", message: `the sandbox stopped (${state}) while the command ran` } });
        call.end();
        return;
      }
      metrics.execDone("exited", secs);
      finished = true;
      call.write({ exit: { exit_code: exitCode, completed_time: timestamp(Date.now()) } });
      call.end();
    } finally {
      timer.disarm();
      if (!inputDone) endInput();
      // A command that ended normally may leave background processes running (as with
      // any exec); anything else (cancel, timeout, failure) takes the whole tree down.
      await timer.end(finished);
    }
  }

  async function exec(req: ExecRequest__Output, ctx: CallContext): Promise<ExecResponse> {
    const v: FieldViolation[] = [];
    const { id, argv } = validateCommand(req, v, "");
    const max = req.max_output_bytes ?? 0;
    if (max < 0 || max > policy.maxOutputBytes)
      v.push({
        field: "max_output_bytes",
        description: `must be between 0 (default ${policy.defaultMaxOutputBytes}) and ${policy.maxOutputBytes}`,
      });
    if (v.length) throw errors.invalid(v);
    const cap = max || policy.defaultMaxOutputBytes;
    const handle = await controller.exec(
      ctx.tenant,
      id,
      { argv, env: req.env ?? {}, noInput: true, ...(req.container ? { container: req.container } : {}) },
      ctx.signal,
    );
    const p = handle.process;
    const timer = armDeadline(handle, ctx, policy);
    let finished = false;
    try {
      p.closeStdin();
      const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
      const kept = { stdout: 0, stderr: 0 };
      const produced = { stdout: 0, stderr: 0 };
      for await (const c of until(p.output(), timer.stop)) {
        produced[c.stream] += c.data.length;
        const room = cap - kept[c.stream];
        if (room > 0) {
          const part = c.data.subarray(0, room);
          out[c.stream].push(part);
          kept[c.stream] += part.length;
        }
      }
      const notKilled = timer.notKilled();
      if (notKilled) {
        metrics.execDone("timeout_not_killed", timer.seconds());
        throw errors.commandNotKilled(timer.seconds(), notKilled.message);
      }
      if (ctx.signal.aborted) throw errors.unavailable("the call was cancelled");
      if (timer.killing()) throw errors.commandTimeout(timer.seconds(), true);
      const outcome = await p.exited.then(
        (r) => r,
        (e: unknown) => e as Error,
      );
      if (timer.timedOut()) throw errors.commandTimeout(timer.seconds());
      if (outcome instanceof Error) throw outcome;
      const { exitCode } = outcome;
      metrics.execDone("exited", timer.seconds());
      finished = true;
      return {
        stdout: Buffer.concat(out.stdout),
        stderr: Buffer.concat(out.stderr),
        exit_code: exitCode,
        stdout_truncated: produced.stdout > kept.stdout,
        stderr_truncated: produced.stderr > kept.stderr,
        stdout_bytes_produced: String(produced.stdout),
        stderr_bytes_produced: String(produced.stderr),
      };
    } finally {
      timer.disarm();
      await timer.end(finished);
    }
  }

  return { streamExec, exec };
}
