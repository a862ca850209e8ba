/** Helpers for the integration tier: the cluster from KUBECONFIG (make cluster-up writes it). */
import * as k8s from "@kubernetes/client-node";
import { readFileSync } from "node:fs";
import * as net from "node:net";
import { PassThrough, Readable, Writable } from "node:stream";
import { exitCodeOf } from "../../runtime/kubernetes/exec/plain.js";

export const NAMESPACE = process.env.HANGAR_TEST_NAMESPACE ?? "hangar-test";
export const PYTHON_IMAGE = "python:3.11";
export const NOSHELL_IMAGE = "localhost/hangar-test/noshell:1";

export function kubeConfig(): k8s.KubeConfig {
  const path = process.env.KUBECONFIG;
  if (!path)
    throw new Error(
      "KUBECONFIG is not set: run `make cluster-up` and export KUBECONFIG=.cluster/kubeconfig (make test-integration does both)",
    );
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(path);
  return kc;
}

export async function waitFor<T>(what: string, ms: number, fn: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface ExecResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

export function exec(kc: k8s.KubeConfig, pod: string, command: string[], stdin?: Buffer): Promise<ExecResult> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) =>
    new Writable({
      write(chunk, _enc, cb) {
        into.push(Buffer.from(chunk));
        cb();
      },
    });
  return new Promise((resolve, reject) => {
    let input: Readable | null = null;
    if (stdin) {
      const p = new PassThrough();
      p.end(stdin);
      input = p;
    }
    new k8s.Exec(kc)
      .exec(NAMESPACE, pod, "main", command, sink(out), sink(err), input, false, (status) => {
        try {
          resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err), exitCode: exitCodeOf(status) });
        } catch (e) {
          reject(e);
        }
      })
      .then((ws) => ws.on("close", () => setTimeout(() => reject(new Error("websocket closed without a status")), 2000).unref()), reject);
  });
}

/** Waits until every Hangar pod left has finished, then releases their records (finalizer off, pod deleted) and checks none is left. */
export async function releaseRecords(core: k8s.CoreV1Api): Promise<string[]> {
  const selector = "app.kubernetes.io/managed-by=hangar";
  const list = async () => (await core.listNamespacedPod({ namespace: NAMESPACE, labelSelector: selector })).items;
  const running = await waitFor("every sandbox pod finished", 60_000, async () => {
    const live = (await list()).filter((p) => !["Succeeded", "Failed"].includes(p.status?.phase ?? "") && p.spec?.nodeName);
    return live.length === 0 ? [] : undefined;
  }).catch(async () =>
    (await list())
      .filter((p) => !["Succeeded", "Failed"].includes(p.status?.phase ?? ""))
      .map((p) => `${p.metadata?.name} (${p.status?.phase})`),
  );
  for (const p of await list()) {
    const name = p.metadata?.name ?? "";
    await core
      .patchNamespacedPod(
        { name, namespace: NAMESPACE, body: { metadata: { finalizers: null } } },
        k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch),
      )
      .catch(() => undefined);
    await core.deleteNamespacedPod({ name, namespace: NAMESPACE, gracePeriodSeconds: 0 }).catch(() => undefined);
  }
  await waitFor("released pods gone", 30_000, async () => ((await list()).length === 0 ? true : undefined));
  return running;
}

/** A loopback TCP proxy to the apiserver that a test can cut (every connection dropped, new ones refused) and restore. */
export async function apiserverProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((c) => {
        const u = net.connect(Number(target.port || 443), target.hostname);
        const done = () => {
          c.destroy();
          u.destroy();
          sockets.delete(c);
          sockets.delete(u);
        };
        sockets.add(c);
        sockets.add(u);
        for (const x of [c, u]) x.on("error", done).on("close", done);
        c.pipe(u);
        u.pipe(c);
      });
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => {
        port = (s.address() as net.AddressInfo).port;
        server = s;
        resolve();
      });
    });
  await listen();
  return {
    url: () => `https://127.0.0.1:${port}`,
    cut: async () => {
      const s = server;
      server = undefined;
      for (const x of sockets) x.destroy();
      await new Promise((r) => (s ? s.close(r) : r(undefined)));
    },
    restore: listen,
  };
}

/** A copy of a kubeconfig file whose cluster server is `server`. */
export function kubeConfigVia(file: string, server: string): k8s.KubeConfig {
  const text = readFileSync(file, "utf8").replace(/server: "?https:\/\/[^"\s]+"?/, `server: "${server}"`);
  const out = new k8s.KubeConfig();
  out.loadFromString(text);
  return out;
}
