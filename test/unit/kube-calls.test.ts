import * as k8s from "@kubernetes/client-node";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CountedKubeConfig, resourceOf } from "../../runtime/kubernetes/kube-calls.js";
import { podsWithoutRecord } from "../../runtime/kubernetes/pod/without-record.js";

describe("resourceOf: the resource a request path names", () => {
  const cases: [string, string][] = [
    ["https://k:6443/api/v1/namespaces/ns/pods", "pods"],
    ["https://k:6443/api/v1/namespaces/ns/pods/p-1", "pods"],
    ["https://k:6443/api/v1/namespaces/ns/pods/p-1/log?follow=true", "pods/log"],
    ["https://k:6443/api/v1/namespaces/ns/pods/p-1/exec", "pods/exec"],
    ["https://k:6443/api/v1/nodes", "nodes"],
    ["https://k:6443/api/v1/namespaces", "namespaces"],
    ["https://k:6443/api/v1/namespaces/ns", "namespaces"],
    ["https://k:6443/apis/node.k8s.io/v1/runtimeclasses", "runtimeclasses"],
    ["https://k:6443/apis/gateway.networking.k8s.io/v1/namespaces/ns/httproutes/r", "httproutes"],
    ["https://k:6443/apis/authentication.k8s.io/v1/tokenreviews", "tokenreviews"],
    ["https://k:6443/version", "other"],
    ["https://k:6443/api/v1/namespaces/ns/Pods%20x", "other"],
    ["not a url", "other"],
  ];
  for (const [url, want] of cases) it(`${url} -> ${want}`, () => expect(resourceOf(url)).toBe(want));
});

describe("CountedKubeConfig: the typed clients count calls and answers against a real HTTP server", () => {
  let server: Server;
  let kc: CountedKubeConfig;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.includes("/pods/missing"))
        res.writeHead(404, { "content-type": "application/json" }).end('{"kind":"Status","code":404}');
      else if (req.url?.includes("/pods/broken")) req.socket.destroy();
      else res.writeHead(200, { "content-type": "application/json" }).end('{"kind":"PodList","apiVersion":"v1","items":[]}');
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    kc = new CountedKubeConfig();
    kc.loadFromClusterAndUser(
      { name: "c", server: `http://127.0.0.1:${(server.address() as { port: number }).port}`, skipTLSVerify: true },
      { name: "u" },
    );
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it("a list answered 200, a read answered 404, a read with no answer", async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    await core.listNamespacedPod({ namespace: "ns" });
    await core.listNamespacedPod({ namespace: "ns" });
    await expect(core.readNamespacedPod({ name: "missing", namespace: "ns" })).rejects.toThrow();
    await expect(core.readNamespacedPod({ name: "broken", namespace: "ns" })).rejects.toThrow();
    const stats = kc.stats().sort((a, b) => `${a.verb}${a.code ?? ""}`.localeCompare(`${b.verb}${b.code ?? ""}`));
    expect(stats).toEqual([
      { verb: "GET", resource: "pods", count: 4 },
      { verb: "GET", resource: "pods", code: "200", count: 2 },
      { verb: "GET", resource: "pods", code: "404", count: 1 },
      { verb: "GET", resource: "pods", code: "error", count: 1 },
    ]);
  });
});

describe("podsWithoutRecord", () => {
  const pod = (labels: Record<string, string>, deleting = false): k8s.V1Pod => ({
    metadata: { labels, ...(deleting ? { deletionTimestamp: new Date(0) } : {}) },
  });
  const hangar = { "app.kubernetes.io/managed-by": "hangar" };
  const cases: [string, k8s.V1Pod[], number][] = [
    ["a tracked sandbox's pod", [pod({ ...hangar, "hangar.dev/sandbox-id": "a" })], 0],
    ["an untracked sandbox's pod", [pod({ ...hangar, "hangar.dev/sandbox-id": "b" })], 1],
    ["Hangar's pod without a sandbox id", [pod(hangar)], 1],
    ["a warm pool's idle pod", [pod({ ...hangar, "hangar.dev/warm-pool": "p" })], 0],
    ["an untracked pod being deleted", [pod({ ...hangar, "hangar.dev/sandbox-id": "b" }, true)], 0],
    ["a pod that is not Hangar's", [pod({ "hangar.dev/sandbox-id": "b" })], 0],
  ];
  for (const [name, pods, want] of cases) it(name, () => expect(podsWithoutRecord(pods, (id) => id === "a")).toBe(want));
});
