/**
 * What a failed Kubernetes API call means, in one place: transient (the apiserver restarting,
 * unreachable, overloaded: try again) or not (refused: forbidden, not found, invalid). Pure.
 */
const TRANSIENT_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ERR_STREAM_PREMATURE_CLOSE", "UND_ERR_SOCKET"]);
const TRANSIENT_TEXT = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|Premature close|network timeout|apiserver is unreachable/i;

export function isTransient(e: unknown): boolean {
  const x = e as { code?: unknown; statusCode?: unknown; message?: unknown; cause?: unknown } | undefined;
  if (!x) return false;
  const status = typeof x.code === "number" ? x.code : typeof x.statusCode === "number" ? x.statusCode : undefined;
  if (status !== undefined) return status === 429 || status >= 500;
  if (typeof x.code === "string" && TRANSIENT_CODES.has(x.code)) return true;
  if (typeof x.message === "string" && TRANSIENT_TEXT.test(x.message)) return true;
  return x.cause !== undefined && x.cause !== e && isTransient(x.cause);
}
