/**
 * Warm pools on the real cluster, two replicas sharing one pool: claims are RUNNING with the
 * sandbox's env, files and lifetime; no pod is ever claimed twice; creates that do not match,
 * or find the pool empty, fall back to cold pods; the pool refills.
 */
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MAIN_ARGV, type SandboxSpec } from "../../core/types.js";
import { poolName, POOL_LABEL } from "../../runtime/kubernetes/pool/warm-pool.js";
import { hangarReplica } from "./replica.js";
import { kubeConfig, NAMESPACE, PYTHON_IMAGE, releaseRecords, waitFor } from "./kube.js";

const core = kubeConfig().makeApiClient(k8s.CoreV1Api);
const sa = new k8s.KubeConfig();
sa.loadFromFile((process.env.KUBECONFIG as string).replace(/kubeconfig$/, "hangar-sa.kubeconfig"));
const SIZE = 3;

const a = hangarReplica({ kubeConfig: sa, startupTimeoutMs: 30_000, warmPools: [{ image: PYTHON_IMAGE, size: SIZE }] });
const b = hangarReplica({ kubeConfig: sa, startupTimeoutMs: 30_000, warmPools: [{ image: PYTHON_IMAGE, size: SIZE }] });
const spec = (over: Partial<SandboxSpec> = {}): SandboxSpec => ({
  image: PYTHON_IMAGE,
  argv: [...DEFAULT_MAIN_ARGV],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["warm"],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
  ...over,
});
const poolPods = async () =>
  (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${POOL_LABEL}=${poolName(PYTHON_IMAGE)}` })).items;
const readyIdle = async () =>
  (await poolPods()).filter(
    (p) => p.metadata?.annotations?.["hangar.dev/exec"] && !p.metadata?.deletionTimestamp && p.status?.phase === "Running",
  );
const warmPodOf = (note: string) => /warm pod [^/]+\/(\S+)/.exec(note)?.[1];
beforeAll(async () => {
  await Promise.all([a.start(), b.start()]);
  await waitFor(`${SIZE} warm pods ready`, 90_000, async () => ((await readyIdle()).length >= SIZE ? true : undefined));
}, 120_000);

afterAll(async () => {
  await Promise.all([a.c.close(), b.c.close()]);
  for (const p of await poolPods())
    await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("warm pools on the real cluster", () => {
  it("a claim is RUNNING at once with the sandbox's env, files, labels and record, on a fresh filesystem", async () => {
    const r = await a.c.create("t", {
      spec: spec({
        env: { GREETING: "warm hello" },
        files: [{ path: "/etc/app/conf", content: Buffer.from("k=v\n") }],
        tags: ["warm", "team:ml"],
      }),
      echo: {},
      requestId: "",
    });
    const s = await a.until(r.id, ["RUNNING"]);
    const pod = warmPodOf(s.imageNote);
    expect(pod, s.imageNote).toBeDefined();
    expect((await a.run(r.id, ["/bin/sh", "-c", 'echo "$GREETING"; cat /etc/app/conf; touch /tmp/mine'])).out).toBe("warm hello\nk=v\n");
    const p = await core.readNamespacedPod({ name: pod ?? "", namespace: NAMESPACE });
    expect(p.metadata?.labels).toMatchObject({ "hangar.dev/sandbox-id": r.id, "hangar.dev/tenant": "t", "tag.hangar.dev/team": "ml" });
    expect(p.metadata?.labels?.[POOL_LABEL]).toBeUndefined();
    expect(p.metadata?.finalizers).toEqual(["hangar.dev/record"]);
    expect(p.spec?.activeDeadlineSeconds).toBeLessThanOrEqual(
      Math.ceil((Date.now() - new Date(p.status?.startTime ?? 0).getTime()) / 1000) + 600 + 60,
    );
    // Another claim gets another pod: nothing of the first sandbox is there.
    const r2 = await b.c.create("t", { spec: spec(), echo: {}, requestId: "" });
    const s2 = await b.until(r2.id, ["RUNNING"]);
    expect(warmPodOf(s2.imageNote)).not.toBe(pod);
    expect((await b.run(r2.id, ["/bin/sh", "-c", "ls /tmp/mine 2>/dev/null; echo ${GREETING:-unset}"])).out).toBe("unset\n");
    // The other replica serves the claimed sandbox too, env included.
    expect(await b.until(r.id, ["RUNNING"], 10_000)).toBeTruthy();
    expect((await b.run(r.id, ["/bin/sh", "-c", 'echo "$GREETING"'])).out).toBe("warm hello\n");
    a.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    b.c.remove("t", r2.id, { graceMs: 0, allowMissing: false });
    await a.until(r.id, ["COMPLETED"]);
    await b.until(r2.id, ["COMPLETED"]);
  }, 90_000);

  it("a working directory the pool was not made with is applied at claim: warm, made, every command starts there", async () => {
    await waitFor("pool refilled", 90_000, async () => ((await readyIdle()).length >= 1 ? true : undefined));
    const r = await a.c.create("t", { spec: spec({ workingDir: "/srv/job-7" }), echo: {}, requestId: "" });
    const s = await a.until(r.id, ["RUNNING"]);
    expect(warmPodOf(s.imageNote), s.imageNote).toBeDefined();
    expect((await a.run(r.id, ["pwd"])).out).toBe("/srv/job-7\n");
    expect((await a.run(r.id, ["/bin/sh", "-c", "touch here && ls /srv/job-7"])).out).toBe("here\n");
    // The other replica adopted it: the same directory.
    await b.until(r.id, ["RUNNING"], 10_000);
    expect((await b.run(r.id, ["pwd"])).out).toBe("/srv/job-7\n");
    a.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    await a.until(r.id, ["COMPLETED"]);
  }, 90_000);

  it("two replicas creating at once never claim the same pod; past the pool, creates are cold", async () => {
    await waitFor("pool refilled", 90_000, async () => ((await readyIdle()).length >= SIZE ? true : undefined));
    const made = await Promise.all(
      Array.from({ length: 2 * SIZE }, (_, i) =>
        (i % 2 ? a : b).c
          .create("t", { spec: spec({ tags: ["warm", "burst"] }), echo: {}, requestId: "" })
          .then((r) => ({ r, rep: i % 2 ? a : b })),
      ),
    );
    const states = await Promise.all(made.map(({ r, rep }) => rep.until(r.id, ["RUNNING"], 90_000)));
    const pods = states.map((s) => warmPodOf(s.imageNote) ?? `cold:${s.id}`);
    // Past the pool: each cold one says its pool had no idle pod.
    for (const s of states.filter((x) => !warmPodOf(x.imageNote)))
      expect(s.imageNote).toMatch(/cold start: its warm pool .* had no idle pod/);
    expect(new Set(pods).size).toBe(pods.length);
    const warm = pods.filter((p) => !p.startsWith("cold:"));
    expect(warm.length).toBeGreaterThanOrEqual(1);
    for (const name of warm) {
      const p = await core.readNamespacedPod({ name, namespace: NAMESPACE });
      expect(states.filter((s) => s.id === p.metadata?.labels?.["hangar.dev/sandbox-id"])).toHaveLength(1);
    }
    for (const { r, rep } of made) rep.c.remove("t", r.id, { graceMs: 0, allowMissing: false });
    for (const { r, rep } of made) await rep.until(r.id, ["COMPLETED"]);
  }, 180_000);

  it("a create the pool cannot serve is cold; lifetime counts from the claim", async () => {
    const cold = await a.c.create("t", { spec: spec({ argv: ["/bin/sh", "-c", "sleep infinity"] }), echo: {}, requestId: "" });
    const coldRunning = await a.until(cold.id, ["RUNNING"]);
    expect(coldRunning.imageNote).toMatch(new RegExp(`pod ${NAMESPACE}/sbx-${cold.id}`));
    // Its status says why it went cold, naming what to change.
    expect(coldRunning.imageNote).toMatch(/cold start: it sets its own main process \(pool pods run the default one\)/);
    await waitFor("pool refilled", 90_000, async () => ((await readyIdle()).length >= 1 ? true : undefined));
    const short = await a.c.create("t", { spec: spec({ maxLifetimeSeconds: 2 }), echo: {}, requestId: "" });
    const running = await a.until(short.id, ["RUNNING"]);
    expect(warmPodOf(running.imageNote)).toBeDefined();
    const done = await a.until(short.id, ["COMPLETED"], 20_000);
    expect(done.stateReason).toMatch(/max lifetime/);
    expect((done.endedAtMs ?? 0) - (done.startedAtMs ?? 0)).toBeLessThan(2_000 + 6_000);
    a.c.remove("t", cold.id, { graceMs: 0, allowMissing: false });
    await a.until(cold.id, ["COMPLETED"]);
    await waitFor("the pool back at its size", 90_000, async () => ((await readyIdle()).length === SIZE ? true : undefined));
  }, 180_000);
});
