/** Warm pools: configuration, which sandboxes a pool can serve, which pods are claimable, and the claim patch. */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { claimable, claimPatch, parseWarmPools, poolFor, poolName, refillCount } from "../../runtime/kubernetes/warm-pool.js";
import { DEFAULT_MAIN_ARGV } from "../../core/types.js";
import { spec } from "./fixtures.js";

describe("HANGAR_KUBE_WARM_POOLS", () => {
  it("parses image=size lists, images with tags and registries included", () => {
    expect(parseWarmPools("")).toEqual([]);
    expect(parseWarmPools("python:3.11=8, localhost:5000/x/y:1=2")).toEqual([{ image: "python:3.11", size: 8 }, { image: "localhost:5000/x/y:1", size: 2 }]);
  });
  for (const [bad, msg] of [["python:3.11", /image=size/], ["=3", /image=size/], ["a=0", /1 to 1000/], ["a=x", /1 to 1000/], ["a=1,a=2", /twice/]] as const) {
    it(`refuses ${bad}`, () => expect(() => parseWarmPools(bad)).toThrow(msg));
  }
});

describe("poolFor", () => {
  const pools = [{ image: "python:3.11", size: 2 }];
  const sb = (over: Parameters<typeof spec>[0] = {}) => spec({ argv: [], ...over });
  const cases: [string, Parameters<typeof poolFor>[0], boolean, boolean][] = [
    ["the default sandbox of a pooled image", sb(), false, true],
    ["the default main process as the API fills it in", sb({ argv: [...DEFAULT_MAIN_ARGV] }), false, true],
    ["env and files are fine (applied per exec / written at claim)", sb({ env: { A: "1" }, files: [{ path: "/a", content: Buffer.from("x") }] }), false, true],
    ["another image", sb({ image: "python:3.12" }), false, false],
    ["its own main process", sb({ argv: ["sleep", "1"] }), false, false],
    ["resources", sb({ requests: { cpu: "1" } }), false, false],
    ["a GPU", sb({ limits: { gpuCount: 1 } }), false, false],
    ["volumes", sb({ volumes: [{ name: "v", mountPath: "/v" }] }), false, false],
    ["a working directory", sb({ workingDir: "/w" }), false, false],
    ["a runner with a node selector", sb(), true, false],
  ];
  for (const [name, s, selector, ok] of cases) it(`${name}: ${ok ? "pool" : "cold"}`, () => expect(poolFor(s, pools, selector) !== undefined).toBe(ok));
});

describe("claimable", () => {
  const P = poolName("python:3.11");
  const pod = (name: string, over: { labels?: Record<string, string>; exec?: boolean; running?: boolean; deleting?: boolean; phase?: string } = {}): V1Pod => ({
    metadata: { name, labels: { "hangar.dev/warm-pool": P, ...over.labels }, annotations: over.exec === false ? {} : { "hangar.dev/exec": "sh" }, ...(over.deleting ? { deletionTimestamp: new Date(0) } : {}) },
    status: { phase: over.phase ?? "Running", containerStatuses: [{ name: "main", image: "", imageID: "", ready: true, restartCount: 0, state: over.running === false ? { waiting: {} } : { running: {} } }] },
  });
  it("idle = pool pods not claimed, not deleted, not finished; ready = running with exec proven", () => {
    const pods = [pod("a"), pod("b", { exec: false }), pod("c", { running: false }), pod("d", { labels: { "hangar.dev/sandbox-id": "x" } }), pod("e", { deleting: true }), pod("f", { phase: "Failed" }), pod("g", { labels: { "hangar.dev/warm-pool": "other" } })];
    const r = claimable(pods, P);
    expect(r.idle.map((p) => p.metadata?.name)).toEqual(["a", "b", "c"]);
    expect(r.ready.map((p) => p.metadata?.name)).toEqual(["a"]);
  });
});

describe("claimPatch", () => {
  it("relabels with a resourceVersion precondition and counts the lifetime from the claim", () => {
    const pod: V1Pod = { metadata: { name: "warm-1", resourceVersion: "42" }, status: { startTime: new Date(100_000) } };
    const p = claimPatch(pod, { id: "id-1", spec: spec({ tags: ["a:b"], annotations: { note: "x" } }), tenant: "alpha", recordText: "{}", egress: false, deadlineSeconds: 660 }, 130_500) as {
      metadata: { resourceVersion: string; labels: Record<string, string | null>; annotations: Record<string, string>; finalizers: string[] };
      spec: { activeDeadlineSeconds: number };
    };
    expect(p.metadata.resourceVersion).toBe("42");
    expect(p.metadata.labels).toMatchObject({ "hangar.dev/sandbox-id": "id-1", "hangar.dev/tenant": "alpha", "tag.hangar.dev/a": "b", "hangar.dev/egress": "deny", "hangar.dev/warm-pool": null, "hangar.dev/claimed": "true" });
    expect(p.metadata.annotations).toEqual({ note: "x", "hangar.dev/tags": '["a:b"]', "hangar.dev/record": "{}" });
    expect(p.metadata.finalizers).toEqual(["hangar.dev/record"]);
    expect(p.spec.activeDeadlineSeconds).toBe(31 + 660);
  });
});

describe("refillCount", () => {
  const cases: [string, [number, number, number, number], number][] = [
    ["a full pool creates nothing", [4, 4, 0, 10], 0],
    ["a small gap is filled at once", [4, 1, 0, 10], 3],
    ["creates in flight count as filled", [4, 1, 2, 10], 1],
    ["an emptied big pool refills at most perTick at a time", [100, 0, 0, 10], 10],
    ["and not more while those are in flight", [100, 0, 10, 10], 0],
    ["some in flight leave room for the rest of the tick", [100, 0, 4, 10], 6],
    ["a surplus creates nothing", [4, 6, 0, 10], 0],
  ];
  for (const [name, [size, idle, creating, perTick], want] of cases) it(name, () => expect(refillCount(size, idle, creating, perTick)).toBe(want));
});
