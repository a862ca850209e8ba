/**
 * A warm-pod claim whose answer was lost (ADR 0046): the pod read back decides, so one sandbox
 * never gets a second pod while the first carries its claim.
 */
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { createWarmPools, poolName } from "../../runtime/kubernetes/pool/warm-pool.js";
import { claimLanded, heldFor, idOfPatch, isUnanswered, mayHaveApplied } from "../../runtime/kubernetes/pool/lost-claim.js";
import { SANDBOX_ID } from "../../runtime/kubernetes/pod/labels.js";

const cut = () => Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
const status = (code: number) => Object.assign(new Error(`HTTP ${code}`), { code });

describe("mayHaveApplied", () => {
  const cases: [string, unknown, boolean][] = [
    ["a cut stream (no answer)", cut(), true],
    ["a refused connection (no answer)", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }), true],
    ["a 504 (the apiserver may finish after)", status(504), true],
    ["a 500", status(500), true],
    ["a 409 (another claim won)", status(409), false],
    ["a 404 (pod gone)", status(404), false],
    ["a 422 (refused)", status(422), false],
    ["a 429 (throttled, not applied)", status(429), false],
  ];
  for (const [name, e, want] of cases) it(`${name}: ${want}`, () => expect(mayHaveApplied(e)).toBe(want));
});

describe("idOfPatch and heldFor", () => {
  it("reads the sandbox id a claim patch gives, and whether a pod carries it", () => {
    expect(idOfPatch({ metadata: { labels: { [SANDBOX_ID]: "sb-1", other: "x" } } })).toBe("sb-1");
    expect(idOfPatch({ metadata: { annotations: {} } })).toBeUndefined();
    expect(heldFor({ metadata: { labels: { [SANDBOX_ID]: "sb-1" } } }, "sb-1")).toBe(true);
    expect(heldFor({ metadata: { labels: { [SANDBOX_ID]: "sb-2" } } }, "sb-1")).toBe(false);
    expect(heldFor({ metadata: { labels: {} } }, "sb-1")).toBe(false);
    expect(heldFor(undefined, "sb-1")).toBe(false);
  });
});

describe("claimLanded", () => {
  it("waits out reads that get no answer, then answers from the pod", async () => {
    let reads = 0;
    const read = async () => {
      if (++reads < 3) throw cut();
      return { metadata: { labels: { [SANDBOX_ID]: "sb-1" } } } as V1Pod;
    };
    expect(await claimLanded(read, "w0", "sb-1", 5_000)).toBe(true);
    expect(reads).toBe(3);
  });
  it("a pod gone: not held", async () => {
    expect(await claimLanded(async () => Promise.reject(status(404)), "w0", "sb-1", 5_000)).toBe(false);
  });
  it("no answer within the bound: UNAVAILABLE, marked as unanswered, naming the pod", async () => {
    const e = await claimLanded(async () => Promise.reject(cut()), "w0", "sb-1", 1_000).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: "UNAVAILABLE", message: expect.stringMatching(/warm pod w0.*Premature close/) });
    expect(isUnanswered(e)).toBe(true);
    expect(isUnanswered(cut())).toBe(false);
  });
});

describe("a claim patch whose answer is lost", () => {
  const pool = { image: "python:3.11", size: 2 };
  const ready = (n: string): V1Pod => ({
    metadata: {
      name: n,
      labels: { "hangar.dev/warm-pool": poolName(pool.image) },
      annotations: { "hangar.dev/exec": "sh" },
      resourceVersion: "1",
    },
    status: { phase: "Running", containerStatuses: [{ name: "main", state: { running: {} } } as never] },
  });
  /** A pool of two pods whose apiserver applies (or not) each patch and then cuts the answer; reads answer after `readFails` cuts. */
  function setup(applies: boolean, readFails = 1) {
    const pods = new Map([ready("w0"), ready("w1")].map((p) => [p.metadata!.name!, p]));
    const patched: string[] = [];
    const warned: object[] = [];
    let reads = 0;
    const core = {
      patchNamespacedPod: async (a: { name: string; body: { metadata: { labels: Record<string, string> } } }) => {
        patched.push(a.name);
        const p = pods.get(a.name)!;
        if (applies) p.metadata!.labels = { ...a.body.metadata.labels };
        throw cut();
      },
      readNamespacedPod: async (a: { name: string }) => {
        if (++reads <= readFails) throw cut();
        return pods.get(a.name)!;
      },
    };
    const w = createWarmPools({
      core: core as never,
      namespace: "ns",
      pools: [pool],
      pods: () => [...pods.values()].filter((p) => p.metadata?.labels?.["hangar.dev/warm-pool"]),
      idlePod: () => ({}),
      probe: async () => "sh",
      log: { warn: (o: object) => void warned.push(o) },
      now: () => 0,
    });
    w.close();
    const patch = () => ({ metadata: { labels: { [SANDBOX_ID]: "sb-1" } } });
    return { w, patched, patch, warned };
  }

  it("applied: the claim is a hit on that pod, no other pod is tried", async () => {
    const s = setup(true);
    const got = await s.w.claim(pool, "t1", s.patch);
    expect(got).toBe(s.patched[0]);
    expect(s.patched).toHaveLength(1);
    expect(s.w.stats()[0]).toMatchObject({ hits: 1, misses: 0 });
    expect(s.warned[0]).toMatchObject({ pod: got, sandbox_id: "sb-1", held: true });
  });

  it("not applied: the read-back shows the pod idle, and the next candidate is tried", async () => {
    const s = setup(false);
    expect(await s.w.claim(pool, "t1", s.patch)).toBeUndefined();
    expect(new Set(s.patched)).toEqual(new Set(["w0", "w1"]));
    expect(s.w.stats()[0]).toMatchObject({ hits: 0, misses: 1 });
  });
});
