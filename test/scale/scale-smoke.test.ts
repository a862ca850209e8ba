/**
 * The scale bed's CI-sized form (ADR 0019; `make bench-scale` is the full one): kwok fake nodes on
 * the offline test cluster, two replicas, a few hundred sandboxes. What must hold at any size: every
 * sandbox reaches RUNNING through the real start path (the probe exec reaches kwok), each replica
 * lists every one, and an idle replica sends the apiserver nothing for its pods (no relist or
 * re-watch loop, no writes).
 */
import * as k8s from "@kubernetes/client-node";
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SandboxSpec } from "../../core/types.js";
import { NAMESPACE, kubeConfig, releaseRecords, waitFor } from "../integration/kube.js";
import { hangarReplica } from "../integration/replica.js";

const N = Number(process.env.HANGAR_SCALE_SMOKE ?? 300);
const RUN = Math.random().toString(36).slice(2, 8);
const PKI = "/var/lib/hangar-test/pki";
const kc = kubeConfig();
const core = kc.makeApiClient(k8s.CoreV1Api);
const onKwok = {
  nodeSelector: { type: "kwok" },
  tolerations: [{ key: "kwok.x-k8s.io/node", operator: "Exists", effect: "NoSchedule" }],
  maxSandboxes: N + 10,
  startupTimeoutMs: 120_000,
};
const a = hangarReplica({ kubeConfig: kubeConfig(), ...onKwok });
const b = hangarReplica({ kubeConfig: kubeConfig(), ...onKwok });
const spec = (i: number): SandboxSpec => ({
  image: "python:3.11",
  argv: [],
  env: {},
  files: [],
  requests: {},
  limits: {},
  tags: ["scale-smoke", `g${i % 10}`],
  maxLifetimeSeconds: 0,
  runnerIds: [],
  annotations: {},
  volumes: [],
});

/** The apiserver's own count of pod requests, by verb and subresource, all clients. */
function podRequests(): Record<string, number> {
  const text = execFileSync(
    "curl",
    [
      "-sS",
      "--fail",
      "--cacert",
      `${PKI}/ca.crt`,
      "--cert",
      `${PKI}/admin.crt`,
      "--key",
      `${PKI}/admin.key`,
      "https://127.0.0.1:6443/metrics",
    ],
    { encoding: "utf8", maxBuffer: 256 << 20 },
  );
  const by: Record<string, number> = {};
  for (const line of text.split("\n")) {
    if (!line.startsWith("apiserver_request_total{") || !line.includes('resource="pods"')) continue;
    const sub = /subresource="([^"]+)"/.exec(line)?.[1];
    const k = `${/verb="([^"]*)"/.exec(line)?.[1]}${sub ? `/${sub}` : ""}`;
    by[k] = (by[k] ?? 0) + Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return by;
}

beforeAll(async () => {
  execFileSync("bash", ["test/cluster/kwok-up.sh", "2", String(N)], { stdio: "inherit" });
  await a.start();
  await b.start();
});
afterAll(async () => {
  await a.c.close();
  await b.c.close();
  await releaseRecords(core);
  await core
    .deleteCollectionNamespacedPod({ namespace: NAMESPACE, labelSelector: "app.kubernetes.io/managed-by=hangar", gracePeriodSeconds: 0 })
    .catch(() => undefined);
  execFileSync("bash", ["test/cluster/kwok-down.sh"], { stdio: "inherit" });
});

describe(`scale smoke: ${N} sandboxes on kwok nodes, two replicas`, () => {
  const ids: string[] = [];
  it("every sandbox, created through either replica, reaches RUNNING; each replica lists them all", async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < N) {
          const i = next++;
          ids[i] = (await (i % 2 ? b : a).c.create("t", { spec: spec(i), echo: {}, requestId: `scale-smoke-${RUN}-${i}` })).id;
        }
      }),
    );
    for (const [i, id] of ids.entries()) await (i % 2 ? b : a).until(id, ["RUNNING"], 180_000);
    for (const r of [a, b]) {
      await waitFor("every sandbox RUNNING on both replicas", 60_000, async () =>
        ids.every((id) => r.c.get("t", id).state === "RUNNING") ? true : undefined,
      );
      const tagged = r.c.list("t", { tags: ["scale-smoke", "g3"], showTerminated: false, runnerIds: [], pageSize: 1000, pageToken: "" });
      expect(tagged.items.map((x) => x.id).sort()).toEqual(ids.filter((_, i) => i % 10 === 3).sort());
    }
  }, 300_000);

  it("idle replicas send the apiserver no pod requests (no relist, re-watch, exec or write)", async () => {
    const before = podRequests();
    await new Promise((r) => setTimeout(r, 5000));
    const after = podRequests();
    // kwok's and the controllers' status writes are theirs; everything a Hangar replica sends is counted.
    const hangarVerbs = Object.keys(after).filter((k) => !k.endsWith("/status") && (after[k] ?? 0) > (before[k] ?? 0));
    expect(Object.fromEntries(hangarVerbs.map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)]))).toEqual({});
  }, 60_000);
});
