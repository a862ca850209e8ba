import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../cmd/config.js";
import { access, listScope, type Viewer } from "../../console/access.js";
import { CSP, httpErrorOf, HttpError, sameOrigin, sessionCookie } from "../../console/http.js";
import { createSessions, csrfMatches } from "../../console/sessions.js";
import { controlOf } from "../../console/terminal.js";
import { listItem, statusHistory } from "../../console/views.js";
import { errors } from "../../core/errors.js";
import { record } from "./fixtures.js";

const tenant: Viewer = { tenant: "alpha", operator: false, operatorWrite: false };
const operator: Viewer = { tenant: "ops", operator: true, operatorWrite: false };
const writer: Viewer = { tenant: "ops", operator: true, operatorWrite: true };

describe("console access", () => {
  it.each([
    [tenant, "alpha", "read", "ok"],
    [tenant, "alpha", "write", "ok"],
    [tenant, "beta", "read", "hidden"],
    [tenant, "beta", "write", "hidden"],
    [operator, "beta", "read", "ok"],
    [operator, "beta", "write", "read-only"],
    [operator, "ops", "write", "ok"],
    [writer, "beta", "write", "ok"],
  ] as const)("%o on %s's sandbox, %s: %s", (v, owner, act, want) => {
    expect(access(v, owner, act)).toBe(want);
  });

  it("scopes a listing: a tenant to its own, an operator to any or all", () => {
    expect(listScope(tenant, undefined)).toEqual({ tenant: "alpha" });
    expect(listScope(tenant, "alpha")).toEqual({ tenant: "alpha" });
    expect(listScope(tenant, "beta")).toHaveProperty("refused");
    expect(listScope(operator, undefined)).toEqual({ tenant: undefined });
    expect(listScope(operator, "beta")).toEqual({ tenant: "beta" });
  });
});

describe("console sessions", () => {
  it("ends at expiry, at sign-out (a replayed cookie names nothing) and never outlives its token", () => {
    let now = 1_000_000;
    const s = createSessions({ ttlMs: 60_000, now: () => now });
    const a = s.open("alpha", false);
    expect(s.get(a.id)?.tenant).toBe("alpha");
    now += 59_999;
    expect(s.get(a.id)).toBeDefined();
    now += 1;
    expect(s.get(a.id)).toBeUndefined();
    const b = s.open("alpha", false);
    s.close(b.id);
    expect(s.get(b.id)).toBeUndefined();
    const c = s.open("alpha", false, now + 5_000); // a token that expires in 5 s
    expect(c.expiresAtMs).toBe(now + 5_000);
    now += 5_000;
    expect(s.get(c.id)).toBeUndefined();
    expect(s.get(undefined)).toBeUndefined();
    expect(s.get("forged")).toBeUndefined();
  });

  it("keeps at most max sessions, dropping the oldest; ids and CSRF tokens are unguessable and distinct", () => {
    const s = createSessions({ ttlMs: 60_000, now: () => 0, max: 2 });
    const [a, b, c] = [s.open("a", false), s.open("b", false), s.open("c", false)];
    expect(s.get(a.id)).toBeUndefined();
    expect(s.get(b.id) && s.get(c.id)).toBeTruthy();
    expect(new Set([a.id, b.id, c.id, a.csrf, b.csrf]).size).toBe(5);
    expect(a.id.length).toBeGreaterThanOrEqual(43);
  });

  it("matches the CSRF token exactly", () => {
    const s = createSessions({ ttlMs: 60_000, now: () => 0 }).open("a", false);
    expect(csrfMatches(s, s.csrf)).toBe(true);
    expect(csrfMatches(s, undefined)).toBe(false);
    expect(csrfMatches(s, "")).toBe(false);
    expect(csrfMatches(s, s.csrf.slice(1))).toBe(false);
    expect(csrfMatches(s, `${s.csrf.slice(0, -1)}${s.csrf.endsWith("A") ? "B" : "A"}`)).toBe(false);
  });
});

describe("console HTTP", () => {
  it("sets an HttpOnly, SameSite=Strict cookie, Secure where TLS is on", () => {
    expect(sessionCookie("x", 10, false)).toBe("hangar_console=x; Path=/; HttpOnly; SameSite=Strict; Max-Age=10");
    expect(sessionCookie("x", 10, true)).toMatch(/; Secure$/);
    expect(sessionCookie("", 0, false)).toContain("Max-Age=0");
  });

  it("has a CSP that runs scripts from the console only: no inline script, no eval, no framing", () => {
    const dirs = Object.fromEntries(
      CSP.split(";")
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    expect(dirs["script-src"]).toEqual(["'self'"]);
    expect(dirs["default-src"]).toEqual(["'none'"]);
    expect(dirs["frame-ancestors"]).toEqual(["'none'"]);
    expect(dirs["object-src"] ?? dirs["default-src"]).toEqual(["'none'"]);
  });

  it.each([
    ["http://127.0.0.1:8080", "127.0.0.1:8080", true],
    ["http://evil.example", "127.0.0.1:8080", false],
    ["http://127.0.0.1:8081", "127.0.0.1:8080", false],
    [undefined, "127.0.0.1:8080", false],
    ["null", "127.0.0.1:8080", false],
  ])("origin %s for host %s: %s", (origin, host, want) => {
    expect(sameOrigin(origin, host)).toBe(want);
  });

  it("maps the error catalogue to statuses and never shows an unexpected error's text", () => {
    expect(httpErrorOf(errors.sandboxNotFound("x")).status).toBe(404);
    expect(httpErrorOf(errors.unauthenticated()).status).toBe(401);
    expect(httpErrorOf(errors.tenantLimit("exec_streams", 1, "commands", 1000)).status).toBe(429);
    expect(httpErrorOf(new HttpError(403, "no"))).toEqual({ status: 403, message: "no" });
    expect(httpErrorOf(new Error("/secret/path leaked"))).toEqual({ status: 500, message: "internal error (logged)" });
  });
});

describe("console views", () => {
  it("tells a deleted sandbox's history in order, from the record alone", () => {
    const r = record({
      createdAtMs: 1000,
      startedAtMs: 2000,
      stop: { requestedAtMs: 3000, graceMs: 5000, why: "deleted" },
      endedAtMs: 4000,
      exitCode: 137,
      state: "COMPLETED",
      stateReason: "stopped by delete",
      deletedAtMs: 3000,
    });
    expect(statusHistory(r).map((h) => [h.atMs, h.state])).toEqual([
      [1000, "CREATING"],
      [2000, "RUNNING"],
      [3000, "STOPPING"],
      [3000, "COMPLETED"],
      [4000, "COMPLETED"],
    ]);
    expect(statusHistory(r)[4]?.note).toContain("exit code 137");
  });

  it("shows a pulling sandbox as PREPARING, with its pull's progress, and a starting one with its reason", () => {
    expect(listItem(record({ state: "CREATING", preparing: true })).state).toBe("PREPARING");
    const pull = { image: "x:1", phase: "pulling" as const, bytesDone: 5, bytesTotal: 10, layersDone: 0, layersTotal: 1 };
    expect(listItem(record({ state: "CREATING", preparing: true, pull })).pull).toEqual(pull);
    expect(listItem(record({ state: "RUNNING", pull })).pull).toBeNull();
    const h = statusHistory(record({ state: "CREATING", stateReason: "scheduling", startedAtMs: undefined }));
    expect(h.at(-1)).toMatchObject({ state: "CREATING", note: "scheduling" });
  });
});

describe("console terminal control frames", () => {
  it.each([
    ['{"resize":[120,40]}', { resize: [120, 40] }],
    ['{"resize":[0,40]}', undefined],
    ['{"resize":[1e9,40]}', undefined],
    ['{"resize":["a",1]}', undefined],
    ["ls\n", undefined],
    ["{}", undefined],
  ])("%s", (text, want) => {
    expect(controlOf(text)).toEqual(want);
  });
});

describe("console configuration", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "hangar-console-cfg-"));
  const tool = path.join(dir, "tool");
  writeFileSync(tool, "#!/bin/sh\n");
  chmodSync(tool, 0o755);
  const keys = path.join(dir, "keys");
  writeFileSync(keys, "alpha:k1\n");
  const base = {
    HANGAR_LOCAL_BWRAP: tool,
    HANGAR_LOCAL_PTY_HELPER: tool,
    HANGAR_LOCAL_GUARD: tool,
    HANGAR_LOCAL_SECCOMP_BPF: tool,
    HANGAR_DATA_DIR: dir,
  };
  const load = (env: Record<string, string>) => loadConfig({ ...base, ...env }, [], dir);

  it("is off unless an address is named", () => {
    expect(load({}).console).toBeUndefined();
    const c = load({ HANGAR_CONSOLE_LISTEN: "127.0.0.1:0", HANGAR_CONSOLE_OPERATORS: " ops , sre " });
    expect(c.console).toMatchObject({ operators: ["ops", "sre"], operatorWrite: false, secureCookie: false, sessionSeconds: 28800 });
  });

  it.each([
    [{ HANGAR_CONSOLE_LISTEN: "127.0.0.1:0", HANGAR_CONSOLE_OPERATORS: "bad name" }, "HANGAR_CONSOLE_OPERATORS"],
    [{ HANGAR_CONSOLE_LISTEN: "127.0.0.1:0", HANGAR_CONSOLE_TLS_CERT: keys }, "HANGAR_CONSOLE_TLS_KEY go together"],
    [{ HANGAR_CONSOLE_LISTEN: "127.0.0.1:0", HANGAR_CONSOLE_TLS_CERT: "/nope", HANGAR_CONSOLE_TLS_KEY: "/nope" }, "no such file"],
    [{ HANGAR_CONSOLE_LISTEN: "0.0.0.0:8080" }, "listens only on loopback"],
    [{ HANGAR_CONSOLE_LISTEN: "nowhere" }, "HANGAR_CONSOLE_LISTEN=nowhere"],
    [{ HANGAR_CONSOLE_LISTEN: "127.0.0.1:0", HANGAR_CONSOLE_SESSION_SECONDS: "5" }, "HANGAR_CONSOLE_SESSION_SECONDS"],
  ])("refuses %o naming %s", (env, named) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(named);
  });

  it("listens beyond loopback when callers must sign in, with a Secure cookie under TLS", () => {
    const c = load({
      HANGAR_API_KEYS_FILE: keys,
      HANGAR_CONSOLE_LISTEN: "0.0.0.0:8080",
      HANGAR_CONSOLE_TLS_CERT: keys,
      HANGAR_CONSOLE_TLS_KEY: keys,
    });
    expect(c.console).toMatchObject({ listen: { host: "0.0.0.0", port: 8080 }, secureCookie: true });
  });
});
