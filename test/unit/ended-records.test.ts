/** Ended records in segments (ADR 0041): group commit, rollover, which segment may go, only changed records delivered. */
import * as k8s from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createEndedRecords, SEGMENT_RECORDS } from "../../runtime/kubernetes/stores/ended-records.js";
import { createSegmentIndex, deletableSegment } from "../../runtime/kubernetes/stores/ended-segments.js";

const kc = new k8s.KubeConfig();
kc.loadFromOptions({
  clusters: [{ name: "c", server: "https://127.0.0.1:1" }],
  users: [{ name: "u" }],
  contexts: [{ name: "x", cluster: "c", user: "u" }],
  currentContext: "x",
});

function fakeCore() {
  const cms = new Map<string, Record<string, string>>();
  const calls: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  const core = {
    createNamespacedConfigMap: async (a: { body: k8s.V1ConfigMap }) => {
      await gate;
      const name = a.body.metadata?.name ?? "";
      calls.push(`POST ${name} ${Object.keys(a.body.data ?? {}).length}`);
      if (cms.has(name)) throw Object.assign(new Error("exists"), { code: 409 });
      cms.set(name, { ...a.body.data });
    },
    patchNamespacedConfigMap: async (a: { name: string; body: { data: Record<string, string> } }) => {
      await gate;
      calls.push(`PATCH ${a.name} ${Object.keys(a.body.data).length}`);
      const cm = cms.get(a.name);
      if (!cm) throw Object.assign(new Error("gone"), { code: 404 });
      Object.assign(cm, a.body.data);
    },
    deleteNamespacedConfigMap: async (a: { name: string }) => {
      calls.push(`DELETE ${a.name}`);
      cms.delete(a.name);
    },
  };
  return { core, cms, calls, hold: () => (gate = new Promise(() => undefined)), release: (p: Promise<void>) => (gate = p) };
}

const store = (core: object) =>
  createEndedRecords({
    kubeConfig: kc,
    core: core as k8s.CoreV1Api,
    namespace: "ns",
    log: { warn: () => undefined },
    onRecord: () => undefined,
    closing: () => true,
  });

describe("ended records in segments", () => {
  it("records ending while a write is in flight go together in the next write (group commit)", async () => {
    const f = fakeCore();
    const s = store(f.core);
    let open!: () => void;
    f.release(new Promise<void>((r) => (open = r)));
    const first = s.write("a", "A");
    const rest = ["b", "c", "d"].map((id) => s.write(id, id.toUpperCase()));
    open();
    await Promise.all([first, ...rest]);
    expect(f.calls.map((c) => c.replace(/-[0-9a-f]{8}-/, "-R-"))).toEqual(["POST hangar-ended-R-0 1", "PATCH hangar-ended-R-0 3"]);
    expect([...f.cms.values()][0]).toEqual({ a: "A", b: "B", c: "C", d: "D" });
    await s.stop();
  });

  it(`a segment holds at most ${SEGMENT_RECORDS} records, then the next one begins; a segment deleted meanwhile is replaced`, async () => {
    const f = fakeCore();
    const s = store(f.core);
    for (let i = 0; i < SEGMENT_RECORDS + 1; i++) await s.write(`id${i}`, "x");
    expect(f.cms.size).toBe(2);
    expect([...f.cms.values()].map((d) => Object.keys(d).length)).toEqual([SEGMENT_RECORDS, 1]);
    f.cms.clear(); // all deleted by another replica
    await s.write("late", "x");
    expect([...f.cms.values()]).toEqual([{ late: "x" }]);
    await s.stop();
  });
});

describe("deletableSegment", () => {
  const seg = (ids: string[], changedMs = 0) => ({ name: "s", ids: new Set(ids), rv: "1", changedMs });
  const cases: [string, ReturnType<typeof seg>, string[], boolean, number, boolean][] = [
    ["own, every record released: at once", seg(["a", "b"]), ["a", "b"], true, 0, true],
    ["own, one record still kept", seg(["a", "b"]), ["a"], true, 0, false],
    ["another replica's, released, changed 10 s ago: its owner deletes it", seg(["a"], 0), ["a"], false, 10_000, false],
    ["another replica's, released, unchanged for a minute: orphaned", seg(["a"], 0), ["a"], false, 60_000, true],
    ["empty (nothing seen yet)", seg([]), [], true, 0, false],
  ];
  for (const [name, s, released, own, now, want] of cases)
    it(name, () => expect(deletableSegment(s, new Set(released), own, now, 60_000)).toBe(want));
});

describe("the segment index", () => {
  it("delivers only records that are new or changed, and forgets a deleted segment's", () => {
    const got: string[] = [];
    const ix = createSegmentIndex(
      (id, text) => got.push(`${id}=${text}`),
      () => 0,
    );
    ix.seen("s1", { a: "1" }, "1");
    ix.seen("s1", { a: "1", b: "1" }, "2");
    ix.seen("s1", { a: "2", b: "1" }, "3");
    expect(got).toEqual(["a=1", "b=1", "a=2"]);
    ix.released.add("a");
    ix.gone("s1");
    expect([...ix.where.keys()]).toEqual([]);
    expect(ix.released.has("a")).toBe(false);
  });
});
