/**
 * A warm pool per runner on the real cluster (HANGAR_KUBE_WARM_POOLS `=size@runner`): the pool's
 * pods carry their runner's node selector and run on its nodes; a sandbox for that runner is a
 * warm claim; a sandbox for another runner (another node selector, or none) is never served by
 * that pool's pods.
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
const SIZE = 2;
let selector: Record<string, string> = {};
let rep: ReturnType<typeof hangarReplica>;
const spec = (runnerIds: string[]): SandboxSpec => ({
  image: PYTHON_IMAGE,
  argv: [...DEFAULT_MAIN_ARGV],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["runner-pool"],
  maxLifetimeSeconds: 0,
  runnerIds,
  annotations: {},
  volumes: [],
});
const poolPods = async () =>
  (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: `${POOL_LABEL}=${poolName(PYTHON_IMAGE, undefined, selector)}` }))
    .items;
const readyIdle = async () =>
  (await poolPods()).filter(
    (p) => p.metadata?.annotations?.["hangar.dev/exec"] && !p.metadata?.deletionTimestamp && p.status?.phase === "Running",
  );
const warmPodOf = (note: string) => /warm pod [^/]+\/(\S+)/.exec(note)?.[1];

beforeAll(async () => {
  // The real node (kwok's fake nodes, when the scale bed is up, carry type=kwok).
  const node = (await core.listNode()).items.find((n) => n.metadata?.labels?.type !== "kwok");
  const host = node?.metadata?.labels?.["kubernetes.io/hostname"];
  if (!host) throw new Error("no real node with a kubernetes.io/hostname label");
  selector = { "kubernetes.io/hostname": host };
  rep = hangarReplica({
    kubeConfig: sa,
    startupTimeoutMs: 30_000,
    runners: [
      { runnerId: "any", nodeSelector: {} },
      { runnerId: "pinned", nodeSelector: selector },
    ],
    warmPools: [{ image: PYTHON_IMAGE, size: SIZE, runnerId: "pinned", nodeSelector: selector }],
  });
  await rep.start();
  await waitFor(`${SIZE} warm pods of the pinned runner ready`, 90_000, async () =>
    (await readyIdle()).length >= SIZE ? true : undefined,
  );
}, 120_000);

afterAll(async () => {
  await rep?.c.close();
  for (const p of await poolPods())
    await core.deleteNamespacedPod({ name: p.metadata?.name ?? "", namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  expect(await releaseRecords(core)).toEqual([]);
}, 120_000);

describe("a warm pool per runner", () => {
  it("pool pods carry their runner's node selector; that runner's sandbox is a warm claim, another runner's is cold", async () => {
    for (const p of await poolPods()) {
      expect(p.spec?.nodeSelector).toEqual(selector);
      expect(p.spec?.nodeName).toBe(selector["kubernetes.io/hostname"]);
    }
    const pinned = await rep.c.create("t", { spec: spec(["pinned"]), echo: {}, requestId: "" });
    const s = await rep.until(pinned.id, ["RUNNING"]);
    const pod = warmPodOf(s.imageNote);
    expect(pod, s.imageNote).toBeDefined();
    expect(s.runnerId).toBe("pinned");
    const claimed = await core.readNamespacedPod({ name: pod ?? "", namespace: NAMESPACE });
    expect(claimed.metadata?.labels?.["hangar.dev/sandbox-id"]).toBe(pinned.id);
    expect(claimed.spec?.nodeSelector).toEqual(selector);
    expect((await rep.run(pinned.id, ["/bin/sh", "-c", "echo warm"])).out).toBe("warm\n");

    // The other runner (no node selector) has no pool: its sandbox gets a pod of its own even
    // though idle pods of the same image are ready.
    await waitFor("the pool refilled", 90_000, async () => ((await readyIdle()).length >= 1 ? true : undefined));
    const idleBefore = (await readyIdle()).map((p) => p.metadata?.name);
    const other = await rep.c.create("t", { spec: spec(["any"]), echo: {}, requestId: "" });
    const o = await rep.until(other.id, ["RUNNING"], 90_000);
    expect(o.runnerId).toBe("any");
    expect(warmPodOf(o.imageNote), o.imageNote).toBeUndefined();
    expect(o.imageNote).toMatch(new RegExp(`pod ${NAMESPACE}/sbx-${other.id}`));
    const own = await core.readNamespacedPod({ name: `sbx-${other.id}`, namespace: NAMESPACE });
    expect(own.spec?.nodeSelector ?? {}).toEqual({});
    expect(idleBefore.every((n) => n !== own.metadata?.name)).toBe(true);

    for (const id of [pinned.id, other.id]) rep.c.remove("t", id, { graceMs: 0, allowMissing: false });
    for (const id of [pinned.id, other.id]) await rep.until(id, ["COMPLETED"]);
  }, 180_000);
});
