/** What both exec calls check of the command: the sandbox id, argv, environment and container name. */
import type { FieldViolation } from "../core/errors.js";
import { LIMITS } from "./limits.js";
import { sandboxId } from "./spec.js";
import { envBytes } from "./spec-text.js";

export interface ExecPolicy {
  /** Kill this long before the call's deadline so the caller still hears why (SDK deadline = timeout + 5 s). */
  deadlineMarginMs: number;
  defaultMaxOutputBytes: number;
  maxOutputBytes: number;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

export function validateCommand(
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
