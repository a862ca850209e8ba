/** StreamLogs: a sandbox's (or one container's) log, followed or not, resumable by a log session and offset. */
import type * as grpc from "@grpc/grpc-js";
import { errors, type FieldViolation } from "../core/errors.js";
import { LogResumeError, type Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import { writeWithBackpressure } from "./call.js";
import type { LogEntry } from "./generated/coreweave/sandbox/v1/LogEntry.js";
import type { StreamLogsRequest__Output } from "./generated/coreweave/sandbox/v1/StreamLogsRequest.js";
import { logSessionId, parseLogSession } from "./log-session.js";
import { timestamp } from "./sandbox-view.js";
import { checkContainer } from "./sandbox-files.js";
import { sandboxId } from "./spec.js";

export function streamLogs(controller: Controller) {
  return async (call: grpc.ServerWritableStream<StreamLogsRequest__Output, LogEntry>, ctx: CallContext) => {
    const req = call.request;
    const id = sandboxId(req.sandbox_id);
    const v: FieldViolation[] = [];
    if ((req.tail_lines ?? 0) < 0) v.push({ field: "tail_lines", description: "must not be negative" });
    if (Number(req.resume_log_offset ?? 0) > 0 && !req.resume_log_session_id)
      v.push({ field: "resume_log_offset", description: "an offset needs the resume_log_session_id it belongs to" });
    checkContainer(req.container, v);
    if (v.length) throw errors.invalid(v);
    await controller.ensure(id, ctx.tenant);
    controller.get(ctx.tenant, id);
    const reject = (code: string, message: string) => {
      call.write({ error: { code, message } });
      call.end();
    };
    // A log session names the sandbox, its log's timeline and the stream's format (api/log-session.ts).
    const current = controller.logSession(ctx.tenant, id, req.container || undefined);
    let fromOffset: number | undefined;
    let timestamps = !!req.timestamps;
    if (req.resume_log_session_id) {
      const s = parseLogSession(req.resume_log_session_id);
      if (!s || s.sandboxId !== id || !current || s.epoch !== current)
        return reject("SESSION_NOT_FOUND", "log session not found (another sandbox's, or its log restarted): start a new stream");
      const offset = Number(req.resume_log_offset ?? 0);
      if (!Number.isSafeInteger(offset) || offset < 0) return reject("INVALID_RESUME_OFFSET", "resume_log_offset is not a byte offset");
      fromOffset = offset;
      timestamps = s.timestamps;
    }
    const session = current ? logSessionId(id, current, timestamps) : undefined;
    const since = req.since_time ? Number(req.since_time.seconds ?? 0) * 1000 + Math.floor((req.since_time.nanos ?? 0) / 1e6) : undefined;
    const stream = controller.logs(ctx.tenant, id, {
      follow: !!req.follow,
      tailLines: req.tail_lines ?? 0,
      sinceMs: since,
      timestamps,
      signal: ctx.signal,
      ...(fromOffset !== undefined ? { fromOffset } : {}),
      ...(req.container ? { container: req.container } : {}),
    });
    try {
      for await (const chunk of stream) {
        if (ctx.signal.aborted) return;
        const resumable = session && chunk.end !== undefined ? { log_session_id: session, next_log_offset: String(chunk.end) } : {};
        await writeWithBackpressure(call, { data: chunk.data, timestamp: timestamp(Date.now()), ...resumable }, ctx.signal);
      }
    } catch (e) {
      if (e instanceof LogResumeError) return reject(e.code, e.message);
      throw e;
    }
    if (!ctx.signal.aborted) call.end();
  };
}
