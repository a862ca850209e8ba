/**
 * Console sessions: a random id in an HttpOnly cookie names a signed-in tenant, its role and its
 * CSRF token. Sessions live in this replica's memory only; they end at their expiry (never later
 * than the token they were opened with), at sign-out, or when Hangar restarts. A cookie replayed
 * after any of those names nothing.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";

export interface Session {
  id: string;
  tenant: string;
  operator: boolean;
  csrf: string;
  expiresAtMs: number;
}

export const MAX_SESSIONS = 10_000;

export function createSessions(o: { ttlMs: number; now: () => number; max?: number }) {
  const byId = new Map<string, Session>();
  const max = o.max ?? MAX_SESSIONS;
  return {
    /** A new session; `notAfterMs` (a token's own expiry) caps its life. The oldest session goes when the table is full. */
    open(tenant: string, operator: boolean, notAfterMs?: number): Session {
      if (byId.size >= max) byId.delete(byId.keys().next().value as string);
      const expiresAtMs = Math.min(o.now() + o.ttlMs, notAfterMs ?? Infinity);
      const s: Session = {
        id: randomBytes(32).toString("base64url"),
        tenant,
        operator,
        csrf: randomBytes(24).toString("base64url"),
        expiresAtMs,
      };
      byId.set(s.id, s);
      return s;
    },
    /** The live session the cookie names, or undefined (unknown, signed out or expired). */
    get(id: string | undefined): Session | undefined {
      if (!id) return undefined;
      const s = byId.get(id);
      if (s && s.expiresAtMs <= o.now()) {
        byId.delete(id);
        return undefined;
      }
      return s;
    },
    close(id: string): void {
      byId.delete(id);
    },
    size: () => byId.size,
  };
}

/** The request's CSRF token matches the session's (constant time). */
export function csrfMatches(s: Session, sent: string | undefined): boolean {
  if (!sent) return false;
  const a = Buffer.from(s.csrf);
  const b = Buffer.from(sent);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type Sessions = ReturnType<typeof createSessions>;
