/**
 * Per-tenant limits through the real grpc-js server on port 0 (ADR 0031): two tenants, alpha at a
 * limit gets RESOURCE_EXHAUSTED naming it with a RetryInfo delay, beta goes on as before.
 */
import * as grpc from "@grpc/grpc-js";
import { afterEach, describe, expect, it } from "vitest";
import { ERROR_DOMAIN } from "../../api/grpc-errors.js";
import { createMetrics } from "../../api/metrics.js";
import { loadApi, loadRpcTypes, PROTO_DIR } from "../../api/proto.js";
import { createTenantGuard } from "../../controller/tenant-guard.js";
import type { TenantLimits } from "../../controller/tenant-limits.js";
import { fakeRuntime } from "./fake-runtime.js";
import { startTestServer } from "./test-server.js";

const KEYS = { alpha: "alpha-0123456789abcdef", beta: "beta-0123456789abcdef0" };
const WIDE: TenantLimits = {
  concurrent_sandboxes: 100,
  creates_per_second: 1000,
  create_burst: 1000,
  held_calls: 100,
  exec_streams: 100,
  log_bytes: 1 << 30,
};
const types = loadRpcTypes(PROTO_DIR);

type Res = { err: grpc.ServiceError | null; res: Record<string, unknown> & { sandbox_id?: string; status?: { state?: string } } };
type Client = grpc.Client & Record<string, (...a: unknown[]) => unknown>;

const md = (tenant: keyof typeof KEYS) => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${KEYS[tenant]}`);
  return m;
};

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function serve(limits: Partial<TenantLimits>, o: { now?: () => number; slowStart?: boolean } = {}) {
  const rt = fakeRuntime();
  const starts: (() => void)[] = [];
  if (o.slowStart) {
    const start = rt.start.bind(rt);
    rt.start = (...a: Parameters<typeof start>) => new Promise((resolve) => starts.push(() => resolve(start(...a))));
  }
  const holder: { live?: () => Map<string, number> } = {};
  const guard = createTenantGuard({
    table: { defaults: { ...WIDE, ...limits }, tenants: {} },
    now: o.now,
    onRefused: (t, l) => metrics.limitRefused(t, l),
  });
  const metrics = createMetrics(() => ({}), {
    tenants: () =>
      [...(holder.live?.() ?? new Map<string, number>())].map(([tenant, sandboxes]) => ({
        tenant,
        sandboxes,
        held_calls: 0,
        exec_streams: 0,
      })),
  });
  const s = await startTestServer(rt, {
    controller: { tenants: guard, maxSandboxes: 10, maxExecs: 10, maxExecsPerSandbox: 10 },
    keys: Object.entries(KEYS).map(([tenant, key]) => ({ tenant, key })),
    metrics,
    getHoldMs: 30_000,
  });
  holder.live = s.controller.liveByTenant;
  const { v1 } = loadApi(PROTO_DIR);
  const client = new v1.SandboxService(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure()) as unknown as Client;
  stop = async () => {
    client.close();
    await s.api.shutdown(500);
    await s.controller.close();
  };
  const call = (method: string, req: object, tenant: keyof typeof KEYS) =>
    new Promise<Res>((resolve) =>
      client[method]?.(req, md(tenant), (err: grpc.ServiceError | null, res: Res["res"]) => resolve({ err, res })),
    );
  const create = (tenant: keyof typeof KEYS) =>
    call("CreateSandbox", { sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } }, tenant);
  return { rt, starts, guard, metrics, client, call, create, controller: s.controller };
}

/** The refusal's limit (ErrorInfo metadata) and retry delay in ms (RetryInfo), from grpc-status-details-bin. */
function details(e: grpc.ServiceError | null) {
  const raw = e?.metadata?.get("grpc-status-details-bin")[0] as Buffer | undefined;
  if (!raw) return undefined;
  const st = types.Status.toObject(types.Status.decode(raw), { defaults: true }) as { details: { type_url: string; value: Buffer }[] };
  const get = (name: string, t: typeof types.ErrorInfo) => {
    const d = st.details.find((x) => x.type_url === `type.googleapis.com/google.rpc.${name}`);
    return d ? (t.toObject(t.decode(d.value), { defaults: true, longs: Number }) as Record<string, never>) : undefined;
  };
  const info = get("ErrorInfo", types.ErrorInfo) as { reason: string; domain: string; metadata: Record<string, string> } | undefined;
  const retry = get("RetryInfo", types.RetryInfo) as { retry_delay: { seconds: number; nanos: number } } | undefined;
  return {
    reason: info?.reason,
    domain: info?.domain,
    limit: info?.metadata.limit,
    retryMs: retry ? Number(retry.retry_delay.seconds) * 1000 + retry.retry_delay.nanos / 1e6 : undefined,
  };
}

async function until(ok: () => boolean) {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

function expectRefused(r: Res, limit: string, value: number, retryMs: number) {
  expect(r.err?.code, r.err?.message).toBe(grpc.status.RESOURCE_EXHAUSTED);
  expect(r.err?.details).toMatch(new RegExp(`^tenant limit ${limit}=${value} reached`));
  expect(details(r.err)).toEqual({ reason: "CWSANDBOX_TENANT_LIMIT_EXCEEDED", domain: ERROR_DOMAIN, limit, retryMs });
}

describe("per-tenant limits over gRPC", () => {
  it("concurrent_sandboxes: alpha at its limit is refused with a retry delay, beta still creates", async () => {
    const s = await serve({ concurrent_sandboxes: 2 });
    for (let i = 0; i < 2; i++) expect((await s.create("alpha")).err).toBeNull();
    expectRefused(await s.create("alpha"), "concurrent_sandboxes", 2, 2000);
    const b = await s.create("beta");
    expect(b.err).toBeNull();
    expect(b.res.sandbox_id).toBeTruthy();
    // Once one of alpha's ends, alpha creates again.
    const [first] = s.rt.calls.filter((c) => c.startsWith("start ")).map((c) => c.slice(6));
    s.rt.exit(first as string, 0);
    await new Promise((r) => setImmediate(r));
    expect((await s.create("alpha")).err).toBeNull();
    const text = await s.metrics.registry.metrics();
    expect(text).toContain('hangar_tenant_limit_refusals_total{tenant="alpha",limit="concurrent_sandboxes"} 1');
    expect(text).toContain('hangar_tenant_sandboxes{tenant="alpha"} 2');
    expect(text).toContain('hangar_tenant_sandboxes{tenant="beta"} 1');
  });

  it("creates_per_second: alpha's burst spent is refused until a token is back, beta's bucket is its own", async () => {
    let now = 1_000_000;
    const s = await serve({ creates_per_second: 2, create_burst: 3 }, { now: () => now });
    for (let i = 0; i < 3; i++) expect((await s.create("alpha")).err).toBeNull();
    expectRefused(await s.create("alpha"), "creates_per_second", 2, 500);
    expect((await s.create("beta")).err).toBeNull();
    now += 500;
    expect((await s.create("alpha")).err).toBeNull();
    expectRefused(await s.create("alpha"), "creates_per_second", 2, 500);
  });

  it("held_calls: alpha's held GetSandbox beyond its limit is answered at once, its command waiting for a start is refused; beta's Get is still held", async () => {
    const s = await serve({ held_calls: 2 }, { slowStart: true });
    const a = (await s.create("alpha")).res.sandbox_id as string;
    const b = (await s.create("beta")).res.sandbox_id as string;
    const answered: string[] = [];
    const held = [1, 2].map((i) => s.call("GetSandbox", { sandbox_id: a }, "alpha").then((r) => (answered.push(`held ${i}`), r)));
    await until(() => s.guard.usage().find((u) => u.tenant === "alpha")?.held_calls === 2); // both are waiting on the controller now
    const third = await s.call("GetSandbox", { sandbox_id: a }, "alpha");
    expect(third.err).toBeNull();
    expect(third.res.status?.state).toBe("STATE_CREATING");
    expect(answered).toEqual([]); // the two held ones still wait
    // A command for a sandbox still starting waits for it: a held call, refused at the limit.
    expectRefused(await s.call("Exec", { sandbox_id: a, command: ["echo", "hi"] }, "alpha"), "held_calls", 2, 1000);
    // Beta is not alpha: its Get is held until its sandbox starts.
    const bGet = s.call("GetSandbox", { sandbox_id: b }, "beta");
    await until(() => s.guard.usage().find((u) => u.tenant === "beta")?.held_calls === 1);
    for (const start of s.starts.splice(0)) start();
    const got = await bGet;
    expect(got.res.status?.state).toBe("STATE_RUNNING");
    expect((await Promise.all(held)).map((r) => r.res.status?.state)).toEqual(["STATE_RUNNING", "STATE_RUNNING"]);
    // A followed log stream is a held call too: alpha at its limit cannot open one.
    s.guard.acquire("alpha", "held_calls");
    s.guard.acquire("alpha", "held_calls");
    const logs = (s.client.StreamLogs as (r: object, m: grpc.Metadata) => grpc.ClientReadableStream<unknown>)(
      { sandbox_id: a, follow: true },
      md("alpha"),
    );
    logs.on("data", () => undefined);
    const err = await new Promise<grpc.ServiceError>((resolve) => logs.on("error", resolve));
    expectRefused({ err, res: {} }, "held_calls", 2, 1000);
    expect(await s.metrics.registry.metrics()).toContain('hangar_tenant_limit_refusals_total{tenant="alpha",limit="held_calls"} 3');
  });

  it("exec_streams: alpha's commands beyond its limit are refused, beta's run; a cancelled stream gives its slot back", async () => {
    const s = await serve({ exec_streams: 2 });
    const a = (await s.create("alpha")).res.sandbox_id as string;
    const b = (await s.create("beta")).res.sandbox_id as string;
    await new Promise((r) => setImmediate(r));
    const open = (s.client.StreamExec as (m: grpc.Metadata) => grpc.ClientDuplexStream<object, Record<string, unknown>>).bind(s.client);
    const streams = [1, 2].map(() => {
      const st = open(md("alpha"));
      st.on("error", () => undefined);
      const ready = new Promise((resolve) => st.on("data", (m) => m.ready && resolve(true)));
      st.write({ init: { sandbox_id: a, command: ["sleep"] } });
      return { st, ready };
    });
    await Promise.all(streams.map((x) => x.ready));
    expectRefused(await s.call("Exec", { sandbox_id: a, command: ["echo", "a"] }, "alpha"), "exec_streams", 2, 500);
    expectRefused(await s.call("ReadFile", { sandbox_id: a, path: "/etc/hostname" }, "alpha"), "exec_streams", 2, 500);
    const bRun = await s.call("Exec", { sandbox_id: b, command: ["echo", "b"] }, "beta");
    expect(bRun.err).toBeNull();
    expect(Buffer.from(bRun.res.stdout as Buffer).toString()).toBe("b\n");
    streams[0]?.st.cancel();
    await until(() => s.guard.usage().find((u) => u.tenant === "alpha")?.exec_streams === 1);
    expect((await s.call("Exec", { sandbox_id: a, command: ["echo", "a"] }, "alpha")).err).toBeNull();
    streams[1]?.st.cancel();
  });
});
