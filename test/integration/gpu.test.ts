/**
 * What Hangar reads from the cluster's nodes: GPU sandboxes and runtime classes, on the real cluster. The node gets a fake extended resource (nvidia.com/gpu: 2,
 * patched into its status as an operator would advertise one) and the labels NVIDIA's GPU
 * feature discovery puts on GPU nodes; a second runner has no nodes with GPUs. The runtime reads
 * nodes, which needs a node-reading identity (the chart's rbac.readNodes), so it runs as admin.
 */
import * as k8s from "@kubernetes/client-node";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "../../controller/controller.js";
import type { SandboxSpec } from "../../core/types.js";
import { createKubernetesRuntime } from "../../runtime/kubernetes/kube-runtime.js";
import { MANAGED_BY } from "../../runtime/kubernetes/pod/labels.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const admin = kubeConfig();
const core = admin.makeApiClient(k8s.CoreV1Api);
const nodeApi = admin.makeApiClient(k8s.NodeV1Api);
// containerd's own default handler: a RuntimeClass every node of the test cluster can run.
const RC = "hangar-itest-runc";
const silent = { info() {}, warn() {}, error() {} };
const MODEL = "NVIDIA-H100-80GB-HBM3";
const LABELS = { "nvidia.com/gpu.product": MODEL, "nvidia.com/gpu.memory": "81559" };
let nodeName = "";

const esc = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");
async function patchNode(add: boolean) {
  const status = ["capacity", "allocatable"].map((part) =>
    add
      ? { op: "add", path: `/status/${part}/${esc("nvidia.com/gpu")}`, value: "2" }
      : { op: "remove", path: `/status/${part}/${esc("nvidia.com/gpu")}` },
  );
  await core
    .patchNodeStatus({ name: nodeName, body: status }, k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.JsonPatch))
    .catch((e) => {
      if (add) throw e;
    });
  const labels = Object.entries(LABELS).map(([k, v]) =>
    add ? { op: "add", path: `/metadata/labels/${esc(k)}`, value: v } : { op: "remove", path: `/metadata/labels/${esc(k)}` },
  );
  await core.patchNode({ name: nodeName, body: labels }, k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.JsonPatch)).catch((e) => {
    if (add) throw e;
  });
}

const runtime = () =>
  createKubernetesRuntime({
    kubeConfig: admin,
    namespace: NAMESPACE,
    startupTimeoutMs: 60_000,
    deadlineMarginSeconds: 60,
    fallbackCapacity: { cpuMillicores: 1000, memoryBytes: 2 ** 30 },
    organizationId: "o",
    log: silent,
    nodeRefreshMs: 500,
    runners: [
      { runnerId: "cpu", runnerGroupId: "g", nodeSelector: { "hangar.dev/pool": "cpu-only" } },
      { runnerId: "gpu", runnerGroupId: "g", nodeSelector: { "kubernetes.io/hostname": hostname() } },
    ],
  });
let rt: ReturnType<typeof runtime>;
let controller: ReturnType<typeof createController>;
const spec = (gpu: { count: number; type?: string; memoryGb?: number }, runnerIds: string[] = [], runtimeClass?: string): SandboxSpec => ({
  ...(runtimeClass ? { runtimeClass } : {}),
  image: PYTHON_IMAGE,
  argv: ["/bin/sh", "-c", 'trap "exit 0" TERM; sleep infinity & wait'],
  env: {},
  files: [],
  tags: ["itest-gpu"],
  maxLifetimeSeconds: 0,
  runnerIds,
  annotations: {},
  volumes: [],
  requests: {},
  limits: { gpuCount: gpu.count, gpuType: gpu.type, gpuMemoryGb: gpu.memoryGb },
});
const state = (id: string) => controller.get("t", id);

beforeAll(async () => {
  nodeName = (await core.listNode()).items[0]?.metadata?.name ?? "";
  await patchNode(true);
  await nodeApi.deleteRuntimeClass({ name: RC }).catch(() => undefined);
  await nodeApi.createRuntimeClass({
    body: { apiVersion: "node.k8s.io/v1", kind: "RuntimeClass", metadata: { name: RC }, handler: "runc" },
  });
  rt = runtime();
  controller = createController({
    runtime: rt,
    policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 10_000 },
    defaultLifetimeSeconds: 600,
    maxLifetimeSeconds: 3600,
    maxSandboxes: 20,
    maxExecsPerSandbox: 4,
    maxExecs: 20,
    maxFileBytes: 1 << 20,
    reapIntervalMs: 500,
    log: silent,
  });
  await rt.ready();
  await controller.start();
  await waitFor("the node's GPUs seen", 20_000, async () =>
    rt.runners().find((r) => r.runnerId === "gpu")?.gpus?.perNodeMax === 2 ? true : undefined,
  );
});
afterAll(async () => {
  await controller?.close();
  await patchNode(false);
  await nodeApi.deleteRuntimeClass({ name: RC }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
  const left = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${MANAGED_BY}=hangar` });
  expect(left.items.map((p) => p.metadata?.name)).toEqual([]);
});

describe("GPU sandboxes", () => {
  it("discovery reports each runner's GPUs from its nodes", () => {
    const byId = Object.fromEntries(rt.runners().map((r) => [r.runnerId, r.gpus]));
    expect(byId.gpu).toEqual({ perNodeMax: 2, total: 2, available: 2, types: [MODEL], maxMemoryGb: 85 });
    expect(byId.cpu).toBeUndefined();
  });

  it("a GPU sandbox of a model runs on a node of that model, with the GPU as its resource", async () => {
    const r = await controller.create("t", { spec: spec({ count: 1, type: "H100", memoryGb: 80 }), echo: {}, requestId: "" });
    expect(r.runnerId).toBe("gpu");
    await waitFor(`sandbox ${r.id} RUNNING`, 60_000, async () => (state(r.id).state === "RUNNING" ? true : undefined));
    const pod = await core.readNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE });
    expect(pod.spec?.containers[0]?.resources?.limits?.["nvidia.com/gpu"]).toBe("1");
    expect(pod.spec?.nodeName).toBe(nodeName);
    expect(JSON.stringify(pod.spec?.affinity)).toContain(MODEL);
    expect(rt.runners().find((x) => x.runnerId === "gpu")?.gpus?.available).toBe(1);
    controller.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await waitFor(`sandbox ${r.id} ended`, 30_000, async () => (["COMPLETED", "FAILED"].includes(state(r.id).state) ? true : undefined));
  });

  it("a request no node can satisfy is refused at once, saying what exists", async () => {
    for (const [ask, runners, msg] of [
      [{ count: 4 }, [], /4 GPUs; cpu: no GPUs; gpu: up to 2 per node \(NVIDIA-H100-80GB-HBM3, up to 85 GB each\)/],
      [{ count: 1, type: "A100" }, [], /1 GPU of type A100/],
      [{ count: 1, memoryGb: 141 }, [], /at least 141 GB each/],
      [{ count: 1 }, ["cpu"], /1 GPU; cpu: no GPUs$/],
    ] as const) {
      await expect(controller.create("t", { spec: spec(ask, [...runners]), echo: {}, requestId: "" })).rejects.toMatchObject({
        reason: "CWSANDBOX_NO_SUITABLE_RUNNER",
        message: expect.stringMatching(msg),
      });
    }
  });

  it("one that waits for GPUs in use shows the scheduler's reason, and runs once they are free", async () => {
    const first = await controller.create("t", { spec: spec({ count: 2 }), echo: {}, requestId: "" });
    await waitFor("first RUNNING", 60_000, async () => (state(first.id).state === "RUNNING" ? true : undefined));
    const second = await controller.create("t", { spec: spec({ count: 2, type: "H100" }), echo: {}, requestId: "" });
    const waiting = await waitFor("the scheduler's reason", 30_000, async () =>
      /Insufficient nvidia\.com\/gpu/.test(state(second.id).stateReason) ? state(second.id) : undefined,
    );
    expect(waiting.state).toBe("CREATING");
    controller.remove("t", first.id, { graceMs: 0, allowMissing: false });
    await waitFor("second RUNNING", 60_000, async () => (state(second.id).state === "RUNNING" ? true : undefined));
    controller.remove("t", second.id, { graceMs: 0, allowMissing: false });
    await waitFor("both ended", 30_000, async () =>
      [first.id, second.id].every((id) => ["COMPLETED", "FAILED"].includes(state(id).state)) ? true : undefined,
    );
  });
});

describe("runtime classes", () => {
  it("a sandbox asking for one of the cluster's RuntimeClasses runs under it, and Get says so", async () => {
    await waitFor("the RuntimeClass seen", 20_000, async () =>
      rt
        .runners()
        .find((r) => r.runnerId === "gpu")
        ?.runtimeClasses.includes(RC)
        ? true
        : undefined,
    );
    expect(rt.runners().find((r) => r.runnerId === "cpu")?.runtimeClasses).toEqual([]); // no nodes: nothing to run on
    const r = await controller.create("t", { spec: spec({ count: 0 }, ["gpu"], RC), echo: {}, requestId: "" });
    expect(r.effectiveRuntimeClass).toBe(RC);
    await waitFor(`sandbox ${r.id} RUNNING`, 60_000, async () => (state(r.id).state === "RUNNING" ? true : undefined));
    expect((await core.readNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE })).spec?.runtimeClassName).toBe(RC);
    const plain = await controller.create("t", { spec: spec({ count: 0 }, ["gpu"]), echo: {}, requestId: "" });
    expect(plain.effectiveRuntimeClass).toBe("<node-default>");
    for (const id of [r.id, plain.id]) controller.remove("t", id, { graceMs: 0, allowMissing: false });
    await waitFor("both ended", 30_000, async () =>
      [r.id, plain.id].every((id) => ["COMPLETED", "FAILED"].includes(state(id).state)) ? true : undefined,
    );
  });

  it("one the cluster does not have is refused by field, naming what is offered", async () => {
    await expect(controller.create("t", { spec: spec({ count: 0 }, [], "kata"), echo: {}, requestId: "" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringMatching(
        new RegExp(`runtime class "kata" is not offered by cpu \\(it offers none\\), gpu \\(it offers [^)]*${RC}`),
      ),
    });
  });
});
