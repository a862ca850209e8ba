/**
 * StreamExec and unary Exec (contract §5): `ready` first, one `output` frame per pipe
 * read, stdin with real EOF on `close` or half-close, `exit` only after stdout/stderr are
 * drained. The command is killed (whole process tree) on cancel, and at the call's
 * deadline minus a margin, ending with DEADLINE_EXCEEDED + CWSANDBOX_COMMAND_TIMEOUT; a timeout
 * whose kill failed (after its retries) ends with INTERNAL + CWSANDBOX_COMMAND_NOT_KILLED instead:
 * the command may still run (ADR 0032). A kill still going on when the call must answer (half the
 * margin later) is a timeout too: it goes on in the background, and a final failure is reported.
 * The two calls live in exec-stream.ts and exec-unary.ts; what both check of the command in exec-command.ts.
 */
import type { Controller } from "../controller/controller.js";
import type { ExecPolicy } from "./exec-command.js";
import { createStreamExec } from "./exec-stream.js";
import { createUnaryExec } from "./exec-unary.js";
import type { Metrics } from "./metrics.js";

export type { ExecPolicy } from "./exec-command.js";

export function createExecHandlers(controller: Controller, policy: ExecPolicy, metrics: Metrics) {
  return { streamExec: createStreamExec(controller, policy, metrics), exec: createUnaryExec(controller, policy, metrics) };
}
