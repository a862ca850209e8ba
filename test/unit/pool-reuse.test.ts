// Reusable pool pods (ADR 0040), the pure parts: the supervisor's pod shape, who may claim a pod that
// served, the claim and the return patches, and the pool's view of a pod given back a moment ago.
import type { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { buildPod, CELL_CAPABILITIES, CELL_DIR, KEPT_CAPABILITIES } from "../../runtime/kubernetes/pod/spec.js";
import { claimableBy, returnPatch, withFresh, type FreshPod } from "../../runtime/kubernetes/pool/reuse.js";
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

  it("the return removes every label and annotation of the sandbox, keeps the pod's own, and releases the record", () => {
    const pod = cellPod({
      "hangar.dev/sandbox-id": "s1",
      "hangar.dev/tenant": "alpha",
      "t.hangar.dev/abc": "1",
      "tag.hangar.dev/run": "7",
      "hangar.dev/claimed": "true",
      "hangar.dev/egress": "deny",
      "hangar.dev/pool-tenant": "alpha",
      "hangar.dev/cell-pool": "p1",
    });
    pod.metadata!.annotations = { "hangar.dev/exec": "sh", "hangar.dev/record": "{}", "hangar.dev/tags": "[]", "user.example/note": "x" };
    pod.metadata!.finalizers = ["hangar.dev/record"];
    expect(returnPatch(pod, "p1")).toEqual({
      metadata: {
        resourceVersion: "7",
        labels: {
          "hangar.dev/sandbox-id": null,
          "hangar.dev/tenant": null,
          "t.hangar.dev/abc": null,
          "tag.hangar.dev/run": null,
          "hangar.dev/claimed": null,
          "hangar.dev/egress": "deny",
          "hangar.dev/warm-pool": "p1",
        },
        annotations: { "hangar.dev/record": null, "hangar.dev/tags": null, "user.example/note": null },
        finalizers: null,
      },
    });
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
