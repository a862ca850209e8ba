/** The pod reconciler (runtime/kubernetes/lifecycle/reconciler.ts) on a fake clock: no cluster, no timers, the pods handed in. */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createReconciler } from "../../runtime/kubernetes/lifecycle/reconciler.js";
import { createKubeState, type Tracked } from "../../runtime/kubernetes/lifecycle/state.js";
import { ADOPTED_EXIT_GRACE_MS, TAKEOVER_AFTER_MS } from "../../runtime/kubernetes/pod/step.js";
import { RECORD_ANNOTATION, RECORD_FINALIZER, SANDBOX_ID } from "../../runtime/kubernetes/pod/keys.js";
import { encodeRecord } from "../../runtime/record-codec.js";
import type { RuntimeEvent } from "../../runtime/types.js";
import { record } from "./fixtures.js";

const ID = "00000000-0000-4000-8000-000000000001";
const T0 = Date.parse("2026-11-28T00:00:00Z");

const pod = (main: "running" | "exited", recordText: string): V1Pod => ({
  metadata: {
    name: `sbx-${ID}`,
    labels: { [SANDBOX_ID]: ID },
    annotations: { [RECORD_ANNOTATION]: recordText },
    finalizers: [RECORD_FINALIZER],
    creationTimestamp: new Date(T0) as never,
  },
  spec: { nodeName: "n1", containers: [{ name: "main" }] },
  status: {
    phase: main === "running" ? "Running" : "Failed",
    containerStatuses: [
      {
        name: "main",
        image: "i",
        imageID: "x",
        ready: main === "running",
        restartCount: 0,
        state: main === "running" ? { running: {} } : { terminated: { exitCode: 3, reason: "Error" } },
      },
    ],
  },
});

function harness() {
  let now = T0;
  const state = createKubeState();
  state.open = true;
  const events: RuntimeEvent[] = [];
  state.listeners.add((e) => events.push(e));
  const deleted: string[] = [];
  const probed: string[] = [];
  const r = createReconciler({
    state,
    namespace: "ns",
    startupTimeoutMs: 60_000,
    now: () => now,
    log: { warn: () => undefined },
    deletePod: async (name) => void deleted.push(name),
    stop: async () => undefined,
    hasImage: () => true,
    probe: async (name) => (probed.push(name), true),
    placeFiles: async (t: Tracked) => {
      t.started = true;
      return { imageNote: "placed", startedAtMs: now };
    },
  });
  return { r, state, events, deleted, probed, advance: (ms: number) => (now += ms) };
}

describe("the pod reconciler on a fake clock", () => {
  it("adopts a pod with a record and reports it", () => {
    const h = harness();
    h.r.onPod(pod("running", encodeRecord(record({ id: ID, state: "RUNNING" }))), false);
    expect(h.state.tracked.get(ID)).toMatchObject({ own: false, pod: `sbx-${ID}`, recordState: "RUNNING" });
    expect(h.events).toEqual([{ t: "record", record: expect.objectContaining({ id: ID, state: "RUNNING" }) }]);
  });

  it("an adopted start whose pod exited is reported only after the grace, on the clock's time", () => {
    const h = harness();
    const p = pod("exited", encodeRecord(record({ id: ID, state: "CREATING" })));
    h.r.onPod(p, false);
    h.advance(ADOPTED_EXIT_GRACE_MS - 1);
    h.r.tick();
    expect(h.events.filter((e) => e.t === "exit")).toEqual([]);
    h.advance(1);
    h.r.tick();
    expect(h.events.filter((e) => e.t === "exit")).toEqual([
      { t: "exit", id: ID, exit: { exitCode: 3, reason: "Error", endedAtMs: T0 + ADOPTED_EXIT_GRACE_MS } },
    ]);
  });

  it("an adopted start left CREATING with its pod running is taken over after TAKEOVER_AFTER_MS", async () => {
    const h = harness();
    h.r.onPod(pod("running", encodeRecord(record({ id: ID, state: "CREATING" }))), false);
    h.advance(TAKEOVER_AFTER_MS - 1);
    h.r.tick();
    expect(h.probed).toEqual([]);
    h.advance(1);
    h.r.tick();
    await new Promise((r) => setImmediate(r));
    expect(h.probed).toEqual([`sbx-${ID}`]);
    expect(h.events.filter((e) => e.t === "started")).toEqual([
      { t: "started", id: ID, started: { imageNote: "placed", startedAtMs: T0 + TAKEOVER_AFTER_MS } },
    ]);
  });

  it("a record released (no finalizer) is not brought back", () => {
    const h = harness();
    const p = pod("running", encodeRecord(record({ id: ID })));
    p.metadata!.finalizers = [];
    h.r.onPod(p, false);
    expect(h.state.tracked.size).toBe(0);
    expect(h.events).toEqual([]);
  });
});
