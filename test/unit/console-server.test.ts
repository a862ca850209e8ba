/**
 * The console's server over real HTTP on port 0, with an in-memory controller: what hostile or broken
 * requests get (never a crash), the headers every answer carries, and the session rules end to end.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredentialCheck } from "../../api/auth.js";
import type { Controller } from "../../controller/controller.js";
import { createHistory } from "../../console/history.js";
import { createConsole } from "../../console/server.js";
import { errors } from "../../core/errors.js";
import { record } from "./fixtures.js";

const mine = record({ id: "11111111-1111-4111-8111-111111111111", tenant: "alpha", state: "RUNNING" });
const theirs = record({ id: "22222222-2222-4222-8222-222222222222", tenant: "beta", state: "RUNNING" });
const records = new Map([mine, theirs].map((r) => [r.id, r]));
const removed: string[] = [];

const controller = {
  ownerOf: async (id: string) => records.get(id)?.tenant,
  get: (tenant: string, id: string) => {
    const r = records.get(id);
    if (!r || r.tenant !== tenant) throw errors.sandboxNotFound(id);
    return r;
  },
  listAcross: (tenant: string | undefined) => ({
    items: [...records.values()].filter((r) => !tenant || r.tenant === tenant),
    nextPageToken: "",
  }),
  describe: async () => undefined,
  remove: async (_tenant: string, id: string) => void removed.push(id),
} as unknown as Controller;

let base = "";
let server: Awaited<ReturnType<typeof createConsole>>;
beforeAll(async () => {
  server = await createConsole({
    controller,
    check: createCredentialCheck([
      { tenant: "alpha", key: "alpha-key-0123456789" },
      { tenant: "beta", key: "beta-key-0123456789ab" },
    ]),
    fleet: () => ({ runners: [], pools: [], tenants: [] }),
    history: createHistory({ probe: () => ({}), now: Date.now, intervalMs: 1000, windowMs: 60_000 }),
    plotted: [],
    operators: [],
    operatorWrite: false,
    sessionTtlMs: 60_000,
    secureCookie: false,
    installDir: process.cwd(),
    now: Date.now,
    log: { info: () => undefined, warn: () => undefined },
  });
  const a = await server.listen("127.0.0.1", 0);
  base = `http://127.0.0.1:${a.port}`;
});
afterAll(() => server.close());

/** A raw HTTP exchange: whatever bytes the client sends, the first line of the answer. */
function raw(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = connect(Number(new URL(base).port), "127.0.0.1", () => s.write(text));
    let out = "";
    s.on("data", (b) => (out += b.toString()));
    s.on("end", () => resolve(out.split("\r\n")[0] ?? ""));
    s.on("error", reject);
    setTimeout(() => resolve(out.split("\r\n")[0] ?? ""), 2000).unref();
  });
}

async function signIn(key: string) {
  const r = await fetch(`${base}/api/login`, { method: "POST", headers: { Origin: base }, body: JSON.stringify({ token: key }) });
  expect(r.status).toBe(200);
  const me = (await r.json()) as { csrf: string };
  return { cookie: (r.headers.get("set-cookie") ?? "").split(";")[0] as string, csrf: me.csrf };
}

describe("console server", () => {
  it("carries its security headers on every answer, pages and errors alike", async () => {
    for (const path of ["/", "/static/app.js", "/api/sandboxes", "/nope"]) {
      const r = await fetch(base + path);
      expect(r.headers.get("content-security-policy"), path).toContain("script-src 'self'");
      expect(r.headers.get("x-frame-options")).toBe("DENY");
      expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("answers broken requests with 4xx and keeps serving: bad percent-encoding, bad upgrades, oversize and non-JSON bodies", async () => {
    const { cookie, csrf } = await signIn("alpha-key-0123456789");
    expect((await fetch(`${base}/api/sandboxes/%E0%A4%A`, { headers: { cookie } })).status).toBe(404);
    const upgrade = (path: string) =>
      raw(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
    expect(await upgrade("/api/sandboxes/%E0%A4%A/terminal")).toMatch(/ 401 /); // no session: refused before anything
    expect(await upgrade("/elsewhere")).toMatch(/ 404 /);
    expect(await raw("GET //[ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")).toMatch(/ 4\d\d /);
    const big = await fetch(`${base}/api/login`, { method: "POST", headers: { Origin: base }, body: "x".repeat(200_000) });
    expect(big.status).toBe(413);
    const notJson = await fetch(`${base}/api/login`, { method: "POST", headers: { Origin: base }, body: "[1]" });
    expect(notJson.status).toBe(400);
    const stop = await fetch(`${base}/api/sandboxes/%ZZ/stop`, { method: "POST", headers: { cookie, Origin: base, "x-csrf-token": csrf } });
    expect(stop.status).toBe(404);
    expect((await fetch(`${base}/api/me`, { headers: { cookie } })).status).toBe(200); // still serving
  });

  it("keeps a tenant to its own sandboxes and needs the CSRF token and the Origin for a change", async () => {
    const { cookie, csrf } = await signIn("alpha-key-0123456789");
    const list = (await (await fetch(`${base}/api/sandboxes`, { headers: { cookie } })).json()) as { items: { id: string }[] };
    expect(list.items.map((i) => i.id)).toEqual([mine.id]);
    expect((await fetch(`${base}/api/sandboxes?tenant=beta`, { headers: { cookie } })).status).toBe(403);
    expect((await fetch(`${base}/api/sandboxes/${theirs.id}`, { headers: { cookie } })).status).toBe(404);
    const post = (id: string, h: Record<string, string>) =>
      fetch(`${base}/api/sandboxes/${id}/stop`, { method: "POST", headers: { cookie, ...h } });
    expect((await post(theirs.id, { Origin: base, "x-csrf-token": csrf })).status).toBe(404);
    expect((await post(mine.id, { Origin: base })).status).toBe(403);
    expect((await post(mine.id, { Origin: "http://evil.example", "x-csrf-token": csrf })).status).toBe(403);
    expect(removed).toEqual([]);
    expect((await post(mine.id, { Origin: base, "x-csrf-token": csrf })).status).toBe(200);
    expect(removed).toEqual([mine.id]);
  });

  it("refuses a forged key and forgets a session at sign-out", async () => {
    const bad = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { Origin: base },
      body: JSON.stringify({ token: "alpha-key-0123456780" }),
    });
    expect(bad.status).toBe(401);
    const { cookie, csrf } = await signIn("beta-key-0123456789ab");
    expect((await fetch(`${base}/api/logout`, { method: "POST", headers: { cookie, Origin: base, "x-csrf-token": csrf } })).status).toBe(
      200,
    );
    expect((await fetch(`${base}/api/me`, { headers: { cookie } })).status).toBe(401);
  });
});

describe("console over TLS", () => {
  it("serves HTTPS and marks its cookie Secure", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-console-tls-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-days",
        "1",
        "-keyout",
        `${dir}/key`,
        "-out",
        `${dir}/cert`,
      ],
      {
        stdio: "ignore",
      },
    );
    const tlsServer = await createConsole(
      {
        controller,
        check: createCredentialCheck([{ tenant: "alpha", key: "alpha-key-0123456789" }]),
        fleet: () => ({ runners: [], pools: [], tenants: [] }),
        history: createHistory({ probe: () => ({}), now: Date.now, intervalMs: 1000, windowMs: 60_000 }),
        plotted: [],
        operators: [],
        operatorWrite: false,
        sessionTtlMs: 60_000,
        secureCookie: true,
        installDir: process.cwd(),
        now: Date.now,
        log: { info: () => undefined, warn: () => undefined },
      },
      { cert: readFileSync(`${dir}/cert`), key: readFileSync(`${dir}/key`) },
    );
    const { port } = await tlsServer.listen("127.0.0.1", 0);
    try {
      const origin = `https://127.0.0.1:${port}`;
      const answer = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
        const req = httpsRequest(
          `${origin}/api/login`,
          { method: "POST", rejectUnauthorized: false, headers: { Origin: origin, "Content-Type": "application/json" } },
          (res) => {
            res.resume();
            resolve({ status: res.statusCode ?? 0, cookie: String(res.headers["set-cookie"]?.[0] ?? "") });
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify({ token: "alpha-key-0123456789" }));
      });
      expect(answer.status).toBe(200);
      expect(answer.cookie).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    } finally {
      tlsServer.close();
    }
  });
});
