/**
 * StreamLogs: the main container's log of a pod (tail, since, timestamps, follow), ended by the
 * signal. Pieces carry their end offset (raw bytes from the start of the container's log) so a
 * reader can resume: the kubelet serves logs from the start or from a tail or a time, never from a
 * byte, so a tail or a resume reads the log once to find where it starts, and a follow from there
 * reads it from the start and skips what was already sent. Streams with timestamps or since_time
 * are not resumable here (their pieces carry no offset).
 */
import * as k8s from "@kubernetes/client-node";
import { PassThrough } from "node:stream";
import { errors } from "../../../core/errors.js";
import { LogResumeError, type LogChunk, type LogOptions } from "../../types.js";
import { statusOf } from "../kube-errors.js";

interface RawOptions {
  container?: string;
  follow: boolean;
  tailLines?: number;
  timestamps?: boolean;
  sinceMs?: number;
}

/**
 * How long a log request answered 400 is asked again: a sandbox is RUNNING once exec works, which
 * can be before the kubelet reports its container running (ADR 0041, up to one PLEG relist), and
 * until then the apiserver refuses the log ("waiting to start").
 */
export const LOG_START_PATIENCE_MS = 3000;

async function openLog(kc: k8s.KubeConfig, namespace: string, pod: string, o: RawOptions, out: PassThrough, signal: AbortSignal) {
  const until = Date.now() + LOG_START_PATIENCE_MS;
  for (;;) {
    try {
      return await new k8s.Log(kc).log(namespace, pod, o.container ?? "main", out, () => out.end(), {
        follow: o.follow,
        tailLines: o.tailLines && o.tailLines > 0 ? o.tailLines : undefined,
        timestamps: o.timestamps,
        sinceTime: o.sinceMs !== undefined ? new Date(o.sinceMs).toISOString() : undefined,
      });
    } catch (e) {
      if (statusOf(e) !== 400 || Date.now() > until || signal.aborted)
        throw errors.unavailable(`could not read the pod's log: ${(e as Error).message}`, e);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function* raw(kc: k8s.KubeConfig, namespace: string, pod: string, o: RawOptions, signal: AbortSignal): AsyncIterable<Buffer> {
  const out = new PassThrough();
  const ctl = await openLog(kc, namespace, pod, o, out, signal);
  const abort = () => {
    ctl.abort();
    out.end();
  };
  signal.addEventListener("abort", abort, { once: true });
  try {
    for await (const chunk of out) yield Buffer.from(chunk as Buffer);
  } finally {
    signal.removeEventListener("abort", abort);
    ctl.abort();
  }
}

/** Where the last n lines of text start (pure). */
export function tailStart(text: Buffer, n: number): number {
  let pos = text.length;
  for (let lines = 0; ;) {
    const nl = pos >= 2 ? text.lastIndexOf(10, pos - 2) : -1;
    lines++;
    if (lines === n || nl < 0) return lines === n ? nl + 1 : 0;
    pos = nl + 1;
  }
}

const PIECE = 64 * 1024;

export async function* podLogs(kc: k8s.KubeConfig, namespace: string, pod: string, opts: LogOptions): AsyncIterable<LogChunk> {
  const { signal } = opts;
  if (opts.fromOffset === undefined && (opts.timestamps || opts.sinceMs !== undefined)) {
    for await (const data of raw(
      kc,
      namespace,
      pod,
      { container: opts.sidecar, follow: opts.follow, tailLines: opts.tailLines, timestamps: opts.timestamps, sinceMs: opts.sinceMs },
      signal,
    ))
      yield { data };
    return;
  }
  let sent = 0;
  if (opts.fromOffset !== undefined || opts.tailLines > 0) {
    const parts: Buffer[] = [];
    for await (const b of raw(kc, namespace, pod, { container: opts.sidecar, follow: false }, signal)) parts.push(b);
    const all = Buffer.concat(parts);
    const from = opts.fromOffset ?? tailStart(all, opts.tailLines);
    if (from > all.length)
      throw new LogResumeError("INVALID_RESUME_OFFSET", `offset ${from} is past the end of this log (${all.length} bytes)`);
    for (let at = from; at < all.length; at += PIECE) {
      const end = Math.min(all.length, at + PIECE);
      yield { data: all.subarray(at, end), end };
    }
    sent = all.length;
    if (!opts.follow || signal.aborted) return;
  }
  // From the start of the log: skip what was sent, count the rest.
  let pos = 0;
  for await (const b of raw(kc, namespace, pod, { container: opts.sidecar, follow: opts.follow }, signal)) {
    const next = pos + b.length;
    if (next > sent) {
      const data = pos >= sent ? b : b.subarray(sent - pos);
      yield { data, end: next };
    }
    pos = next;
  }
}
