/**
 * The console's JSON calls: sign in and out, who am I, sandboxes (list, one, stop), the fleet and
 * the plots. Every call but sign-in needs a session; a call that changes something also needs the
 * session's CSRF token (header x-csrf-token) and an Origin of this host.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeJwt } from "jose";
import { errors } from "../core/errors.js";
import type { State } from "../core/types.js";
import { access, listScope, type Viewer } from "./access.js";
import type { ConsoleDeps } from "./deps.js";
import { HttpError, readJson, sameOrigin, sendJson, sessionCookie } from "./http.js";
import { csrfMatches, type Session, type Sessions } from "./sessions.js";
import { detail, listItem } from "./views.js";

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  session: Session | undefined;
}

const STATES = new Set(["PENDING", "CREATING", "PREPARING", "RUNNING", "COMPLETED", "FAILED", "TERMINATED"]);
const ID = /^[A-Za-z0-9-]{1,64}$/;

export const viewerOf = (d: ConsoleDeps, s: Session): Viewer => ({
  tenant: s.tenant,
  operator: s.operator,
  operatorWrite: d.operatorWrite,
});

export function needSession(c: Call): Session {
  if (!c.session) throw new HttpError(401, "sign in first (the session is missing, expired or signed out)");
  return c.session;
}

/** The session, and the proof that the change comes from the console's own page. */
export function needChange(c: Call): Session {
  const s = needSession(c);
  if (!sameOrigin(c.req.headers.origin, c.req.headers.host)) throw new HttpError(403, "cross-origin request refused");
  const sent = c.req.headers["x-csrf-token"];
  if (!csrfMatches(s, typeof sent === "string" ? sent : undefined)) throw new HttpError(403, "missing or wrong CSRF token");
  return s;
}

/** A token's own expiry (a JWT's exp), which the session never outlives. */
function tokenExpiryMs(token: string): number | undefined {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export async function login(d: ConsoleDeps, sessions: Sessions, c: Call): Promise<void> {
  if (!sameOrigin(c.req.headers.origin, c.req.headers.host)) throw new HttpError(403, "cross-origin request refused");
  const body = await readJson(c.req);
  const token = typeof body.token === "string" ? body.token.trim() : "";
  if (token.length > 16384) throw new HttpError(400, "token: longer than 16384 characters");
  const tenant = await d.check(token || undefined);
  const s = sessions.open(tenant, d.operators.includes(tenant), d.check.open ? undefined : tokenExpiryMs(token));
  c.res.setHeader("Set-Cookie", sessionCookie(s.id, (s.expiresAtMs - d.now()) / 1000, d.secureCookie));
  sendJson(c.res, 200, me(d, s));
}

export function logout(d: ConsoleDeps, sessions: Sessions, c: Call): void {
  const s = needChange(c);
  sessions.close(s.id);
  c.res.setHeader("Set-Cookie", sessionCookie("", 0, d.secureCookie));
  sendJson(c.res, 200, {});
}

export const me = (d: ConsoleDeps, s: Session) => ({
  tenant: s.tenant,
  operator: s.operator,
  operatorWrite: s.operator && d.operatorWrite,
  csrf: s.csrf,
  open: d.check.open,
  expiresAtMs: s.expiresAtMs,
});

export function list(d: ConsoleDeps, c: Call): void {
  const s = needSession(c);
  const q = c.url.searchParams;
  const scope = listScope(viewerOf(d, s), q.get("tenant") ?? undefined);
  if ("refused" in scope) throw new HttpError(403, scope.refused);
  const state = q.get("state") || undefined;
  if (state && !STATES.has(state)) throw errors.invalidField("state", `expected one of ${[...STATES].join(", ")}`);
  const tags = q.getAll("tag").filter(Boolean);
  if (tags.length > 16 || tags.some((t) => t.length > 256)) throw errors.invalidField("tag", "at most 16 tags of at most 256 characters");
  const page = d.controller.listAcross(scope.tenant, {
    tags,
    state: state as State | "TERMINATED" | "PREPARING" | undefined,
    showTerminated: q.get("ended") !== "0",
    runnerIds: [],
    pageSize: 500,
    pageToken: "",
    descending: true,
  });
  sendJson(c.res, 200, { items: page.items.map(listItem), more: page.nextPageToken !== "" });
}

/** The sandbox's owner when the viewer may `act` on it; another tenant's sandbox is NOT_FOUND to a tenant. */
export async function ownerFor(d: ConsoleDeps, s: Session, id: string, act: "read" | "write"): Promise<string> {
  if (!ID.test(id)) throw errors.sandboxNotFound(id.slice(0, 64));
  const owner = await d.controller.ownerOf(id);
  const a = owner === undefined ? "hidden" : access(viewerOf(d, s), owner, act);
  if (a === "hidden" || owner === undefined) throw errors.sandboxNotFound(id);
  if (a === "read-only") throw new HttpError(403, `operators read other tenants' sandboxes only (HANGAR_CONSOLE_OPERATOR_WRITE is off)`);
  return owner;
}

export async function one(d: ConsoleDeps, c: Call, id: string): Promise<void> {
  const s = needSession(c);
  const owner = await ownerFor(d, s, id, "read");
  const r = d.controller.get(owner, id);
  const described = await d.controller.describe(id).catch(() => undefined);
  // Without the runtime's word (the local runtime), the record's own: one container, in the sandbox's state.
  const containers = described?.containers ?? [
    {
      name: r.spec.primaryName ?? "main",
      image: r.spec.image,
      state: r.state.toLowerCase(),
      reason: r.state === "RUNNING" ? "" : r.stateReason,
      restarts: 0,
    },
  ];
  sendJson(c.res, 200, { ...detail(r), containers, events: described?.events ?? [] });
}

export async function stop(d: ConsoleDeps, c: Call, id: string): Promise<void> {
  const s = needChange(c);
  const owner = await ownerFor(d, s, id, "write");
  await d.controller.remove(owner, id, { graceMs: 5000, allowMissing: false });
  sendJson(c.res, 200, {});
}

/** Runners and pools for everyone; tenants' use against their limits: one's own, or every tenant's for an operator. */
export function fleet(d: ConsoleDeps, c: Call): void {
  const s = needSession(c);
  sendJson(c.res, 200, d.fleet(s.operator ? undefined : s.tenant));
}

export function history(d: ConsoleDeps, c: Call): void {
  needSession(c);
  sendJson(c.res, 200, d.history.series(d.plotted));
}
