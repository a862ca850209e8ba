/**
 * The console's terminal: a WebSocket carrying a TTY command (a shell) run through the same exec
 * path as the API's. Binary frames are keystrokes in and output out; a text frame
 * {"resize":[cols,rows]} resizes; the server's last text frame is {"exit":code} or {"error":why}.
 * Opening it is a change: it needs the session, an Origin of this host and the CSRF token (the
 * `csrf` query parameter: a browser's WebSocket sends no custom header).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import type { ExecHandle } from "../controller/controller.js";
import type { ConsoleDeps } from "./deps.js";
import { httpErrorOf, HttpError, sameOrigin } from "./http.js";
import { ownerFor } from "./routes-api.js";
import { csrfMatches, type Session } from "./sessions.js";

export const SHELL = ["/bin/sh", "-i"];
const MAX_FRAME = 64 * 1024;
const dim = (v: string | null, def: number, max: number) => Math.min(max, Math.max(1, Number.parseInt(v ?? "", 10) || def));

/** Parses the client's control frame; anything else is ignored. Pure. */
export function controlOf(text: string): { resize: [number, number] } | undefined {
  try {
    const v = JSON.parse(text) as { resize?: unknown };
    const r = v.resize;
    if (Array.isArray(r) && r.length === 2 && r.every((n) => Number.isInteger(n) && n > 0 && n <= 1000)) return { resize: [r[0], r[1]] };
  } catch {
    // not a control frame
  }
  return undefined;
}

function pump(ws: WebSocket, h: ExecHandle, ac: AbortController) {
  const p = h.process;
  ws.on("message", (data: RawData, binary: boolean) => {
    const buf = Buffer.isBuffer(data) ? data : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
    if (!binary) {
      const ctl = controlOf(buf.toString("utf8"));
      if (ctl) p.resize(ctl.resize[0], ctl.resize[1]);
      return;
    }
    p.write(buf).catch(() => undefined);
  });
  ws.on("close", () => {
    ac.abort();
    void p.kill().catch(() => undefined);
  });
  void (async () => {
    try {
      for await (const chunk of p.output()) if (ws.readyState === ws.OPEN) ws.send(chunk.data, { binary: true });
      const { exitCode } = await p.exited;
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ exit: exitCode }));
    } catch (e) {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ error: httpErrorOf(e).message }));
    } finally {
      h.release();
      ws.close();
    }
  })();
}

/** Handles the HTTP upgrade of /api/sandboxes/<id>/terminal; refuses with an HTTP status when it may not open. */
export function createTerminals(d: ConsoleDeps) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  const refuse = (socket: Duplex, status: number, message: string) => {
    socket.end(
      `HTTP/1.1 ${status} ${status === 401 ? "Unauthorized" : status === 404 ? "Not Found" : "Forbidden"}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${message}\n`,
    );
  };
  async function open(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL, id: string, s: Session | undefined) {
    try {
      if (!s) throw new HttpError(401, "sign in first");
      if (!sameOrigin(req.headers.origin, req.headers.host)) throw new HttpError(403, "cross-origin request refused");
      if (!csrfMatches(s, url.searchParams.get("csrf") ?? undefined)) throw new HttpError(403, "missing or wrong CSRF token");
      const owner = await ownerFor(d, s, id, "write");
      const ac = new AbortController();
      const tty = { cols: dim(url.searchParams.get("cols"), 80, 1000), rows: dim(url.searchParams.get("rows"), 24, 1000) };
      const h = await d.controller.exec(owner, id, { argv: SHELL, tty, env: { TERM: "xterm-256color" } }, ac.signal);
      wss.handleUpgrade(req, socket, head, (ws) => pump(ws, h, ac));
      d.log.info({ sandbox_id: id, tenant: s.tenant, owner }, "console terminal opened");
    } catch (e) {
      const { status, message } = httpErrorOf(e);
      refuse(socket, status, message);
    }
  }
  return { open, close: () => wss.close() };
}
