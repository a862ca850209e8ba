/** Durable records: the annotation codec, merging stored records, and the controller over a runtime that stores them. */
import { describe, expect, it } from "vitest";
import { createController, idForRequest } from "../../controller/controller.js";
import { mergeStored } from "../../controller/lifecycle.js";
import type { SandboxRecord } from "../../core/types.js";
import { tenantLabelValue } from "../../runtime/kubernetes/pod/labels.js";
import { buildPod } from "../../runtime/kubernetes/pod/spec.js";
import { decodeRecord, encodeRecord, readRecord, RECORD_BUDGET, unreadableRecord } from "../../runtime/record-codec.js";
import { RECORD_ANNOTATION, RECORD_FINALIZER } from "../../runtime/kubernetes/pod/keys.js";
import type { DurableRecords, ExitInfo } from "../../runtime/types.js";
import { fakeRuntime } from "./fake-runtime.js";
import { record, spec } from "./fixtures.js";

const silent = { info() {}, warn() {}, error() {} };
const tick = () => new Promise((r) => setImmediate(r));

describe("record codec", () => {
  it("round-trips a record, bytes included, but never the mounted files' contents of the domain spec", () => {
    const r = record({
      requestId: "req-1",
      exitCode: 3,
      endedAtMs: 9_000,
      state: "COMPLETED",
      stop: { requestedAtMs: 5, graceMs: 100, why: "purged" },
      echo: { containers: [{ files: [{ path: "/a", content: Buffer.from([0, 1, 255]) }] }], n: "12345678901234567890" },
      spec: spec({ tags: ["a b", "ü"], files: [{ path: "/a", content: Buffer.from("secret") }] }),
    });
    const back = decodeRecord(encodeRecord(r));
    expect(back).toEqual({ ...r, spec: { ...r.spec, files: [{ path: "/a", content: Buffer.alloc(0) }] } });
    expect(Buffer.isBuffer((back?.echo as { containers: { files: { content: unknown }[] }[] }).containers[0]?.files[0]?.content)).toBe(
      true,
    );
  });
  it("drops byte contents (keeping paths) when the record would pass its budget", () => {
    const big = Buffer.alloc(RECORD_BUDGET, 7);
    const text = encodeRecord(record({ echo: { files: [{ path: "/big", content: big }] } }));
    expect(text.length).toBeLessThan(RECORD_BUDGET);
    expect(decodeRecord(text)?.echo).toEqual({ files: [{ path: "/big", content: Buffer.alloc(0) }] });
  });
  for (const bad of [
    undefined,
    "",
    "{",
    "null",
    "[]",
    '{"v":2,"id":"x","tenant":"t","state":"RUNNING","createdAtMs":1,"spec":{}}',
    '{"v":1,"id":"x","tenant":"t","state":"WEIRD","createdAtMs":1,"spec":{}}',
    '{"v":1,"id":"x","tenant":"t","state":"RUNNING","createdAtMs":"1","spec":{}}',
  ]) {
    it(`ignores an annotation that is not a record: ${JSON.stringify(bad)}`, () => expect(decodeRecord(bad)).toBeUndefined());
  }
  const reasons: [string | undefined, RegExp, boolean][] = [
    [undefined, /no record annotation/, false],
    ["{", /not JSON/, false],
    ["[]", /not a JSON object/, false],
    ['{"v":"1","id":"x"}', /record version "1", this Hangar reads 1/, false],
    ['{"v":2,"id":"x","tenant":"t","state":"RUNNING","createdAtMs":1,"spec":{}}', /record version 2, written by a newer Hangar/, true],
    ['{"v":1,"id":"x","tenant":"t","state":"WEIRD","createdAtMs":1,"spec":{}}', /id, tenant or state/, false],
    ['{"v":1,"id":"x","tenant":"t","state":"RUNNING","createdAtMs":"1","spec":{}}', /createdAtMs or spec/, false],
  ];
  for (const [text, why, newer] of reasons)
    it(`says why ${JSON.stringify(text)} is not a record`, () => {
      const r = readRecord(text);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.why).toMatch(why);
        expect(!!r.newer).toBe(newer);
      }
    });
  it("an unreadable record becomes a FAILED sandbox of the labelled tenant, saying why", () => {
    const r = unreadableRecord({ name: "sbx-1", id: "1", tenantLabel: "alpha", createdMs: 5 }, "not JSON (x)", 9);
    expect(r).toMatchObject({
      id: "1",
      tenant: "alpha",
      state: "FAILED",
      createdAtMs: 5,
      endedAtMs: 9,
      stateReason: "the record on pod sbx-1 could not be read (not JSON (x)); the pod was stopped",
    });
    expect(decodeRecord(encodeRecord(r))).toEqual(r); // what the controller then stores reads back
  });
  it("a pod with a record carries it, the finalizer that keeps it, and the tenant label", () => {
    const pod = buildPod(record().id, spec(), { namespace: "ns", egress: false, record: { tenant: "team a/b", text: "{}" } });
    expect(pod.metadata?.finalizers).toEqual([RECORD_FINALIZER]);
    expect(pod.metadata?.annotations?.[RECORD_ANNOTATION]).toBe("{}");
    expect(pod.metadata?.labels?.["hangar.dev/tenant"]).toBe(tenantLabelValue("team a/b"));
    expect(buildPod(record().id, spec(), { namespace: "ns", egress: false }).metadata?.finalizers).toBeUndefined();
  });
  it("tenant label values are the tenant when valid, else a stable hash", () => {
    expect(tenantLabelValue("alpha")).toBe("alpha");
    expect(tenantLabelValue("team a/b")).toMatch(/^h-[0-9a-f]{40}$/);
    expect(tenantLabelValue("x".repeat(64))).toMatch(/^h-/);
    expect(tenantLabelValue("team a/b")).toBe(tenantLabelValue("team a/b"));
  });
});

describe("mergeStored", () => {
  const stop = { requestedAtMs: 5, graceMs: 0, why: "deleted" as const };
  const table: [string, Partial<SandboxRecord>, Partial<SandboxRecord>, Partial<SandboxRecord> | undefined][] = [
    ["same state: nothing", { state: "RUNNING" }, { state: "RUNNING" }, undefined],
    [
      "forward: takes state and times",
      { state: "CREATING", startedAtMs: undefined },
      { state: "RUNNING", stateReason: "up", startedAtMs: 7, imageNote: "pod" },
      { state: "RUNNING", stateReason: "up", startedAtMs: 7, imageNote: "pod" },
    ],
    ["never backward", { state: "RUNNING" }, { state: "CREATING" }, undefined],
    [
      "a stop made elsewhere",
      { state: "RUNNING" },
      { state: "TERMINATING", stateReason: "stopping", stop },
      { state: "TERMINATING", stateReason: "stopping", startedAtMs: 2000, stop },
    ],
    [
      "an exit recorded elsewhere",
      { state: "TERMINATING", stop },
      { state: "COMPLETED", stateReason: "done", exitCode: 0, endedAtMs: 9, stop },
      { state: "COMPLETED", stateReason: "done", startedAtMs: 2000, exitCode: 0, endedAtMs: 9 },
    ],
    [
      "a terminal record's state never changes",
      { state: "FAILED", stateReason: "x" },
      { state: "COMPLETED", stateReason: "y", stop },
      undefined,
    ],
    [
      "a delete accepted elsewhere, also of a terminal record",
      { state: "COMPLETED" },
      { state: "COMPLETED", deletedAtMs: 11 },
      { deletedAtMs: 11 },
    ],
    [
      "a delete this replica knows stays as it is",
      { state: "COMPLETED", deletedAtMs: 3 },
      { state: "COMPLETED", deletedAtMs: 11 },
      undefined,
    ],
  ];
  for (const [name, local, stored, want] of table) {
    it(name, () => expect(mergeStored(record(local), record(stored))).toEqual(want));
  }
});

/** The fake runtime with in-memory durable records: what a second replica or a restarted Hangar would see. */
function storingRuntime(preexisting: SandboxRecord[] = []) {
  const rt = fakeRuntime();
  const saved: SandboxRecord[] = [];
  const records: DurableRecords = {
    async open() {
      for (const r of preexisting) rt.emit({ t: "record", record: structuredClone(r) });
    },
    async save(r) {
      saved.push(structuredClone(r));
    },
  };
  return {
    rt: Object.assign(rt, { records }),
    saved,
    push: (r: SandboxRecord) => rt.emit({ t: "record", record: r }),
    exit: (id: string, exit: ExitInfo) => rt.emit({ t: "exit", id, exit }),
  };
}

/** Holds the store's writes of one state until release() (writes of a sandbox land in call order, as the Kubernetes store chains them). */
function gateSaves(s: ReturnType<typeof storingRuntime>, state: string) {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let chain = Promise.resolve();
  s.rt.records = {
    ...s.rt.records!,
    save: (r) => {
      const snap = structuredClone(r);
      return (chain = chain.then(async () => {
        if (snap.state === state) await gate;
        s.saved.push(snap);
      }));
    },
  };
  return release;
}

function controllerOver(rt: ReturnType<typeof fakeRuntime>, now = () => 1_000) {
  return createController({
    runtime: rt,
    now,
    policy: { retentionMs: 10_000, expiryGraceMs: 0, stuckAfterMs: 1_000 },
    defaultLifetimeSeconds: 60,
    maxLifetimeSeconds: 600,
    maxSandboxes: 10,
    maxExecsPerSandbox: 2,
    maxExecs: 10,
    maxFileBytes: 1024,
    reapIntervalMs: 60_000,
    log: silent,
  });
}

describe("controller with durable records", () => {
  it("stores every state after CREATING, and passes the record to start", async () => {
    const s = storingRuntime();
    const c = controllerOver(s.rt);
    await c.start();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    c.remove("alpha", r.id, { graceMs: 0, allowMissing: false });
    await tick();
    expect(s.saved.map((x) => x.state)).toEqual(["RUNNING", "TERMINATING", "COMPLETED"]);
    expect(s.saved[1]?.stop?.why).toBe("deleted");
    await c.close();
  });

  it("after a restart, stored records answer Get/List and request ids, scoped to their tenant", async () => {
    const stored = [
      record({ id: "a1", requestId: "req", state: "RUNNING" }),
      record({ id: "a2", state: "COMPLETED", exitCode: 4, endedAtMs: 900 }),
    ];
    const s = storingRuntime(stored);
    const c = controllerOver(s.rt);
    await c.start();
    expect(c.get("alpha", "a2")).toMatchObject({ state: "COMPLETED", exitCode: 4 });
    expect(() => c.get("beta", "a1")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(c.list("alpha", { tags: [], showTerminated: true, runnerIds: [], pageSize: 0, pageToken: "" }).items.map((x) => x.id)).toEqual([
      "a1",
      "a2",
    ]);
    expect((await c.create("alpha", { spec: spec(), echo: {}, requestId: "req" })).id).toBe("a1");
    expect(s.rt.calls.filter((x) => x.startsWith("start"))).toEqual([]);
    await c.close();
  });

  it("a stop and an exit recorded by another replica reach this one; its exit of an adopted sandbox ends the record", async () => {
    const s = storingRuntime([record({ id: "b1", state: "RUNNING" })]);
    const c = controllerOver(s.rt);
    await c.start();
    s.push(record({ id: "b1", state: "TERMINATING", stateReason: "stopping", stop: { requestedAtMs: 900, graceMs: 0, why: "purged" } }));
    expect(c.get("alpha", "b1").state).toBe("TERMINATING");
    s.exit("b1", { exitCode: 143, reason: "Error", endedAtMs: 1_000 });
    expect(c.get("alpha", "b1").state).toBe("TERMINATING"); // shown once stored
    await tick();
    expect(c.get("alpha", "b1")).toMatchObject({ state: "COMPLETED", exitCode: 143, stateReason: "stopped by purge; exit code 143" });
    s.push(record({ id: "b1", state: "RUNNING" }));
    expect(c.get("alpha", "b1").state).toBe("COMPLETED");
    await c.close();
  });

  it("the reaper expires adopted sandboxes from their stored times, and a failed start keeps its record until retention", async () => {
    let now = 1_000;
    const s = storingRuntime([record({ id: "c1", state: "RUNNING", startedAtMs: 0, effectiveLifetimeSeconds: 1 })]);
    const c = controllerOver(s.rt, () => now);
    await c.start();
    await c.reapOnce();
    expect(c.get("alpha", "c1").state).toBe("TERMINATING");
    expect(s.rt.calls).toContain("stop c1 0");
    s.exit("c1", { exitCode: 137, reason: "killed", endedAtMs: now });
    await tick();
    now += 10_000;
    await c.reapOnce();
    expect(() => c.get("alpha", "c1")).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    expect(s.rt.calls).toContain("remove c1");
    s.rt.start = async ({ id }) => {
      s.rt.emit({ t: "stored", id });
      throw new Error("no such image");
    };
    const f = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    expect(c.get("alpha", f.id).state).toBe("FAILED");
    expect(s.rt.calls).not.toContain(`remove ${f.id}`);
    await c.close();
  });

  it("a create is answered only once its record is stored; one that fails before that leaves nothing, and its retry starts afresh", async () => {
    const s = storingRuntime();
    const c = controllerOver(s.rt);
    await c.start();
    let store!: () => void;
    let fail!: (e: Error) => void;
    s.rt.start = ({ id }) =>
      new Promise((res, rej) => {
        store = () => s.rt.emit({ t: "stored", id });
        fail = rej;
      });
    let answered = false;
    const first = c.create("alpha", { spec: spec(), echo: {}, requestId: "r1" }).then((r) => ((answered = true), r));
    await tick();
    expect(answered).toBe(false);
    store();
    expect((await first).state).toBe("CREATING");

    // The apiserver refused the pod: the caller gets the error and no record is left behind.
    const second = c.create("alpha", { spec: spec(), echo: {}, requestId: "r2" });
    const retryWhileStoring = c.create("alpha", { spec: spec(), echo: {}, requestId: "r2" });
    await tick();
    fail(new Error("apiserver unavailable"));
    await expect(second).rejects.toThrow("apiserver unavailable");
    // No FAILED record of the refused attempt: the retry that waited on it made a new attempt.
    const all = () =>
      c.list("alpha", { tags: [], showTerminated: true, runnerIds: [], pageSize: 0, pageToken: "" }).items.map((x) => `${x.id} ${x.state}`);
    expect(all()).toEqual([`${(await first).id} CREATING`, `${idForRequest("alpha", "r2")} CREATING`]);
    await tick();
    store();
    expect((await retryWhileStoring).id).toBe(idForRequest("alpha", "r2"));
    await c.close();
  });

  it("stored(id) settles only when the sandbox's last write landed: a delete is answered once its stop is durable", async () => {
    const s = storingRuntime();
    const release = gateSaves(s, "TERMINATING");
    const c = controllerOver(s.rt);
    await c.start();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    await tick();
    c.remove("alpha", r.id, { graceMs: 0, allowMissing: false });
    let durable = false;
    void c.stored(r.id).then(() => (durable = true));
    await tick();
    expect(durable).toBe(false);
    release();
    await tick();
    await tick();
    expect(durable).toBe(true);
    expect(s.saved.map((x) => x.state)).toEqual(["RUNNING", "TERMINATING", "COMPLETED"]);
    await c.close();
  });

  it("a start that stored RUNNING itself (a warm claim) is RUNNING at once, with no second write", async () => {
    const s = storingRuntime();
    s.rt.start = async ({ id }) => {
      s.rt.emit({ t: "stored", id });
      return { imageNote: "warm", startedAtMs: 7, stored: true };
    };
    const c = controllerOver(s.rt);
    await c.start();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    expect(c.get("alpha", r.id)).toMatchObject({ state: "RUNNING", startedAtMs: 7 });
    expect(s.saved).toEqual([]);
    await c.close();
  });

  it("an id this replica has not seen is looked up once before NOT_FOUND (another replica just created it)", async () => {
    const s = storingRuntime();
    const looked: string[] = [];
    const fresh = record({ id: "6f1c2d3e-0000-4000-8000-00000000abcd", state: "RUNNING" });
    s.rt.records = {
      ...s.rt.records!,
      lookup: async (id) => {
        looked.push(id);
        if (id === fresh.id) s.rt.emit({ t: "record", record: fresh });
      },
    };
    const c = controllerOver(s.rt);
    await c.start();
    expect(() => c.get("alpha", fresh.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    await c.ensure(fresh.id);
    expect(c.get("alpha", fresh.id).state).toBe("RUNNING");
    expect(() => c.get("beta", fresh.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" })); // still scoped to its tenant
    await c.ensure(fresh.id); // known now: no second read
    await c.ensure("not-a-uuid");
    await c.ensure("6f1c2d3e-0000-4000-8000-00000000ffff");
    expect(looked).toEqual([fresh.id, "6f1c2d3e-0000-4000-8000-00000000ffff"]);
    await c.close();
  });

  it("an end is shown only once it is stored (a restarted replica then shows the same)", async () => {
    const s = storingRuntime();
    const release = gateSaves(s, "COMPLETED");
    const c = controllerOver(s.rt);
    await c.start();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    await tick();
    s.rt.exit(r.id, 5);
    await tick();
    expect(c.get("alpha", r.id).state).toBe("RUNNING");
    release();
    await tick();
    await tick();
    expect(c.get("alpha", r.id)).toMatchObject({ state: "COMPLETED", exitCode: 5 });
    expect(s.saved.map((x) => x.state)).toEqual(["RUNNING", "COMPLETED"]);
    await c.close();
  });

  it("RUNNING is shown only once it is stored", async () => {
    const s = storingRuntime();
    const release = gateSaves(s, "RUNNING");
    const c = controllerOver(s.rt);
    await c.start();
    const r = await c.create("alpha", { spec: spec(), echo: {}, requestId: "" });
    await tick();
    expect(c.get("alpha", r.id).state).toBe("CREATING");
    release();
    await tick();
    await tick();
    expect(c.get("alpha", r.id).state).toBe("RUNNING");
    expect(s.saved.map((x) => x.state)).toEqual(["RUNNING"]);
    await c.close();
  });
});
