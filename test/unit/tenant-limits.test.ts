/** Per-tenant limits (ADR 0031): the pure decisions, the guard's bookkeeping, and the settings that make the table. */
import { describe, expect, it } from "vitest";
import { parseTenantLimits, readTenantLimits } from "../../cmd/config-limits.js";
import { ConfigError, loadConfig } from "../../cmd/config.js";
import { isHangarError } from "../../core/errors.js";
import { createTenantGuard, releasing } from "../../controller/tenant-guard.js";
import { decideCreate, decideSlot, limitsFor, refill, type Bucket, type TenantLimits } from "../../controller/tenant-limits.js";

const L: TenantLimits = {
  concurrent_sandboxes: 4,
  creates_per_second: 2,
  create_burst: 3,
  held_calls: 2,
  exec_streams: 3,
  log_bytes: 1 << 20,
};

describe("decideCreate", () => {
  const rows: [string, number, Bucket | undefined, number, { tokens: number } | { limit: string; retryAfterMs: number }][] = [
    ["a new tenant starts with a full burst", 0, undefined, 1000, { tokens: 2 }],
    ["a token is spent per create", 1, { tokens: 2, atMs: 1000 }, 1000, { tokens: 1 }],
    ["the last whole token", 2, { tokens: 1, atMs: 1000 }, 1000, { tokens: 0 }],
    [
      "an empty bucket refuses, retry when one token is back (1 / 2 per s = 500 ms)",
      3,
      { tokens: 0, atMs: 1000 },
      1000,
      { limit: "creates_per_second", retryAfterMs: 500 },
    ],
    ["half a token back: retry in the other half", 3, { tokens: 0, atMs: 1000 }, 1250, { limit: "creates_per_second", retryAfterMs: 250 }],
    ["a token refilled after 500 ms", 3, { tokens: 0, atMs: 1000 }, 1500, { tokens: 0 }],
    ["refill stops at the burst", 0, { tokens: 0, atMs: 0 }, 60_000, { tokens: 2 }],
    [
      "at the concurrent limit: refused first, retry in 2 s",
      4,
      { tokens: 3, atMs: 0 },
      0,
      { limit: "concurrent_sandboxes", retryAfterMs: 2000 },
    ],
    ["over it (other replicas' records) too", 9, undefined, 0, { limit: "concurrent_sandboxes", retryAfterMs: 2000 }],
    ["a clock that goes back refills nothing", 0, { tokens: 1, atMs: 5000 }, 4000, { tokens: 0 }],
  ];
  for (const [name, live, bucket, now, want] of rows) {
    it(name, () => {
      const d = decideCreate(L, live, bucket, now);
      if ("tokens" in want) expect("bucket" in d && d.bucket.tokens).toBeCloseTo(want.tokens);
      else expect("refused" in d && d.refused).toMatchObject(want);
    });
  }
  it("a refused create leaves the bucket as it was (it costs no token)", () => {
    const b = { tokens: 0.5, atMs: 0 };
    decideCreate(L, 4, b, 10_000);
    expect(b).toEqual({ tokens: 0.5, atMs: 0 });
  });
  it("refill is linear in time", () => expect(refill({ tokens: 0, atMs: 0 }, 4, 100, 250).tokens).toBe(1));
});

describe("decideSlot", () => {
  const rows: [string, "held_calls" | "exec_streams", number, string | undefined][] = [
    ["held calls under the limit", "held_calls", 1, undefined],
    ["held calls at the limit", "held_calls", 2, "held_calls"],
    ["commands under the limit", "exec_streams", 2, undefined],
    ["commands at the limit", "exec_streams", 3, "exec_streams"],
  ];
  for (const [name, limit, inUse, refused] of rows) it(name, () => expect(decideSlot(L, limit, inUse)?.limit).toBe(refused));
});

describe("limitsFor", () => {
  it("an override replaces only what it sets", () => {
    expect(limitsFor({ defaults: L, tenants: { big: { concurrent_sandboxes: 9 } } }, "big")).toEqual({ ...L, concurrent_sandboxes: 9 });
    expect(limitsFor({ defaults: L, tenants: { big: { concurrent_sandboxes: 9 } } }, "small")).toEqual(L);
  });
});

describe("the guard", () => {
  it("refuses with RESOURCE_EXHAUSTED naming the limit and its value, a retry delay, and counts the refusal", () => {
    const refused: string[] = [];
    let now = 0;
    const g = createTenantGuard({ table: { defaults: L, tenants: {} }, now: () => now, onRefused: (t, l) => refused.push(`${t} ${l}`) });
    for (let i = 0; i < 3; i++) g.admitCreate("a", 0);
    let err: unknown;
    try {
      g.admitCreate("a", 0);
    } catch (e) {
      err = e;
    }
    expect(isHangarError(err) && err.code).toBe("RESOURCE_EXHAUSTED");
    expect(isHangarError(err) && err.message).toMatch(/^tenant limit creates_per_second=2 reached/);
    expect(isHangarError(err) && err.retryAfterMs).toBe(500);
    expect(isHangarError(err) && err.metadata).toEqual({ limit: "creates_per_second", value: "2" });
    g.admitCreate("b", 0); // another tenant's bucket is its own
    now = 500;
    g.admitCreate("a", 0); // refilled
    expect(refused).toEqual(["a creates_per_second"]);
  });
  it("checkCreate judges as admitCreate does and spends no token", () => {
    const g = createTenantGuard({ table: { defaults: L, tenants: {} }, now: () => 0 });
    for (let i = 0; i < 10; i++) g.checkCreate("a", 0);
    for (let i = 0; i < 3; i++) g.admitCreate("a", 0); // the whole burst is still there
    expect(() => g.checkCreate("a", 0)).toThrow(/^tenant limit creates_per_second=2 reached/);
    expect(() => g.checkCreate("b", L.concurrent_sandboxes)).toThrow(/^tenant limit concurrent_sandboxes=/);
  });
  it("slots are per tenant, given back once however often released", () => {
    const g = createTenantGuard({ table: { defaults: L, tenants: {} } });
    const r1 = g.acquire("a", "held_calls");
    g.acquire("a", "held_calls");
    expect(() => g.acquire("a", "held_calls")).toThrow(/tenant limit held_calls=2 reached/);
    expect(g.tryAcquire("a", "held_calls")).toBeUndefined();
    expect(g.acquire("b", "held_calls")).toBeTypeOf("function");
    r1();
    r1();
    expect(g.usage()).toEqual([
      { tenant: "a", held_calls: 1, exec_streams: 0 },
      { tenant: "b", held_calls: 1, exec_streams: 0 },
    ]);
    expect(g.tryAcquire("a", "held_calls")).toBeTypeOf("function");
  });
  it("a stream's slot is given back when its reader breaks off", async () => {
    let released = 0;
    async function* three() {
      yield 1;
      yield 2;
      yield 3;
    }
    for await (const x of releasing(three(), () => released++)) if (x === 1) break;
    expect(released).toBe(1);
  });
});

describe("settings", () => {
  const ints = (env: Record<string, string>) => (key: string, def: number, min: number, max: number) => {
    const n = env[key] === undefined ? def : Number(env[key]);
    if (n < min || n > max) throw new Error(`${key} out of range`);
    return n;
  };
  const g = { maxSandboxes: 256, maxExecs: 1024, open: false, localLogBytes: 8 << 20 };
  it("defaults: a quarter of the global limits, a burst of the tenant's sandboxes, their full logs", () => {
    expect(readTenantLimits(ints({}), () => "", g).defaults).toEqual({
      concurrent_sandboxes: 64,
      creates_per_second: 10,
      create_burst: 64,
      held_calls: 256,
      exec_streams: 256,
      log_bytes: 64 * (8 << 20),
    });
  });
  it("open mode: the one tenant gets the global limits and no create rate to speak of", () => {
    expect(readTenantLimits(ints({}), () => "", { ...g, open: true }).defaults).toMatchObject({
      concurrent_sandboxes: 256,
      creates_per_second: 10_000,
      create_burst: 256,
      exec_streams: 1024,
    });
  });
  const bad: [string, string, RegExp][] = [
    ["not JSON", "{", /HANGAR_TENANT_LIMITS: not JSON/],
    ["a list", "[]", /expected a JSON object/],
    ["a bad tenant name", '{"Team A": {}}', /HANGAR_TENANT_LIMITS.Team A: .* is not a tenant name/],
    ["an unknown limit", '{"a": {"sandboxes": 3}}', /HANGAR_TENANT_LIMITS.a.sandboxes: unknown limit/],
    ["a fraction", '{"a": {"held_calls": 1.5}}', /HANGAR_TENANT_LIMITS.a.held_calls=1.5: expected an integer from 1/],
    ["zero", '{"a": {"creates_per_second": 0}}', /creates_per_second=0: expected an integer from 1/],
    ["above the global sandboxes", '{"a": {"concurrent_sandboxes": 257}}', /concurrent_sandboxes=257: expected an integer from 1 to 256/],
    ["above the global commands", '{"a": {"exec_streams": 1025}}', /exec_streams=1025: expected an integer from 1 to 1024/],
  ];
  for (const [name, text, re] of bad)
    it(`HANGAR_TENANT_LIMITS refuses ${name}`, () => expect(() => parseTenantLimits(text, g)).toThrow(re));
  it("HANGAR_TENANT_LIMITS sets some limits of some tenants", () => {
    expect(parseTenantLimits('{"a": {"concurrent_sandboxes": 128, "exec_streams": 512}, "b.c": {}}', g)).toEqual({
      a: { concurrent_sandboxes: 128, exec_streams: 512 },
      "b.c": {},
    });
  });
  it("loadConfig reads them and names a bad one", () => {
    const env = {
      HANGAR_LOCAL_UNSAFE_NO_ISOLATION: "true",
      HANGAR_LOCAL_PTY_HELPER: "/bin/true",
      HANGAR_MAX_SANDBOXES: "40",
      HANGAR_TENANT_LIMITS: '{"local": {"held_calls": 7}}',
      HANGAR_LOCAL_LOG_BYTES: "1048576",
    };
    const cfg = loadConfig(env, [], "/nonexistent");
    expect(cfg.tenantLimits.defaults).toMatchObject({ concurrent_sandboxes: 40, log_bytes: 40 << 20 });
    expect(cfg.tenantLimits.tenants).toEqual({ local: { held_calls: 7 } });
    expect(cfg.local.logBytes).toBe(1 << 20);
    expect(() => loadConfig({ ...env, HANGAR_TENANT_MAX_SANDBOXES: "41" }, [], "/nonexistent")).toThrow(
      /HANGAR_TENANT_MAX_SANDBOXES=41: expected an integer from 1 to 40/,
    );
    expect(() => loadConfig({ ...env, HANGAR_TENANT_LIMITS: '{"local": {"x": 1}}' }, [], "/nonexistent")).toThrow(ConfigError);
  });
});
