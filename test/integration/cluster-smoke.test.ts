/**
 * Smoke tests of the offline test cluster through @kubernetes/client-node: a pod from the
 * offline python image runs, exec over the v5.channel.k8s.io websocket works with stdin EOF
 * and exit codes, and a deleted pod is gone.
 */
import * as k8s from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exec, kubeConfig, NAMESPACE, NOSHELL_IMAGE, PYTHON_IMAGE, waitFor } from "./kube.js";

const kc = kubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const name = `smoke-${Date.now().toString(36)}`;

function pod(podName: string, image: string, command?: string[]): k8s.V1Pod {
  return {
    metadata: { name: podName, labels: { "app.kubernetes.io/managed-by": "hangar-tests" } },
    spec: {
      restartPolicy: "Never",
      terminationGracePeriodSeconds: 1,
      automountServiceAccountToken: false,
      containers: [{ name: "main", image, imagePullPolicy: "IfNotPresent", command }],
    },
  };
}

async function running(podName: string) {
  return waitFor(`pod ${podName} Running`, 60_000, async () => {
    const p = await core.readNamespacedPod({ name: podName, namespace: NAMESPACE });
    if (p.status?.phase === "Failed") throw new Error(`pod failed: ${JSON.stringify(p.status)}`);
    return p.status?.phase === "Running" ? p : undefined;
  });
}

beforeAll(async () => {
  await core.createNamespacedPod({
    namespace: NAMESPACE,
    body: pod(name, PYTHON_IMAGE, ["/bin/sh", "-c", 'trap "exit 0" TERM; sleep infinity & wait']),
  });
  await running(name);
}, 90_000);

afterAll(async () => {
  const list = await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: "app.kubernetes.io/managed-by=hangar-tests" });
  for (const p of list.items)
    await core
      .deleteNamespacedPod({ name: p.metadata?.name as string, namespace: NAMESPACE, gracePeriodSeconds: 0 })
      .catch(() => undefined);
});

describe("offline test cluster", () => {
  it("has a Ready node", async () => {
    const nodes = await core.listNode();
    expect(nodes.items).toHaveLength(1);
    expect(nodes.items[0]?.status?.conditions?.find((c) => c.type === "Ready")?.status).toBe("True");
  });

  it("execs echo over the v5 websocket", async () => {
    const r = await exec(kc, name, ["echo", "hello"]);
    expect(r).toMatchObject({ stdout: Buffer.from("hello\n"), exitCode: 0 });
  });

  it("delivers stdin with a real EOF", async () => {
    const payload = Buffer.alloc(300_000, 7);
    const r = await exec(kc, name, ["wc", "-c"], payload);
    expect(r.stdout.toString().trim()).toBe("300000");
    const cat = await exec(kc, name, ["cat"], Buffer.from("round trip"));
    expect(cat.stdout.toString()).toBe("round trip");
  });

  it("returns non-zero exit codes and stderr", async () => {
    const r = await exec(kc, name, ["/bin/sh", "-c", "echo bad >&2; exit 7"]);
    expect(r.exitCode).toBe(7);
    expect(r.stderr.toString()).toBe("bad\n");
  });

  it("runs the SDK's default image name with python", async () => {
    const r = await exec(kc, name, ["python", "-c", "import sys; print(sys.version_info[0])"]);
    expect(r.stdout.toString()).toBe("3\n");
  });

  it("runs the shell-less image, where sh is missing", async () => {
    const ns = `${name}-noshell`;
    await core.createNamespacedPod({ namespace: NAMESPACE, body: pod(ns, NOSHELL_IMAGE) });
    await running(ns);
    expect((await exec(kc, ns, ["/bin/hello", "plain", "command"])).stdout.toString()).toBe("plain command\n");
    await expect(exec(kc, ns, ["/bin/sh", "-c", "true"])).rejects.toThrow(/sh|no such file|not found/i);
  });

  it("deletes a pod and it is gone", async () => {
    await core.deleteNamespacedPod({ name, namespace: NAMESPACE, gracePeriodSeconds: 0 });
    await waitFor(`pod ${name} gone`, 30_000, async () => {
      try {
        await core.readNamespacedPod({ name, namespace: NAMESPACE });
        return undefined;
      } catch (e) {
        return (e as { code?: number }).code === 404 ? true : undefined;
      }
    });
  });
});

describe("least-privilege ServiceAccount kubeconfig", () => {
  // .cluster/kubeconfig -> .cluster/hangar-sa.kubeconfig (k3s: k3s-kubeconfig -> k3s-hangar-sa.kubeconfig)
  const path = process.env.KUBECONFIG?.replace(/kubeconfig$/, "hangar-sa.kubeconfig");
  it("can create, exec into, log and delete pods in its namespace, read nodes, and nothing else", async () => {
    const sa = new k8s.KubeConfig();
    sa.loadFromFile(path as string);
    const api = sa.makeApiClient(k8s.CoreV1Api);
    const podName = `${name}-sa`;
    await api.createNamespacedPod({
      namespace: NAMESPACE,
      body: pod(podName, PYTHON_IMAGE, ["/bin/sh", "-c", "echo started; sleep infinity"]),
    });
    await waitFor("sa pod Running", 60_000, async () =>
      (await api.readNamespacedPod({ name: podName, namespace: NAMESPACE })).status?.phase === "Running" ? true : undefined,
    );
    expect((await exec(sa, podName, ["echo", "as hangar"])).stdout.toString()).toBe("as hangar\n");
    const log = await api.readNamespacedPodLog({ name: podName, namespace: NAMESPACE, container: "main" });
    expect(log).toBe("started\n");
    const listed = await api.listNamespacedPod({ namespace: NAMESPACE, labelSelector: "app.kubernetes.io/managed-by=hangar-tests" });
    expect(listed.items.map((p) => p.metadata?.name)).toContain(podName);
    // Cluster-wide it reads nodes (as the chart's rbac.readNodes: addresses, capacity, GPUs) and can change none.
    expect((await api.listNode()).items.length).toBeGreaterThan(0);
    await expect(api.deleteNode({ name: "no-such-node" })).rejects.toMatchObject({ code: 403 });
    await expect(api.patchNode({ name: "no-such-node", body: { metadata: { labels: { x: "y" } } } })).rejects.toMatchObject({ code: 403 });
    // Secrets: its own namespace's (each sandbox's copy of its secret values) and, in a secret store's
    // tenant namespace, get only; never another namespace's, never a tenant store listed or changed.
    await expect(api.listNamespacedSecret({ namespace: "kube-system" })).rejects.toMatchObject({ code: 403 });
    await expect(api.listNamespacedSecret({ namespace: "hangar-secrets-alpha" })).rejects.toMatchObject({ code: 403 });
    await expect(
      api.createNamespacedSecret({ namespace: "hangar-secrets-alpha", body: { metadata: { name: "x" } } }),
    ).rejects.toMatchObject({ code: 403 });
    await expect(api.readNamespacedSecret({ namespace: "default", name: "x" })).rejects.toMatchObject({ code: 403 });
    await expect(api.listNamespacedPod({ namespace: "default" })).rejects.toMatchObject({ code: 403 });
    await api.deleteNamespacedPod({ name: podName, namespace: NAMESPACE, gracePeriodSeconds: 0 });
  });
});
