/** Exec (unary): the command with no stdin, its output kept up to a cap per stream, answered once it exited. */
import { errors, type FieldViolation } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { OutputChunk } from "../runtime/types.js";
import type { CallContext } from "./call.js";
import { validateCommand, type ExecPolicy } from "./exec-command.js";
import { armDeadline, until } from "./exec-deadline.js";
import type { ExecRequest__Output } from "./generated/coreweave/sandbox/v1/ExecRequest.js";
import type { ExecResponse } from "./generated/coreweave/sandbox/v1/ExecResponse.js";
import type { Metrics } from "./metrics.js";

/** Each stream's output kept up to `cap` bytes, and how much was produced in all. */
async function collect(chunks: AsyncIterable<OutputChunk>, cap: number) {
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  const kept = { stdout: 0, stderr: 0 };
  const produced = { stdout: 0, stderr: 0 };
  for await (const c of chunks) {
    produced[c.stream] += c.data.length;
    const room = cap - kept[c.stream];
    if (room > 0) {
      const part = c.data.subarray(0, room);
      out[c.stream].push(part);
      kept[c.stream] += part.length;
    }
  }
  return { out, kept, produced };
}

export function createUnaryExec(controller: Controller, policy: ExecPolicy, metrics: Metrics) {
  return async function exec(req: ExecRequest__Output, ctx: CallContext): Promise<ExecResponse> {
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
      const { out, kept, produced } = await collect(until(p.output(), timer.stop), cap);
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
  };
}
