/**
 * The Kubernetes runtime under the controller, on the real cluster, as the least-privilege
 * ServiceAccount: failures the SDK suite cannot provoke (missing image, a pod killed mid-exec
 * or deleted behind Hangar's back, an image without a shell), labels, and no leaked pods.
 */
import * as k8s from "@kubernetes/client-node";
import { execFileSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController, idForRequest } from "../../controller/controller.js";
import type { SandboxSpec } from "../../core/types.js";
import type { RuntimeEvent } from "../../runtime/types.js";
import { createKubernetesRuntime } from "../../runtime/kubernetes/kube-runtime.js";
import { MANAGED_BY, tagSelector } from "../../runtime/kubernetes/pod/labels.js";
import { record } from "../unit/fixtures.js";
import { hangarReplica } from "./replica.js";
import { apiserverProxy, kubeConfig, kubeConfigVia, NAMESPACE, NOSHELL_IMAGE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const admin = kubeConfig();
const core = admin.makeApiClient(k8s.CoreV1Api);
const SA_FILE = (process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig");
const sa = new k8s.KubeConfig();
sa.loadFromFile(SA_FILE);
const silent = { info() {}, warn() {}, error() {} };
const runtime = createKubernetesRuntime({
  kubeConfig: sa,
  namespace: NAMESPACE,
  startupTimeoutMs: 20_000,
  deadlineMarginSeconds: 60,
  fallbackCapacity: { cpuMillicores: 1000, memoryBytes: 2 ** 30 },
  organizationId: "o",
  log: silent,
  runners: [
    { runnerId: "any", runnerGroupId: "g", nodeSelector: {} },
    { runnerId: "this-node", runnerGroupId: "g", nodeSelector: { "kubernetes.io/hostname": hostname() } },
    { runnerId: "nowhere", runnerGroupId: "g", nodeSelector: { "hangar.dev/pool": "none" } },
  ],
});
const controller = createController({
  runtime,
  policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 10_000 },
  defaultLifetimeSeconds: 600,
  maxLifetimeSeconds: 3600,
  maxSandboxes: 50,
  maxExecsPerSandbox: 10,
  maxExecs: 100,
  maxFileBytes: 1 << 20,
  reapIntervalMs: 500,
  log: silent,
});
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: PYTHON_IMAGE,
  argv: ["/bin/sh", "-c", 'trap "exit 0" TERM; sleep infinity & wait'],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["itest"],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
  ...over,
});
const state = (id: string) => controller.get("t", id);
/** Waits for one of these states; a timeout says where the sandbox is instead (a flake then names its cause). */
const until = (id: string, want: string[]) =>
  waitFor(`sandbox ${id} in ${want}`, 60_000, async () => (want.includes(state(id).state) ? state(id) : undefined)).catch((e: Error) => {
    const s = state(id);
    throw new Error(
      `${e.message}; it is ${s.state}${s.stateReason ? `: ${s.stateReason}` : ""}${s.exitCode !== undefined ? ` (exit ${s.exitCode})` : ""}`,
    );
  });

beforeAll(async () => {
  await runtime.ready();
  await controller.start();
});
afterAll(async () => {
  await controller.close();
  // Finished sandboxes stay as records (terminated pods) until retention ends; none may still run.
  expect(await releaseRecords(core)).toEqual([]);
  const left = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${MANAGED_BY}=hangar` });
  expect(left.items.map((p) => p.metadata?.name)).toEqual([]);
});

/** Another Hangar process on the same namespace: a second replica, or this one after a restart. */
async function replica(over: { kubeConfig?: k8s.KubeConfig; retentionMs?: number } = {}) {
  const r = hangarReplica({ kubeConfig: over.kubeConfig ?? sa, retentionMs: over.retentionMs });
  await r.start();
  return r;
}

const podGone = (id: string) =>
  waitFor(`pod of ${id} gone`, 30_000, async () =>
    core.readNamespacedPod({ name: `sbx-${id}`, namespace: NAMESPACE }).then(
      () => undefined,
      (e: { code?: number }) => (e.code === 404 ? true : undefined),
    ),
  );

describe("durable records on the real cluster", () => {
  it("survive a Hangar restart: running sandboxes keep working, finished ones keep their record", async () => {
    const a = await replica();
    const live = await a.c.create("t", { spec: spec({ tags: ["itest", "restart"] }), echo: { image: "kept" }, requestId: "restart-live" });
    const done = await a.c.create("t", { spec: spec({ argv: ["/bin/sh", "-c", "exit 3"] }), echo: {}, requestId: "" });
    await a.until(live.id, ["RUNNING"]);
    await a.until(done.id, ["COMPLETED"]);
    await a.c.close(); // Hangar stops; its sandboxes do not

    const b = await replica();
    expect(b.c.get("t", live.id)).toMatchObject({
      state: "RUNNING",
      createdAtMs: live.createdAtMs,
      echo: { image: "kept" },
      spec: { tags: ["itest", "restart"] },
    });
    // Every replica watching the namespace (this file's own runtime too) reports the exit it saw;
    // the stored record is the last one written, so its end time may differ by a few ms.
    expect(b.c.get("t", done.id)).toMatchObject({ state: "COMPLETED", exitCode: 3 });
    expect(Math.abs((b.c.get("t", done.id).endedAtMs ?? 0) - (done.endedAtMs ?? 0))).toBeLessThan(2000);
    expect((await b.c.create("t", { spec: spec(), echo: {}, requestId: "restart-live" })).id).toBe(live.id);
    expect(await b.run(live.id, ["/bin/sh", "-c", 'echo "$X"'], { X: "after restart" })).toEqual({ out: "after restart\n", exitCode: 0 });
    b.c.remove("t", live.id, { graceMs: 1000, allowMissing: false });
    expect(await b.until(live.id, ["COMPLETED"])).toMatchObject({ exitCode: 0, stateReason: expect.stringMatching(/delete/) });
    await b.c.close();
  }, 90_000);

  it("two replicas serve the same sandboxes: a delete on one ends the sandbox on both", async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const r = await a.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    await a.until(r.id, ["RUNNING"]);
    await b.until(r.id, ["RUNNING"], 10_000);
    expect((await b.run(r.id, ["echo", "via b"])).out).toBe("via b\n");
    b.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    const onA = await a.until(r.id, ["COMPLETED"]);
    expect(onA.stateReason).toMatch(/stopped by delete/);
    expect((await b.until(r.id, ["COMPLETED"])).exitCode).toBe(onA.exitCode);
    await Promise.all([a.c.close(), b.c.close()]);
  }, 90_000);

  it("a main process that exits at once is COMPLETED on both replicas (the other one waits for the starter's report)", async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await a.c.create("t", { spec: spec({ argv: ["true"] }), echo: {}, requestId: "" })).id);
    for (const id of ids) {
      const onA = await a.until(id, ["COMPLETED", "FAILED"]);
      const onB = await b.until(id, ["COMPLETED", "FAILED"], 30_000);
      expect([onA.state, onA.exitCode, onA.stateReason]).toEqual(["COMPLETED", 0, "main process exited with code 0"]);
      expect([onB.state, onB.exitCode]).toEqual(["COMPLETED", 0]);
    }
    await Promise.all([a.c.close(), b.c.close()]);
  }, 90_000);

  it("a restarted Hangar expires a sandbox from its stored lifetime (not Kubernetes' backstop)", async () => {
    const a = await replica();
    const r = await a.c.create("t", { spec: spec({ maxLifetimeSeconds: 3 }), echo: {}, requestId: "" });
    await a.until(r.id, ["RUNNING"]);
    await a.c.close();
    await new Promise((res) => setTimeout(res, 3_000));
    const b = await replica();
    const s = await b.until(r.id, ["COMPLETED"], 15_000);
    expect(s.stateReason).toMatch(/max lifetime/);
    expect(s.endedAtMs! - (s.startedAtMs ?? 0)).toBeLessThan(3_000 + 8_000);
    await b.c.close();
  }, 60_000);

  it("when retention ends the record goes, and with it the pod", async () => {
    const a = await replica({ retentionMs: 1_500 });
    const r = await a.c.create("t", { spec: spec({ argv: ["/bin/sh", "-c", "exit 0"] }), echo: {}, requestId: "" });
    await a.until(r.id, ["COMPLETED"]);
    const pod = await core.readNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE });
    expect(pod.metadata?.finalizers).toEqual(["hangar.dev/record"]);
    await podGone(r.id);
    expect(() => a.c.get("t", r.id)).toThrow(expect.objectContaining({ code: "NOT_FOUND" }));
    await a.c.close();
  }, 60_000);

  it("a pod whose record cannot be read is reported FAILED, saying why, stopped, and released at retention", async () => {
    // A corrupt record (as a bad write or another tool would leave it), finalizer set: before, the
    // pod was ignored, kept running and kept its finalizer forever.
    const id = "0badc0de-0000-4000-8000-000000000001";
    await core.createNamespacedPod({
      namespace: NAMESPACE,
      body: {
        metadata: {
          name: `sbx-${id}`,
          labels: { [MANAGED_BY]: "hangar", "hangar.dev/sandbox-id": id, "hangar.dev/tenant": "t" },
          annotations: { "hangar.dev/record": '{"v":1,"id":' },
          finalizers: ["hangar.dev/record"],
        },
        spec: {
          restartPolicy: "Never",
          terminationGracePeriodSeconds: 0,
          automountServiceAccountToken: false,
          containers: [{ name: "main", image: PYTHON_IMAGE, command: ["sleep", "600"] }],
        },
      },
    });
    const a = await replica({ retentionMs: 3_000 });
    const got = await waitFor("the sandbox reported", 30_000, async () => {
      try {
        return a.c.get("t", id);
      } catch {
        return undefined;
      }
    });
    expect(got).toMatchObject({
      state: "FAILED",
      stateReason: expect.stringMatching(
        new RegExp(`the record on pod sbx-${id} could not be read \\(not JSON .*\\); the pod was stopped`),
      ),
    });
    await podGone(id);
    await a.c.close();
  }, 90_000);

  it("rides out an apiserver outage: Get answers from memory, exec fails typed, and what changed meanwhile arrives after", async () => {
    const proxy = await apiserverProxy(new URL(sa.getCurrentCluster()?.server ?? ""));
    const a = await replica({ kubeConfig: kubeConfigVia(SA_FILE, proxy.url()) });
    const r = await a.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    await a.until(r.id, ["RUNNING"]);
    await proxy.cut();
    expect(a.c.get("t", r.id).state).toBe("RUNNING");
    await expect(a.run(r.id, ["true"])).rejects.toMatchObject({ code: "UNAVAILABLE" });
    await core.deleteNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE, gracePeriodSeconds: 1 });
    await new Promise((res) => setTimeout(res, 3_000));
    expect(a.c.get("t", r.id).state).toBe("RUNNING");
    await proxy.restore();
    const s = await a.until(r.id, ["COMPLETED", "FAILED"], 30_000);
    expect(s.stateReason).toMatch(/deleted/);
    await a.c.close();
    await proxy.cut();
  }, 90_000);

  it("relists when its watch expires (410 Gone across an apiserver restart): a pod deleted meanwhile ends its sandbox, the others keep working", async () => {
    const proxy = await apiserverProxy(new URL(sa.getCurrentCluster()?.server ?? ""));
    const a = await replica({ kubeConfig: kubeConfigVia(SA_FILE, proxy.url()) });
    const kept = await a.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    const gone = await a.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    await a.until(kept.id, ["RUNNING"]);
    await a.until(gone.id, ["RUNNING"]);
    const before = a.runtime.watchStats?.().relists ?? -1;
    await proxy.cut();
    // While this replica cannot see the apiserver: a pod goes, and the apiserver restarts, so its
    // watch cache begins past every resource version this replica saw (its watch will get 410 Gone).
    await core.deleteNamespacedPod({ name: `sbx-${gone.id}`, namespace: NAMESPACE, gracePeriodSeconds: 0 });
    execFileSync("bash", ["test/cluster/restart-daemon.sh", "kube-apiserver"], { stdio: "ignore", timeout: 180_000 });
    expect(a.c.get("t", gone.id).state).toBe("RUNNING");
    await proxy.restore();
    const s = await a.until(gone.id, ["COMPLETED", "FAILED"], 60_000);
    expect(s.stateReason).toMatch(/deleted/);
    // The path taken was the relist (a resumed watch would not have delivered that deletion).
    expect(a.runtime.watchStats?.().relists).toBeGreaterThan(before);
    expect(await a.run(kept.id, ["/bin/sh", "-c", "echo still here"])).toEqual({ out: "still here\n", exitCode: 0 });
    a.c.remove("t", kept.id, { graceMs: 1000, allowMissing: false });
    await a.until(kept.id, ["COMPLETED"]);
    await a.c.close();
    await proxy.cut();
  }, 240_000);
});

describe("kubernetes runtime on the real cluster", () => {
  it("runs a sandbox whose tags are one label selector away, and stops it", async () => {
    const r = await controller.create("t", { spec: spec({ tags: ["itest", "team:ml", "with space"] }), echo: {}, requestId: "" });
    await until(r.id, ["RUNNING"]);
    const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: tagSelector(["team:ml", "with space"]) });
    expect(pods.items.map((p) => p.metadata?.name)).toEqual([`sbx-${r.id}`]);
    expect(pods.items[0]?.metadata?.labels?.["tag.hangar.dev/team"]).toBe("ml");
    expect(JSON.parse(pods.items[0]?.metadata?.annotations?.["hangar.dev/tags"] ?? "")).toEqual(["itest", "team:ml", "with space"]);
    controller.remove("t", r.id, { graceMs: 1000, allowMissing: false });
    expect((await until(r.id, ["COMPLETED"])).exitCode).toBe(0);
  });

  it("a missing image fails the sandbox with a readable reason", async () => {
    const r = await controller.create("t", { spec: spec({ image: "localhost/hangar-test/does-not-exist:1" }), echo: {}, requestId: "" });
    const s = await until(r.id, ["FAILED"]);
    expect(s.stateReason).toMatch(/ErrImage|image/i);
  });

  it("a pod killed mid-exec ends the exec with UNAVAILABLE, never a silent exit 0", async () => {
    const r = await controller.create("t", { spec: spec(), echo: {}, requestId: "" });
    await until(r.id, ["RUNNING"]);
    const h = await controller.exec("t", r.id, { argv: ["sleep", "300"] });
    const drained = (async () => {
      for await (const _ of h.process.output()) void _;
    })();
    await core.deleteNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE, gracePeriodSeconds: 0 });
    await drained;
    await expect(h.process.exited).rejects.toMatchObject({ code: "UNAVAILABLE" });
    h.release();
    const s = await until(r.id, ["COMPLETED", "FAILED"]);
    expect(s.stateReason).toMatch(/deleted|exit/);
  });

  it("a command that gets no input reads EOF at once, with no stdin stream to close (plain exec)", async () => {
    const r = await controller.create("t", { spec: spec(), echo: {}, requestId: "" });
    await until(r.id, ["RUNNING"]);
    for (const argv of [["cat"], ["/bin/sh", "-c", 'read -r line; echo "rc=$?"']]) {
      // closeStdin() is never called: EOF must come from the exec itself.
      const h = await controller.exec("t", r.id, { argv, noInput: true });
      let out = "";
      for await (const c of h.process.output()) out += c.data.toString();
      expect(await h.process.exited).toEqual({ exitCode: 0 });
      h.release();
      expect(out).toBe(argv[0] === "cat" ? "" : "rc=1\n");
    }
    controller.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await until(r.id, ["COMPLETED"]);
  });

  it("a pod deleted behind Hangar's back ends its sandbox with a reason", async () => {
    const r = await controller.create("t", { spec: spec(), echo: {}, requestId: "" });
    await until(r.id, ["RUNNING"]);
    await core.deleteNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE, gracePeriodSeconds: 0 });
    const s = await until(r.id, ["COMPLETED", "FAILED"]);
    expect(s.exitCode).toBeDefined();
  });

  it("an image without a shell runs plain commands, and file operations say sh is missing", async () => {
    const r = await controller.create("t", { spec: spec({ image: NOSHELL_IMAGE, argv: ["/bin/pause"] }), echo: {}, requestId: "" });
    await until(r.id, ["RUNNING"]);
    expect(state(r.id).stateReason).toMatch(/no \/bin\/sh/);
    const h = await controller.exec("t", r.id, { argv: ["/bin/hello", "no", "shell"] });
    let out = "";
    for await (const c of h.process.output()) out += c.data.toString();
    expect(await h.process.exited).toEqual({ exitCode: 0 });
    h.release();
    expect(out).toBe("no shell\n");
    await expect(controller.readFile("t", r.id, "/etc/passwd", new AbortController().signal)).rejects.toMatchObject({
      reason: "CWSANDBOX_FILE_IO_FAILED",
      message: expect.stringMatching(/sh/),
    });
    controller.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await until(r.id, ["COMPLETED"]);
  });

  it("two replicas creating the same sandbox (a retried request_id) make one pod", async () => {
    const replica = createKubernetesRuntime({
      kubeConfig: sa,
      namespace: NAMESPACE,
      startupTimeoutMs: 20_000,
      deadlineMarginSeconds: 60,
      fallbackCapacity: { cpuMillicores: 1000, memoryBytes: 2 ** 30 },
      organizationId: "o",
      log: silent,
      runners: [{ runnerId: "any", runnerGroupId: "g", nodeSelector: {} }],
    });
    await replica.ready();
    const id = idForRequest("t", `retry-${Date.now()}`);
    const exits: number[] = [];
    const onExit = (e: RuntimeEvent) => void (e.t === "exit" && e.id === id && exits.push(e.exit.exitCode));
    const unsubscribe = runtime.subscribe(onExit);
    replica.subscribe(onExit);
    const rec = record({ id, tenant: "t", spec: spec(), runnerId: "any", state: "CREATING", effectiveLifetimeSeconds: 600 });
    const [a, b] = await Promise.all([runtime.start(rec), replica.start(rec)]);
    expect(a.startedAtMs && b.startedAtMs).toBeTruthy();
    const pods = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `hangar.dev/sandbox-id=${id}` });
    expect(pods.items).toHaveLength(1);
    await runtime.stop(id, 0);
    await waitFor("both replicas saw the exit", 30_000, async () => (exits.length === 2 ? true : undefined));
    unsubscribe();
    await replica.close();
    await runtime.remove(id);
  });

  it("runner_ids pick a node pool: the pod gets its node selector, and a pool without nodes fails to schedule", async () => {
    expect(controller.runners().map((r) => r.runnerId)).toEqual(["any", "this-node", "nowhere"]);
    const here = await controller.create("t", { spec: spec({ runnerIds: ["this-node"] }), echo: {}, requestId: "" });
    expect((await until(here.id, ["RUNNING"])).runnerId).toBe("this-node");
    const pod = await core.readNamespacedPod({ name: `sbx-${here.id}`, namespace: NAMESPACE });
    expect(pod.spec?.nodeSelector).toEqual({ "kubernetes.io/hostname": hostname() });
    controller.remove("t", here.id, { graceMs: 0, allowMissing: false });
    await until(here.id, ["COMPLETED"]);
    const nowhere = await controller.create("t", { spec: spec({ runnerIds: ["nowhere"] }), echo: {}, requestId: "" });
    const failed = await waitFor("unschedulable sandbox FAILED", 40_000, async () =>
      state(nowhere.id).state === "FAILED" ? state(nowhere.id) : undefined,
    );
    expect(failed.stateReason).toMatch(/unschedulable|not running after/);
  }, 60_000);

  it("a natural exit is COMPLETED with its exit code; the finished pod holds the record", async () => {
    const r = await controller.create("t", { spec: spec({ argv: ["/bin/sh", "-c", "exit 3"] }), echo: {}, requestId: "" });
    expect((await until(r.id, ["COMPLETED"])).exitCode).toBe(3);
    const pod = await waitFor("record stored", 10_000, async () => {
      const p = await core.readNamespacedPod({ name: `sbx-${r.id}`, namespace: NAMESPACE });
      return p.metadata?.annotations?.["hangar.dev/record"]?.includes('"COMPLETED"') && p.status?.phase === "Failed" ? p : undefined;
    });
    expect(JSON.parse(pod.metadata?.annotations?.["hangar.dev/record"] ?? "{}")).toMatchObject({
      state: "COMPLETED",
      exitCode: 3,
      tenant: "t",
    });
  });

  it("a main process that exits while its start is being probed is COMPLETED with its code, never FAILED by the probe", async () => {
    // Seen running, then gone before or during the start's exec probe: the window moves with the delay.
    const delays = ["0.05", "0.2", "0.4", "0.8"];
    const made = await Promise.all(
      delays.map((d) => controller.create("t", { spec: spec({ argv: ["/bin/sh", "-c", `sleep ${d}; exit 4`] }), echo: {}, requestId: "" })),
    );
    for (const r of made) expect(await until(r.id, ["COMPLETED"])).toMatchObject({ state: "COMPLETED", exitCode: 4 });
  }, 90_000);
});
