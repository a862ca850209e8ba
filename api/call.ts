/**
 * Wraps every RPC handler the same way: a request id, authentication (tenant), an
 * AbortSignal that fires on cancel/deadline, metrics, a log line, and errors mapped in
 * api/grpc-errors.ts.
 */
import * as grpc from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Authenticator } from "./auth.js";
import type { ErrorMapper } from "./grpc-errors.js";
import type { Metrics } from "./metrics.js";

export interface CallContext {
  tenant: string;
  requestId: string;
  log: Logger;
  signal: AbortSignal;
  /** ms since epoch of the call's deadline, or undefined when it has none. */
  deadlineMs?: number;
}

interface AnyCall {
  metadata: grpc.Metadata;
  on(event: "cancelled", l: () => void): unknown;
  getDeadline(): grpc.Deadline;
  getPeer(): string;
}

export interface CallDeps {
  authenticate: Authenticator;
  /** Refuses a request that sets a field Hangar does not honour (api/field-policy.ts); by method name. */
  guard?: (method: string, request: unknown) => void;
  toError: ErrorMapper;
  metrics: Metrics;
  log: Logger;
}

const codeName = (code: number) => grpc.status[code] ?? String(code);

export function createCallWrapper(d: CallDeps) {
  function context(method: string, call: AnyCall): CallContext {
    const requestId = randomUUID();
    const ac = new AbortController();
    call.on("cancelled", () => ac.abort(new Error("cancelled")));
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : Number.isFinite(deadline) ? Number(deadline) : undefined;
    return { tenant: "", requestId, log: d.log.child({ request_id: requestId, method }), signal: ac.signal, deadlineMs };
  }

  function finish(ctx: CallContext, method: string, started: bigint, err?: grpc.ServiceError) {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const code = err ? codeName(err.code) : ctx.signal.aborted ? "CANCELLED" : "OK";
    d.metrics.rpcDone(method, code, seconds);
    const fields = { tenant: ctx.tenant || undefined, code, ms: Math.round(seconds * 1000) };
    if (err && err.code === grpc.status.INTERNAL) ctx.log.error(fields, err.message);
    else ctx.log.debug({ ...fields, ...(err ? { error: err.message } : {}) }, "rpc");
  }

  return {
    unary<Req, Res>(method: string, fn: (req: Req, ctx: CallContext) => Promise<Res> | Res): grpc.handleUnaryCall<Req, Res> {
      return (call, callback) => {
        const started = process.hrtime.bigint();
        const ctx = context(method, call);
        (async () => {
          ctx.tenant = await d.authenticate(call.metadata);
          d.guard?.(method, call.request);
          return fn(call.request, ctx);
        })().then(
          (res) => {
            finish(ctx, method, started);
            callback(null, res);
          },
          (e: unknown) => {
            const err = d.toError(e, ctx.requestId);
            finish(ctx, method, started, err);
            callback(err);
          },
        );
      };
    },

    /** For server-streaming and bidi calls: fn owns writing; a throw ends the call with that status. */
    stream<C extends AnyCall & { emit(event: "error", e: unknown): boolean; end(): void }>(
      method: string,
      fn: (call: C, ctx: CallContext) => Promise<void>,
    ) {
      return (call: C) => {
        const started = process.hrtime.bigint();
        const ctx = context(method, call);
        (async () => {
          ctx.tenant = await d.authenticate(call.metadata);
          // Server-streaming calls carry their request; StreamExec's messages hold no refused field (test/unit/field-policy.test.ts).
          const request = (call as { request?: unknown }).request;
          if (request !== undefined) d.guard?.(method, request);
          await fn(call, ctx);
        })().then(
          () => finish(ctx, method, started),
          (e: unknown) => {
            const err = d.toError(e, ctx.requestId);
            finish(ctx, method, started, err);
            if (!ctx.signal.aborted) call.emit("error", err);
          },
        );
      };
    },
  };
}
export type CallWrapper = ReturnType<typeof createCallWrapper>;

/** Writes one message honouring HTTP/2 flow control: waits for 'drain' when the buffer is full. */
export async function writeWithBackpressure<T>(
  call: { write(m: T): boolean; once(e: "drain", l: () => void): unknown },
  msg: T,
  signal: AbortSignal,
): Promise<void> {
  if (call.write(msg)) return;
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    call.once("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
