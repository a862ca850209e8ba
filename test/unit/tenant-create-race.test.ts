/**
 * Parallel creates whose admission awaits (a secret lookup, a registered volume's) must not
 * together pass a limit that each alone checks (ADR 0031): the live count is judged again in the
 * same turn as the record's insert, and a refused create spends no create token.
 */
import { describe, expect, it } from "vitest";
import { createController } from "../../controller/controller.js";
import { createTenantGuard } from "../../controller/tenant-guard.js";
import type { TenantLimits } from "../../controller/tenant-limits.js";
import type { SecretResolver } from "../../core/secrets.js";
import type { SandboxSpec } from "../../core/types.js";
import type { VolumeRegistry } from "../../core/volumes.js";
import { fakeRuntime } from "./fake-runtime.js";
import { spec } from "./fixtures.js";

const silent = { info() {}, warn() {}, error() {} };
const WIDE: TenantLimits = {
  concurrent_sandboxes: 100,
  creates_per_second: 1000,
  create_burst: 1000,
  held_calls: 100,
  exec_streams: 100,
  log_bytes: 1 << 30,
};
const tick = () => new Promise((r) => setImmediate(r));

/** A secret store whose every lookup waits a few turns of the event loop, as a real one would. */
const slowSecrets: SecretResolver = {
  stores: () => ["team"],
  resolve: async () => {
    for (let i = 0; i < 3; i++) await tick();
    return { TOKEN: "t" };
  },
  value: async () => "t",
};

function setup(limits: Partial<TenantLimits>, maxSandboxes = 100) {
  // Registered volumes, read fresh per create: each lookup awaits.
  const volumes: VolumeRegistry = {
    list: async (tenant) => {
      await tick();
      return [
        {
          id: "data",
          tenant,
          readOnly: false,
          accessModes: ["ReadWriteMany"],
          ready: true,
          reason: "",
          source: { hostPath: "/srv/data" },
          createdAtMs: 0,
        },
      ];
    },
  };
  const rt = Object.assign(fakeRuntime(), { volumes });
  const guard = createTenantGuard({ table: { defaults: { ...WIDE, ...limits }, tenants: {} }, now: () => 1_000_000 });
  const c = createController({
    runtime: rt,
    policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
    defaultLifetimeSeconds: 60,
    maxLifetimeSeconds: 600,
    maxSandboxes,
    maxExecsPerSandbox: 1,
    maxExecs: 10,
    maxFileBytes: 1024,
    reapIntervalMs: 1000,
    log: silent,
    secrets: slowSecrets,
    tenants: guard,
  });
  return { c, rt };
}

const withSecret = (): SandboxSpec =>
  spec({ secrets: [{ store: "team", name: "TOKEN", envVar: "TOKEN", at: "sandbox.spec.containers[0].secret_stores[0].secrets[0]" }] });
const withVolume = (): SandboxSpec =>
  spec({ volumes: [{ name: "d", mountPath: "/data", readOnly: true, registered: { id: "data", at: "sandbox.spec.volumes[0]" } }] });

async function createAll(c: ReturnType<typeof setup>["c"], tenant: string, specs: SandboxSpec[]) {
  const out = await Promise.allSettled(specs.map((s) => c.create(tenant, { spec: s, echo: {}, requestId: "" })));
  const refused = out.flatMap((r) => (r.status === "rejected" ? [r.reason as { code?: string; message?: string }] : []));
  return { ok: out.filter((r) => r.status === "fulfilled").length, refused };
}

describe("parallel creates against the limits", () => {
  it.each([
    ["a secret lookup", withSecret],
    ["a registered volume's lookup", withVolume],
  ])(
    "concurrent_sandboxes=3: of 8 parallel creates that await %s, exactly 3 succeed, the others are refused naming the limit",
    async (_, make) => {
      const { c } = setup({ concurrent_sandboxes: 3 });
      const { ok, refused } = await createAll(c, "alpha", Array.from({ length: 8 }, make));
      expect(ok).toBe(3);
      expect(refused).toHaveLength(5);
      for (const e of refused) expect(e.message).toMatch(/^tenant limit concurrent_sandboxes=3 reached/);
      expect(c.liveByTenant().get("alpha")).toBe(3);
      // Another tenant is not held back by alpha's count.
      expect((await createAll(c, "beta", [withSecret()])).ok).toBe(1);
      await c.close();
    },
  );

  it("a create refused at the last check spends no create token", async () => {
    // Burst 3, no refill to speak of: 8 parallel creates, 2 admitted; the 6 refused spend nothing.
    const { c, rt } = setup({ concurrent_sandboxes: 2, create_burst: 3, creates_per_second: 0.000001 });
    expect((await createAll(c, "alpha", Array.from({ length: 8 }, withSecret))).ok).toBe(2);
    await tick();
    const started = rt.calls.filter((x) => x.startsWith("start ")).map((x) => x.slice(6));
    for (const id of started) rt.exit(id, 0);
    await tick();
    // One token is left (3 - 2): one more create, then the rate refuses.
    expect((await createAll(c, "alpha", [withSecret()])).ok).toBe(1);
    const last = await createAll(c, "alpha", [withSecret()]);
    expect(last.refused[0]?.message).toMatch(/^tenant limit creates_per_second=/);
    await c.close();
  });

  it("maxSandboxes=4: of 10 parallel creates that await a secret lookup, exactly 4 succeed", async () => {
    const { c } = setup({}, 4);
    const { ok, refused } = await createAll(c, "alpha", Array.from({ length: 10 }, withSecret));
    expect(ok).toBe(4);
    for (const e of refused) expect(e.code).toBe("RESOURCE_EXHAUSTED");
    await c.close();
  });
});
