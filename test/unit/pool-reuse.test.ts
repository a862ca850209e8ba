// Reusable pool pods (ADR 0040), the pure parts: the supervisor's pod shape, who may claim a pod that
// served, the claim and the return patches, and the pool's view of a pod given back a moment ago.
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { buildPod, CELL_CAPABILITIES, CELL_DIR, KEPT_CAPABILITIES } from "../../runtime/kubernetes/pod/spec.js";
import { claimableBy, heldByPool, returnPatch, withFresh, type FreshPod } from "../../runtime/kubernetes/pool/reuse.js";
import { createKubeState, noteReturning, waitForReturn } from "../../runtime/kubernetes/lifecycle/state.js";
import { claimPatch } from "../../runtime/kubernetes/pool/warm-pool.js";
import { spec } from "./fixtures.js";

const claimPatch_forTest = (pod: V1Pod, tenant: string) =>
  claimPatch(pod, { id: "s1", spec: spec({ image: "python:3.11" }), tenant, recordText: "{}", egress: false, deadlineSeconds: 60 }, 10_000);

const cellPod = (labels: Record<string, string>, rv = "7"): V1Pod => ({
  metadata: {
    name: "warm-p1-abc",
    resourceVersion: rv,
    labels: { "app.kubernetes.io/managed-by": "hangar", "hangar.dev/cell": "true", ...labels },
    annotations: { "hangar.dev/exec": "sh" },
  },
  status: { phase: "Running", startTime: new Date(0) },
});

describe("a reusable pool pod's shape", () => {
  const pod = buildPod("x", spec({ image: "python:3.11" }), {
    namespace: "ns",
    egress: false,
    hostUsers: false,
    cell: { agent: "/.hangar-agent/hangar-agent-0123" },
  });
  const main = pod.spec!.containers[0]!;

  it("runs the supervisor from the agent's volume, with the cell directory on an emptyDir of its own", () => {
    expect(main.command).toEqual(["/.hangar-agent/hangar-agent-0123", "supervise"]);
    expect(main.args).toEqual([]);
    expect(main.env).toContainEqual({ name: "HANGAR_CELL_DIR", value: CELL_DIR });
    expect(main.volumeMounts).toContainEqual({ name: "hangar-cell", mountPath: CELL_DIR });
    expect(pod.spec!.volumes).toContainEqual({ name: "hangar-cell", emptyDir: {} });
  });

  it("adds the supervisor's capabilities to the kept ones and nothing else; other pods keep the short list", () => {
    expect(main.securityContext?.capabilities).toEqual({ drop: ["ALL"], add: [...KEPT_CAPABILITIES, ...CELL_CAPABILITIES] });
    expect(CELL_CAPABILITIES).toEqual(["SYS_ADMIN", "SYS_CHROOT", "SETPCAP"]);
    expect(main.securityContext?.allowPrivilegeEscalation).toBe(false);
    const plain = buildPod("x", spec({ image: "python:3.11" }), { namespace: "ns", egress: false, hostUsers: false });
    expect(plain.spec!.containers[0]!.securityContext?.capabilities?.add).toEqual(KEPT_CAPABILITIES);
    expect(plain.spec!.volumes?.some((v) => v.name === "hangar-cell")).toBe(false);
  });
});

describe("who may claim a reusable pod", () => {
  it.each([
    ["a pod that never served goes to anyone", {}, "beta", true],
    ["a pod stays with the tenant it served", { "hangar.dev/pool-tenant": "alpha" }, "alpha", true],
    ["another tenant never gets it", { "hangar.dev/pool-tenant": "alpha" }, "beta", false],
  ])("%s", (_, labels, tenant, ok) => {
    expect(claimableBy(cellPod(labels), tenant)).toBe(ok);
  });

  it("a tenant that is no label value is compared by its hash", () => {
    const claimed = claimPatch_forTest(cellPod({ "hangar.dev/warm-pool": "p1" }), "team a/b") as {
      metadata: { labels: Record<string, string> };
    };
    const served = cellPod({ "hangar.dev/pool-tenant": claimed.metadata.labels["hangar.dev/pool-tenant"]! });
    expect(claimableBy(served, "team a/b")).toBe(true);
    expect(claimableBy(served, "team a/c")).toBe(false);
  });
});

describe("claiming and giving back a reusable pod", () => {
  it("a claim records the tenant and the pool, and sets no deadline (the pod outlives the sandbox)", () => {
    const p = claimPatch_forTest(cellPod({ "hangar.dev/warm-pool": "p1" }), "alpha") as {
      metadata: { labels: Record<string, string | null> };
      spec?: unknown;
    };
    expect(p.metadata.labels).toMatchObject({
      "hangar.dev/pool-tenant": "alpha",
      "hangar.dev/cell-pool": "p1",
      "hangar.dev/warm-pool": null,
    });
    expect(p.spec).toBeUndefined();
    const plain = claimPatch_forTest(
      { ...cellPod({}), metadata: { ...cellPod({}).metadata, labels: { "hangar.dev/warm-pool": "p1" } } },
      "alpha",
    ) as {
      metadata: { labels: Record<string, string | null> };
      spec?: { activeDeadlineSeconds: number };
    };
    expect(plain.spec?.activeDeadlineSeconds).toBeGreaterThan(0);
    expect(plain.metadata.labels["hangar.dev/pool-tenant"]).toBeUndefined();
  });

  it("the return applies only while the pod hosts this sandbox, and leaves nothing of it", () => {
    expect(returnPatch("s1", "p1", "team a/b", "sh")).toEqual([
      { op: "test", path: "/metadata/labels/hangar.dev~1sandbox-id", value: "s1" },
      {
        op: "replace",
        path: "/metadata/labels",
        value: {
          "app.kubernetes.io/managed-by": "hangar",
          "hangar.dev/cell": "true",
          "hangar.dev/cell-pool": "p1",
          "hangar.dev/warm-pool": "p1",
          "hangar.dev/pool-tenant": expect.stringMatching(/^h-[0-9a-f]{40}$/),
          "hangar.dev/egress": "deny",
        },
      },
      { op: "replace", path: "/metadata/annotations", value: { "hangar.dev/exec": "sh" } },
      { op: "replace", path: "/metadata/finalizers", value: [] },
    ]);
  });
});

describe("the pool's view of a pod given back a moment ago", () => {
  it("takes the patch's answer while the watch holds the version before it, then the watch's own", () => {
    const stale = cellPod({ "hangar.dev/sandbox-id": "s1" }, "7");
    const back = cellPod({ "hangar.dev/warm-pool": "p1" }, "8");
    const fresh = new Map<string, FreshPod>([["warm-p1-abc", { pod: back, baseVersion: "7" }]]);
    expect(withFresh([stale], fresh)).toEqual([back]);
    const caughtUp = cellPod({ "hangar.dev/warm-pool": "p1" }, "9");
    expect(withFresh([caughtUp], fresh)).toEqual([caughtUp]);
    expect(fresh.size).toBe(0);
    expect(withFresh([stale], fresh)).toEqual([stale]);
  });
});

describe("a pool's reusable pods hosting a sandbox", () => {
  it("count as the pool's own while they host one (not deleted, not ended)", () => {
    const held = (labels: Record<string, string>, extra: Partial<V1Pod["metadata"]> = {}, phase = "Running"): V1Pod => ({
      metadata: { ...cellPod(labels).metadata, ...extra },
      status: { phase },
    });
    const pods = [
      held({ "hangar.dev/cell-pool": "p1", "hangar.dev/sandbox-id": "a" }),
      held({ "hangar.dev/cell-pool": "p1", "hangar.dev/sandbox-id": "b" }, { deletionTimestamp: new Date(0) }),
      held({ "hangar.dev/cell-pool": "p1", "hangar.dev/sandbox-id": "c" }, {}, "Failed"),
      held({ "hangar.dev/cell-pool": "p2", "hangar.dev/sandbox-id": "d" }),
      held({ "hangar.dev/cell-pool": "p1", "hangar.dev/warm-pool": "p1" }),
    ];
    expect(heldByPool(pods, "p1")).toBe(1);
    expect(heldByPool(pods, "p2")).toBe(1);
  });
});

describe("a claim waiting for a pod on its way back", () => {
  it("does not wait when none is coming, and wakes when one arrives", async () => {
    const s = createKubeState();
    expect(await waitForReturn(s, 0)).toBe(false);
    noteReturning(s, "warm-1", true, 0);
    const waiting = waitForReturn(s, 100);
    noteReturning(s, "warm-1", false, 200);
    expect(await waiting).toBe(true);
    expect(s.returning.waiters.size).toBe(0);
    // A return that never ended stops counting after a while.
    noteReturning(s, "warm-2", true, 0);
    expect(await waitForReturn(s, 60_000)).toBe(false);
  });
});
