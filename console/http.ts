/**
 * The console's HTTP plumbing: the security headers every answer carries (a Content-Security-Policy
 * with no inline script), its cookie, JSON bodies with a size cap, and Hangar's error catalogue
 * mapped to HTTP statuses (the console's one place for it, as api/grpc-errors.ts is the API's).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HangarError, type ErrorCode } from "../core/errors.js";

export const COOKIE = "hangar_console";
export const MAX_BODY_BYTES = 64 * 1024;

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // xterm.js writes its own <style> elements; scripts stay 'self' only.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function securityHeaders(res: ServerResponse): void {
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
}

export function cookiesOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

/** The session cookie: HttpOnly, SameSite=Strict, Secure where TLS is on; maxAgeS 0 clears it. */
export function sessionCookie(value: string, maxAgeS: number, secure: boolean): string {
  return `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${Math.max(0, Math.floor(maxAgeS))}${secure ? "; Secure" : ""}`;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(text);
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const STATUS: Record<ErrorCode, number> = {
  INVALID_ARGUMENT: 400,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  FAILED_PRECONDITION: 409,
  RESOURCE_EXHAUSTED: 429,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  UNIMPLEMENTED: 501,
  CANCELLED: 499,
  INTERNAL: 500,
  DATA_LOSS: 500,
};

/** An error's HTTP status and the message the browser may see (never an unexpected error's text). */
export function httpErrorOf(e: unknown): { status: number; message: string } {
  if (e instanceof HttpError) return { status: e.status, message: e.message };
  if (e instanceof HangarError) return { status: STATUS[e.code], message: e.message };
  return { status: 500, message: "internal error (logged)" };
}

/**
 * A JSON body of at most MAX_BODY_BYTES, as an object. A longer body is read to its end (up to 16
 * times the limit, then the connection is cut) so the 413 reaches a client still sending.
 */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > 16 * MAX_BODY_BYTES) req.destroy();
    if (size <= MAX_BODY_BYTES) chunks.push(c);
  }
  if (size > MAX_BODY_BYTES) throw new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`);
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new HttpError(400, "request body: expected a JSON object");
}

/**
 * A request that changes something came from the console's own pages: its Origin (browsers send
 * it on every POST and WebSocket) names this host. Pure.
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
