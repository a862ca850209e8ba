/**
 * Share tokens of HTTPS share-token endpoints (ADR 0021, "Share-token endpoints"). A sandbox's token
 * is an HMAC of its id under the operator's key (HANGAR_SHARE_TOKEN_KEY_FILE): nothing is stored, any
 * replica with the key recomputes it (the create response, an idempotent create replayed with the same
 * request_id, the Gateway's check of a request), and it dies with the sandbox's route. Pure.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** The header the SDK's `EndpointShareToken.as_headers()` sends, and its query-parameter fallback. */
export const SHARE_TOKEN_HEADER = "x-sandbox-share-token";
export const SHARE_TOKEN_QUERY = "share_token";
/** The shortest key accepted: 32 bytes, the HMAC's own output size. */
export const MIN_SHARE_TOKEN_KEY_BYTES = 32;

/** The share token of sandbox `id` (43 characters of base64url: 256 bits). */
export function shareToken(key: Buffer, id: string): string {
  return createHmac("sha256", key).update(`hangar share token\0${id}`).digest("base64url");
}

/** Whether `presented` is sandbox `id`'s token (constant time in the token's bytes). */
export function shareTokenMatches(key: Buffer, id: string, presented: string | undefined): boolean {
  if (!presented) return false;
  const want = Buffer.from(shareToken(key, id));
  const got = Buffer.from(presented);
  return got.length === want.length && timingSafeEqual(got, want);
}
