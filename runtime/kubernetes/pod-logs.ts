/** StreamLogs: the main container's log of a pod (tail, since, timestamps, follow), ended by the signal. */
import * as k8s from "@kubernetes/client-node";
import { PassThrough } from "node:stream";
import { errors } from "../../core/errors.js";
import type { LogOptions } from "../types.js";

export async function* podLogs(kc: k8s.KubeConfig, namespace: string, pod: string, opts: LogOptions): AsyncIterable<Buffer> {
  const out = new PassThrough();
  const ctl = await new k8s.Log(kc)
    .log(namespace, pod, "main", out, () => out.end(), {
      follow: opts.follow,
      tailLines: opts.tailLines > 0 ? opts.tailLines : undefined,
      timestamps: opts.timestamps,
      sinceTime: opts.sinceMs !== undefined ? new Date(opts.sinceMs).toISOString() : undefined,
    })
    .catch((e: unknown) => {
      throw errors.unavailable(`could not read the pod's log: ${(e as Error).message}`, e);
    });
  const abort = () => {
    ctl.abort();
    out.end();
  };
  opts.signal.addEventListener("abort", abort, { once: true });
  try {
    for await (const chunk of out) yield Buffer.from(chunk as Buffer);
  } finally {
    opts.signal.removeEventListener("abort", abort);
    ctl.abort();
  }
}
