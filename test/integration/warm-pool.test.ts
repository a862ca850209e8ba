/**
 * Warm pools on the real cluster, two replicas sharing one pool: claims are RUNNING with the
 * sandbox's env, files and lifetime; no pod is ever claimed twice; creates that do not match,
 * or find the pool empty, fall back to cold pods; the pool refills.
 */
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createController } from "../../controller/controller.js";
import { DEFAULT_MAIN_ARGV, type SandboxSpec } from "../../core/types.js";
import { createKubernetesRuntime } from "../../runtime/kubernetes/kube-runtime.js";
import { poolName, POOL_LABEL } from "../../runtime/kubernetes/warm-pool.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
const sa = new k8s.KubeConfig();
sa.loadFromFile((process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig"));
const silent = { info() {}, warn() {}, error() {} };
const SIZE = 3;

function replica() {
  const runtime = createKubernetesRuntime({
    kubeConfig: sa, namespace: NAMESPACE, startupTimeoutMs: 30_000, deadlineMarginSeconds: 60, defaultLifetimeSeconds: 600, defaultDenyEgress: true,
    fallbackCapacity: { cpuMillicores: 1000, memoryBytes: 2 ** 30 }, organizationId: "o", log: silent,
    runners: [{ runnerId: "any", runnerGroupId: "g", nodeSelector: {} }], warmPools: [{ image: PYTHON_IMAGE, size: SIZE }],
  });
  const c = createController({
    runtime, policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 10_000 }, defaultLifetimeSeconds: 600, maxLifetimeSeconds: 3600,
    maxSandboxes: 50, maxExecsPerSandbox: 10, maxExecs: 100, maxFileBytes: 1 << 20, reapIntervalMs: 200, log: silent,
  });
  return { runtime, c };
}
const a = replica();
const b = replica();
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: PYTHON_IMAGE, argv: [...DEFAULT_MAIN_ARGV], env: {}, files: [], requests: {}, limits: {}, tags: ["warm"], maxLifetimeSeconds: 0, runnerIds: [], annotations: {}, volumes: [], ...over,
});
const until = (c: ReturnType<typeof createController>, id: string, want: string[], ms = 60_000) =>
  waitFor(`sandbox ${id} in ${want}`, ms, async () => (want.includes(c.get("t", id).state) ? c.get("t", id) : undefined));
const poolPods = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${POOL_LABEL}=${poolName(PYTHON_IMAGE)}` })).items;
const readyIdle = async () => (await poolPods()).filter((p) => p.metadata?.annotations?.["hangar.dev/exec"] && !p.metadata?.deletionTimestamp && p.status?.phase === "Running");
const warmPodOf = (note: string) => /warm pod [^/]+\/(\S+)/.exec(note)?.[1];
async function run(c: ReturnType<typeof createController>, id: string, argv: string[]) {
  const h = await c.exec("t", id, { argv });
  let out = "";
  for await (const x of h.process.output()) out += x.data.toString();
  await h.process.exited;
  h.release();
  return out;
}

beforeAll(async () => {
  await Promise.all([a.runtime.ready(), b.runtime.ready()]);
  await Promise.all([a.c.start(), b.c.start()]);
  await waitFor(`${SIZE} warm pods ready`, 90_000, async () => ((await readyIdle()).length >= SIZE ? true : undefined));
}, 120_000);

afterAll(async () => {
  await Promise.all([a.c.close(), b.c.close()]);
  for (const p of await poolPods()) await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("warm pools on the real cluster", () => {
  it("a claim is RUNNING at once with the sandbox's env, files, labels and record, on a fresh filesystem", async () => {
    const r = await a.c.create("t", { spec: spec({ env: { GREETING: "warm hello" }, files: [{ path: "/etc/app/conf", content: Buffer.from("k=v\n") }], tags: ["warm", "team:ml"] }), echo: {}, requestId: "" });
    const s = await until(a.c, r.id, ["RUNNING"]);
    const pod = warmPodOf(s.imageNote);
    expect(pod, s.imageNote).toBeDefined();
    expect(await run(a.c, r.id, ["/bin/sh", "-c", 'echo "$GREETING"; cat /etc/app/conf; touch /tmp/mine'])).toBe("warm hello\nk=v\n");
    const p = await core.readNamespacedPod({ name: pod ?? "", namespace: NAMESPACE });
    expect(p.metadata?.labels).toMatchObject({ "hangar.dev/sandbox-id": r.id, "hangar.dev/tenant": "t", "tag.hangar.dev/team": "ml" });
    expect(p.metadata?.labels?.[POOL_LABEL]).toBeUndefined();
    expect(p.metadata?.finalizers).toEqual(["hangar.dev/record"]);
    expect(p.spec?.activeDeadlineSeconds).toBeLessThanOrEqual(Math.ceil((Date.now() - new Date(p.status?.startTime ?? 0).getTime()) / 1000) + 600 + 60);
    // Another claim gets another pod: nothing of the first sandbox is there.
    const r2 = await b.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    const s2 = await until(b.c, r2.id, ["RUNNING"]);
    expect(warmPodOf(s2.imageNote)).not.toBe(pod);
    expect(await run(b.c, r2.id, ["/bin/sh", "-c", "ls /tmp/mine 2>/dev/null; echo ${GREETING:-unset}"])).toBe("unset\n");
    // The other replica serves the claimed sandbox too, env included.
    expect(await until(b.c, r.id, ["RUNNING"], 10_000)).toBeTruthy();
    expect(await run(b.c, r.id, ["/bin/sh", "-c", 'echo "$GREETING"'])).toBe("warm hello\n");
    a.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    b.c.remove("t", r2.id, { graceMs: 0, allowMissing: false });
    await until(a.c, r.id, ["COMPLETED"]);
    await until(b.c, r2.id, ["COMPLETED"]);
  }, 90_000);

  it("two replicas creating at once never claim the same pod; past the pool, creates are cold", async () => {
    await waitFor("pool refilled", 90_000, async () => ((await readyIdle()).length >= SIZE ? true : undefined));
    const made = await Promise.all(Array.from({ length: 2 * SIZE }, (_, i) => (i % 2 ? a.c : b.c).create("t", { spec: spec({ tags: ["warm", "burst"] }), echo: {}, requestId: "" }).then((r) => ({ r, c: i % 2 ? a.c : b.c }))));
    const states = await Promise.all(made.map(({ r, c }) => until(c, r.id, ["RUNNING"], 90_000)));
    const pods = states.map((s) => warmPodOf(s.imageNote) ?? `cold:${s.id}`);
    expect(new Set(pods).size).toBe(pods.length);
    const warm = pods.filter((p) => !p.startsWith("cold:"));
    expect(warm.length).toBeGreaterThanOrEqual(1);
    for (const name of warm) {
      const p = await core.readNamespacedPod({ name, namespace: NAMESPACE });
      expect(states.filter((s) => s.id === p.metadata?.labels?.["hangar.dev/sandbox-id"])).toHaveLength(1);
    }
    for (const { r, c } of made) c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    for (const { r, c } of made) await until(c, r.id, ["COMPLETED"]);
  }, 180_000);

  it("a create the pool cannot serve is cold; lifetime counts from the claim", async () => {
    const cold = await a.c.create("t", { spec: spec({ argv: ["/bin/sh", "-c", "sleep infinity"] }), echo: {}, requestId: "" });
    expect((await until(a.c, cold.id, ["RUNNING"])).imageNote).toMatch(new RegExp(`pod ${NAMESPACE}/sbx-${cold.id}`));
    await waitFor("pool refilled", 90_000, async () => ((await readyIdle()).length >= 1 ? true : undefined));
    const short = await a.c.create("t", { spec: spec({ maxLifetimeSeconds: 2 }), echo: {}, requestId: "" });
    const running = await until(a.c, short.id, ["RUNNING"]);
    expect(warmPodOf(running.imageNote)).toBeDefined();
    const done = await until(a.c, short.id, ["COMPLETED"], 20_000);
    expect(done.stateReason).toMatch(/max lifetime/);
    expect((done.endedAtMs ?? 0) - (done.startedAtMs ?? 0)).toBeLessThan(2_000 + 6_000);
    a.c.remove("t", cold.id, { graceMs: 0, allowMissing: false });
    await until(a.c, cold.id, ["COMPLETED"]);
    await waitFor("the pool back at its size", 90_000, async () => ((await readyIdle()).length === SIZE ? true : undefined));
  }, 180_000);
});
