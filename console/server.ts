/**
 * Hangar's web console (ADR 0039): an HTTP(S) server on its own address, beside the gRPC API and
 * behind the same identities. It serves one page, its script and style, and the JSON, log-stream
 * and terminal calls that page makes (console/routes-api.ts, logs-sse.ts, terminal.ts).
 */
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttps } from "node:https";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { ConsoleDeps } from "./deps.js";
import { cookiesOf, COOKIE, httpErrorOf, securityHeaders, sendJson } from "./http.js";
import { followLogs } from "./logs-sse.js";
import * as api from "./routes-api.js";
import { createSessions } from "./sessions.js";
import { fileTable, loadFiles } from "./static-files.js";
import { createTerminals } from "./terminal.js";

export const PAGE_FILES = ["app.js", "app-list.js", "app-detail.js", "app-fleet.js", "app-util.js", "app.css"] as const;

const SANDBOX = /^\/api\/sandboxes\/([^/]+)(\/logs|\/stop|\/terminal)?$/;

/** The request's URL, or undefined when it cannot be read (never a throw: a bad request must not end Hangar). */
export function urlOf(raw: string | undefined): URL | undefined {
  try {
    return new URL(raw ?? "/", "http://console.invalid");
  } catch {
    return undefined;
  }
}

/** The sandbox id a path names ("" when it is not valid percent-encoding). */
export function idOf(segment: string | undefined): string {
  try {
    return decodeURIComponent(segment ?? "");
  } catch {
    return "";
  }
}

export async function createConsole(d: ConsoleDeps, tls?: { cert: Buffer; key: Buffer }) {
  const sessions = createSessions({ ttlMs: d.sessionTtlMs, now: d.now });
  const files = await loadFiles(fileTable(d.installDir, PAGE_FILES));
  const terminals = createTerminals(d);
  const sessionOf = (req: IncomingMessage) => sessions.get(cookiesOf(req)[COOKIE]);

  async function route(c: api.Call): Promise<void> {
    const { req, url } = c;
    const m = SANDBOX.exec(url.pathname);
    const get = req.method === "GET" || req.method === "HEAD";
    if (get && files.has(url.pathname)) {
      const f = files.get(url.pathname) as { body: Buffer; type: string };
      c.res.writeHead(200, { "Content-Type": f.type, "Cache-Control": "no-cache" });
      c.res.end(req.method === "HEAD" ? undefined : f.body);
    } else if (req.method === "POST" && url.pathname === "/api/login") await api.login(d, sessions, c);
    else if (req.method === "POST" && url.pathname === "/api/logout") api.logout(d, sessions, c);
    else if (get && url.pathname === "/api/me") sendJson(c.res, 200, api.me(d, api.needSession(c)));
    else if (get && url.pathname === "/api/sandboxes") api.list(d, c);
    else if (get && url.pathname === "/api/fleet") api.fleet(d, c);
    else if (get && url.pathname === "/api/history") api.history(d, c);
    else if (m && get && !m[2]) await api.one(d, c, idOf(m[1]));
    else if (m && get && m[2] === "/logs") await followLogs(d, c, idOf(m[1]));
    else if (m && req.method === "POST" && m[2] === "/stop") await api.stop(d, c, idOf(m[1]));
    else sendJson(c.res, 404, { error: `no such page or call: ${req.method} ${url.pathname.slice(0, 200)}` });
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    securityHeaders(res);
    const url = urlOf(req.url);
    if (!url) return sendJson(res, 400, { error: "the request's path cannot be read" });
    route({ req, res, url, session: sessionOf(req) }).catch((e: unknown) => {
      const { status, message } = httpErrorOf(e);
      if (status >= 500) d.log.warn({ err: e, path: url.pathname }, "console call failed");
      if (!res.headersSent) sendJson(res, status, { error: message });
      else res.end();
    });
  };
  const server = tls ? createHttps({ cert: tls.cert, key: tls.key }, handler) : createHttp(handler);
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on("error", () => undefined); // a client that goes away mid-handshake
    const url = urlOf(req.url);
    const m = url ? SANDBOX.exec(url.pathname) : null;
    if (!url || !m || m[2] !== "/terminal") return void socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
    void terminals.open(req, socket, head, url, idOf(m[1]), sessionOf(req));
  });
  return {
    async listen(host: string, port: number): Promise<AddressInfo> {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => resolve());
      });
      return server.address() as AddressInfo;
    },
    close() {
      terminals.close();
      server.closeAllConnections?.();
      server.close();
    },
  };
}
