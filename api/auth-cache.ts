/**
 * A bounded cache of identity verdicts, keyed by the SHA-256 of the token (the token itself is never
 * kept). Each entry has its own expiry; at the bound the oldest entry goes first, and expired ones
 * are dropped as they are met. Pure: the caller gives the clock.
 */
import { createHash } from "node:crypto";

export const tokenKey = (token: string) => createHash("sha256").update(token).digest("hex");

export class VerdictCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** Keeps `value` until `expiresAt` (ms); an entry already expired is not kept. */
  set(key: string, value: V, expiresAt: number, now: number): void {
    this.entries.delete(key);
    if (expiresAt <= now || this.maxEntries <= 0) return;
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt });
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * How long a verdict on a token may be kept: at most `maxMs`, and never past the token's own
 * expiry (`exp`, seconds since the epoch, as its payload says; undefined: none).
 */
export function verdictExpiry(now: number, maxMs: number, exp: number | undefined): number {
  const cap = now + maxMs;
  return exp === undefined ? cap : Math.min(cap, exp * 1000);
}
