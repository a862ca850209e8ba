/** Helpers for the integration tier: the cluster from KUBECONFIG (make cluster-up writes it). */
import * as k8s from "@kubernetes/client-node";
import { PassThrough, Readable, Writable } from "node:stream";
import { exitCodeOf } from "../../runtime/kubernetes/kube-exec.js";

export const NAMESPACE = process.env.HANGAR_TEST_NAMESPACE ?? "hangar-test";
export const PYTHON_IMAGE = "python:3.11";
export const NOSHELL_IMAGE = "localhost/hangar-test/noshell:1";

export function kubeConfig(): k8s.KubeConfig {
  const path = process.env.KUBECONFIG;
  if (!path) throw new Error("KUBECONFIG is not set: run `make cluster-up` and export KUBECONFIG=.cluster/kubeconfig (make test-integration does both)");
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
  const sink = (into: Buffer[]) => new Writable({ write(chunk, _enc, cb) { into.push(Buffer.from(chunk)); cb(); } });
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
