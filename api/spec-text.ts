/** The text checks the spec converters share: names, paths, environments, control characters. */
import { LIMITS } from "./limits.js";

export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
export const SECRET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}$/;
export const hasNul = (s: string) => s.includes("\u0000");
export const CONTROL = /[\u0000-\u001f\u007f]/;

/** Bytes of an environment's names and values, as the kernel counts them against its argument space. */
export const envBytes = (env: Record<string, string>) =>
  Object.entries(env).reduce((a, [k, v]) => a + Buffer.byteLength(k) + Buffer.byteLength(v) + 2, 0);

export function validPath(p: string): string | undefined {
  if (!p) return "must not be empty";
  if (hasNul(p)) return "must not contain NUL";
  if (!p.startsWith("/")) return "must be an absolute path";
  if (p.length > LIMITS.pathLength) return `must be at most ${LIMITS.pathLength} characters`;
  return undefined;
}
