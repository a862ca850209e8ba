/** Pull progress on Kubernetes (ADR 0038): what a node reporter's answer means for a PREPARING sandbox. */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createReconciler } from "../../runtime/kubernetes/lifecycle/reconciler.js";
import { createKubeState } from "../../runtime/kubernetes/lifecycle/state.js";
import { attribute, createPullWatch, readPulls, type NodePull } from "../../runtime/kubernetes/nodes/pull-watch.js";
import { SANDBOX_ID } from "../../runtime/kubernetes/pod/keys.js";
import type { RuntimeEvent } from "../../runtime/types.js";
import { record } from "./fixtures.js";

const pull = (bytesDone: number, layersDone = 1): NodePull => ({
  manifest: "sha256:m",
  layersDone,
  layersTotal: 3,
  bytesDone,
  bytesTotal: 9_000_000,
});

describe("attributing a node's pulls to a sandbox", () => {
  it("gives a lone pull to the image, sums several saying so, and says nothing without one", () => {
    expect(attribute("py:1", [pull(3_000_000)])).toEqual({
      image: "py:1",
      phase: "pulling",
      bytesDone: 3_000_000,
      bytesTotal: 9_000_000,
      layersDone: 1,
      layersTotal: 3,
    });
    const two = attribute("py:1", [pull(1), { ...pull(2), manifest: "sha256:n" }]);
    expect(two).toMatchObject({ bytesDone: 3, bytesTotal: 18_000_000, layersDone: 2, layersTotal: 6 });
    expect(two?.image).toContain("the node pulls 2 images");
    expect(attribute("py:1", [])).toBeUndefined();
  });

  it.each([
    [{ pulls: [pull(5)] }, [pull(5)]],
    [{ pulls: [] }, []],
    [{ pulls: [{ ...pull(5), bytesDone: -1 }] }, undefined],
    [{ pulls: [{ manifest: 3 }] }, undefined],
    [{ nope: 1 }, undefined],
    [null, undefined],
  ])("reads %j as %j", (body, want) => {
    expect(readPulls(body)).toEqual(want);
  });
});

describe("the pull watch", () => {
  it("asks the node in the background, serves the answer from its cache, asks again when stale, and forgets failures", async () => {
    let now = 0;
    const asked: string[] = [];
    let answer: unknown = { pulls: [pull(4_000_000)] };
    const w = createPullWatch({
      port: 9470,
      addressOf: (n) => (n === "n1" ? "10.0.0.1" : undefined),
      now: () => now,
      fetch: (async (url: string) => {
        asked.push(url);
        if (answer instanceof Error) throw answer;
        return { ok: true, json: async () => answer };
      }) as unknown as typeof fetch,
    });
    expect(w.progress("n1", "py:1")).toBeUndefined(); // first look: asked, nothing known yet
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual(["http://10.0.0.1:9470/pulls"]);
    expect(w.progress("n1", "py:1")).toMatchObject({ bytesDone: 4_000_000 });
    expect(asked).toHaveLength(1); // fresh: from the cache
    now += 1000;
    answer = new Error("connection refused");
    expect(w.progress("n1", "py:1")).toMatchObject({ bytesDone: 4_000_000 });
    await new Promise((r) => setImmediate(r));
    expect(asked).toHaveLength(2);
    expect(w.progress("n1", "py:1")).toBeUndefined(); // the reporter went away: no numbers
    expect(w.progress("unknown-node", "py:1")).toBeUndefined();
    expect(asked).toHaveLength(2); // a node without an address is not asked
  });
});

describe("the reconciler with pull progress", () => {
  it("shows a sandbox whose node pulls its image as PREPARING with the bytes and layers so far", () => {
    const ID = "00000000-0000-4000-8000-000000000002";
    const state = createKubeState();
    state.open = true;
    const events: RuntimeEvent[] = [];
    state.listeners.add((e) => events.push(e));
    let progress = { image: "py:1", phase: "pulling" as const, bytesDone: 1_500_000, bytesTotal: 9_000_000, layersDone: 0, layersTotal: 3 };
    const r = createReconciler({
      state,
      namespace: "ns",
      startupTimeoutMs: 60_000,
      now: () => 0,
      log: { warn: () => undefined },
      deletePod: async () => undefined,
      stop: async () => undefined,
      hasImage: () => false,
      pullProgress: (node, image) => (node === "n1" && image === "py:1" ? progress : undefined),
      probe: async () => true,
      placeFiles: async () => ({ imageNote: "", startedAtMs: 0 }),
    });
    const spec = record({ id: ID }).spec;
    state.tracked.set(ID, {
      id: ID,
      pod: `sbx-${ID}`,
      runnerId: "r",
      spec: { ...spec, image: "py:1" },
      own: true,
      shell: true,
      exited: false,
      started: false,
      settle: () => undefined,
    });
    const p: V1Pod = {
      metadata: { name: `sbx-${ID}`, labels: { [SANDBOX_ID]: ID }, creationTimestamp: new Date(0) as never },
      spec: { nodeName: "n1", containers: [{ name: "main" }] },
      status: {
        phase: "Pending",
        containerStatuses: [
          { name: "main", image: "py:1", imageID: "", ready: false, restartCount: 0, state: { waiting: { reason: "ContainerCreating" } } },
        ],
      },
    };
    r.onPod(p, false);
    progress = { ...progress, bytesDone: 6_000_000, layersDone: 2 };
    r.tick();
    const shown = events.filter((e) => e.t === "progress");
    expect(shown).toEqual([
      {
        t: "progress",
        id: ID,
        preparing: true,
        reason: "pulling image py:1: 1.5 MB of 9.0 MB, 0 of 3 layers (node n1)",
        pull: expect.objectContaining({ bytesDone: 1_500_000 }),
      },
      {
        t: "progress",
        id: ID,
        preparing: true,
        reason: "pulling image py:1: 6.0 MB of 9.0 MB, 2 of 3 layers (node n1)",
        pull: expect.objectContaining({ layersDone: 2 }),
      },
    ]);
  });
});
