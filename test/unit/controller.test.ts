import { describe, expect, it } from "vitest";
import { createController, idForRequest } from "../../controller/controller.js";
import { fakeRuntime } from "./fake-runtime.js";
import { spec } from "./fixtures.js";

const silent = { info() {}, warn() {}, error() {} };
const tick = () => new Promise((r) => setImmediate(r));

function setup(over: Partial<Parameters<typeof createController>[0]> = {}) {
  let now = 1_000;
  const rt = fakeRuntime();
  const c = createController({
    runtime: rt,
    now: () => now,
    policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
    defaultLifetimeSeconds: 60,
    maxLifetimeSeconds: 600,
    maxSandboxes: 3,
    maxExecsPerSandbox: 1,
    maxExecs: 10,
    maxFileBytes: 1024,
    reapIntervalMs: 1000,
    log: silent,
    ...over,
  });
  return { c, rt, advance: (ms: number) => (now += ms) };
}

describe("controller", () => {
  it("a command for a sandbox still starting waits for it to run; past startWaitMs it is refused as not running", async () => {
    const { c, rt } = setup({ startWaitMs: 50 });
    let up!: () => void;
    rt.start = () => new Promise((res) => (up = () => res({ imageNote: "up", startedAtMs: 5 })));
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    expect(r.state).toBe("CREATING");
    const h = c.exec("alpha", r.id, { argv: ["true"] });
    await tick();
    expect(rt.calls.some((x) => x.startsWith("exec"))).toBe(false);
    up();
    (await h).release();
    expect(rt.calls).toContain(`exec ${r.id} true`);
    const slow = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await expect(c.writeFile("alpha", slow.id, "/f", Buffer.from("x"), new AbortController().signal)).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    await c.close();
  });
  it("the reaper never overlaps itself: a tick while a sweep waits on a slow kill joins that sweep", async () => {
    const { c, rt, advance } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    let release!: () => void;
    const gate = new Promise<void>((res) => (release = res));
    rt.stop = async (id: string, graceMs: number) => {
      rt.calls.push(`stop ${id} ${graceMs}`);
      if (graceMs === 0) await gate; // the kill hangs; the sandbox does not exit on its own
    };
    c.remove("alpha", r.id, { graceMs: 1000, allowMissing: false });
    advance(5_000);
    const first = c.reapOnce();
    const second = c.reapOnce();
    expect(second).toBe(first);
    await tick();
    expect(rt.calls.filter((x) => x === `stop ${r.id} 0`)).toHaveLength(1);
    release();
    await first;
    const third = c.reapOnce();
    expect(third).not.toBe(first);
    await third;
  });

  it("create -> RUNNING -> natural exit COMPLETED with exit code", async () => {
    const { c, rt } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    expect(["PENDING", "CREATING", "RUNNING"]).toContain(r.state);
    await tick();
    expect(c.get("alpha", r.id).state).toBe("RUNNING");
    rt.exit(r.id, 0);
    expect(c.get("alpha", r.id)).toMatchObject({ state: "COMPLETED", exitCode: 0 });
  });

  it("a retried create with the same request_id returns the same sandbox, per tenant", async () => {
    const { c } = setup();
    const a = await c.create("alpha", { spec: spec(), echo: {}, requestId: "req-1" });
    const b = await c.create("alpha", { spec: spec(), echo: {}, requestId: "req-1" });
    const other = await c.create("beta", { spec: spec(), echo: {}, requestId: "req-1" });
    expect(b.id).toBe(a.id);
    expect(other.id).not.toBe(a.id);
  });

  it("another tenant's sandbox does not exist for them", async () => {
    const { c } = setup();
    const a = await c.create("alpha", { spec: spec({ tags: ["t"] }), echo: {}, requestId: "" });
    expect(() => c.get("beta", a.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(c.list("beta", { tags: ["t"], showTerminated: true, runnerIds: [], pageSize: 0, pageToken: "" }).items).toEqual([]);
    expect(() => c.remove("beta", a.id, { graceMs: 0, allowMissing: false })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(c.purge("beta", { tags: ["t"], dryRun: false, purgeAll: false }).count).toBe(0);
    await expect(c.exec("beta", a.id, { argv: ["echo"] })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("delete with grace goes TERMINATING then COMPLETED, and stays gettable until retention ends", async () => {
    const { c, rt, advance } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    c.remove("alpha", r.id, { graceMs: 5000, allowMissing: false });
    expect(c.get("alpha", r.id).state).toBe("TERMINATING");
    expect(rt.calls).toContain(`stop ${r.id} 5000`);
    await tick();
    expect(c.get("alpha", r.id).state).toBe("COMPLETED");
    expect(c.remove("alpha", r.id, { graceMs: 0, allowMissing: true })).toBeUndefined();
    expect(() => c.remove("alpha", r.id, { graceMs: 0, allowMissing: false })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    advance(10_001);
    await c.reapOnce();
    expect(() => c.get("alpha", r.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
  });

  it("a deleted sandbox is gone for every call but Get and List; a sandbox that ended on its own is deleted once", async () => {
    const { c, rt } = setup();
    const live = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    const ended = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    rt.exit(ended.id, 3);
    expect(c.remove("alpha", ended.id, { graceMs: 0, allowMissing: false })).toMatchObject({ state: "COMPLETED", exitCode: 3 });
    expect(() => c.remove("alpha", ended.id, { graceMs: 0, allowMissing: false })).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(c.remove("alpha", live.id, { graceMs: 0, allowMissing: false })?.deletedAtMs).toBe(1_000);
    for (const id of [live.id, ended.id]) {
      expect(c.get("alpha", id).deletedAtMs).toBe(1_000);
      await expect(c.exec("alpha", id, { argv: ["true"] })).rejects.toMatchObject({ code: "NOT_FOUND" });
      expect(() => c.logs("alpha", id, { follow: false, tailLines: 0, timestamps: false, signal: new AbortController().signal })).toThrow(
        expect.objectContaining({ code: "NOT_FOUND" }),
      );
      expect(c.remove("alpha", id, { graceMs: 0, allowMissing: true })).toBeUndefined();
    }
    expect(
      c
        .list("alpha", { tags: [], showTerminated: true, runnerIds: [], pageSize: 0, pageToken: "" })
        .items.map((r) => r.id)
        .sort(),
    ).toEqual([live.id, ended.id].sort());
  });

  it("getChanged answers when the state moves on, after the hold, or when the call ends", async () => {
    const { c, rt } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    const signal = new AbortController().signal;
    await tick();
    // Already moved on: answered at once, whatever the hold.
    await expect(c.getChanged("alpha", r.id, "CREATING", 60_000, signal)).resolves.toMatchObject({ state: "RUNNING" });
    const t0 = Date.now();
    await expect(c.getChanged("alpha", r.id, "RUNNING", 30, signal)).resolves.toMatchObject({ state: "RUNNING" });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(25);
    const ac = new AbortController();
    const cancelled = c.getChanged("alpha", r.id, "RUNNING", 60_000, ac.signal);
    ac.abort();
    await expect(cancelled).resolves.toMatchObject({ state: "RUNNING" });
    const stopping = c.getChanged("alpha", r.id, "RUNNING", 60_000, signal);
    rt.exit(r.id, 0);
    await expect(stopping).resolves.toMatchObject({ state: "COMPLETED" });
    await expect(c.getChanged("beta", r.id, "RUNNING", 10, signal)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the reaper stops sandboxes past their lifetime", async () => {
    const { c, advance } = setup();
    const r = await c.create("alpha", { spec: spec({ maxLifetimeSeconds: 2 }), echo: {}, requestId: "" });
    await tick();
    advance(3000);
    await c.reapOnce();
    await tick();
    expect(c.get("alpha", r.id)).toMatchObject({ state: "COMPLETED", exitCode: 137 });
    expect(c.get("alpha", r.id).stateReason).toMatch(/max lifetime/);
  });

  it("limits: sandboxes and concurrent execs answer RESOURCE_EXHAUSTED with a retry delay", async () => {
    const { c } = setup();
    for (let i = 0; i < 3; i++) await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await expect(c.create("alpha", { spec: spec(), echo: {}, requestId: "" })).rejects.toMatchObject({
      code: "RESOURCE_EXHAUSTED",
      retryAfterMs: 2000,
    });
    await tick();
    const id = c.list("alpha", { tags: [], showTerminated: false, runnerIds: [], pageSize: 0, pageToken: "" }).items[0]?.id as string;
    const h = await c.exec("alpha", id, { argv: ["sleep"] });
    await expect(c.exec("alpha", id, { argv: ["echo"] })).rejects.toMatchObject({ code: "RESOURCE_EXHAUSTED" });
    h.release();
    const h2 = await c.exec("alpha", id, { argv: ["echo"] });
    h2.release();
  });

  it("exec and files need a RUNNING sandbox", async () => {
    const { c, rt } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    rt.exit(r.id, 0);
    await expect(c.exec("alpha", r.id, { argv: ["echo"] })).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
    await expect(c.readFile("alpha", r.id, "/x", new AbortController().signal)).rejects.toMatchObject({ code: "FAILED_PRECONDITION" });
  });

  it("writes over the size limit are refused with FILE_TOO_LARGE", async () => {
    const { c } = setup();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    expect(() => c.writeFile("alpha", r.id, "/x", Buffer.alloc(2048), new AbortController().signal)).toThrow(
      expect.objectContaining({ reason: "CWSANDBOX_FILE_TOO_LARGE" }),
    );
  });

  it("refuses runner pins it cannot honour with a spillable reason", async () => {
    const { c } = setup();
    await expect(c.create("alpha", { spec: spec({ runnerIds: ["elsewhere"] }), echo: {}, requestId: "" })).rejects.toMatchObject({
      reason: "CWSANDBOX_NO_SUITABLE_RUNNER",
    });
  });
});

describe("idForRequest", () => {
  it("is a stable UUID per (tenant, request_id), different across tenants and requests", () => {
    const a = idForRequest("alpha", "req-1");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idForRequest("alpha", "req-1")).toBe(a);
    expect(idForRequest("beta", "req-1")).not.toBe(a);
    expect(idForRequest("alpha", "req-2")).not.toBe(a);
  });
});

describe("an exit the runtime saw run", () => {
  it("is COMPLETED with its code even when it arrives before the start's answer (a replica that did not start it)", async () => {
    const { c, rt } = setup();
    let up!: () => void;
    rt.start = () => new Promise((res) => (up = () => res({ imageNote: "up", startedAtMs: 5 })));
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    rt.emit({ t: "exit", id: r.id, exit: { exitCode: 0, reason: "Completed", endedAtMs: 9, ranAtMs: 7 } });
    await tick();
    const got = c.get("alpha", r.id);
    expect([got.state, got.exitCode, got.stateReason, got.startedAtMs]).toEqual(["COMPLETED", 0, "main process exited with code 0", 7]);
    // Without the proof it ran, the same exit while starting is a failed start.
    const r2 = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    rt.emit({ t: "exit", id: r2.id, exit: { exitCode: 0, reason: "Completed", endedAtMs: 9 } });
    await tick();
    expect(c.get("alpha", r2.id).state).toBe("FAILED");
    up();
    await c.close();
  });
});
