/**
 * How fast Hangar reads a sandbox's output into its log (pure bucket, table-tested): a token bucket
 * of `bytesPerSecond` with one second's burst. Past it Hangar stops reading the pipe for a while,
 * so a sandbox flooding its stdout blocks on a full pipe instead of taking Hangar's and its
 * neighbours' CPU. 0 = unlimited.
 */
import type { Readable } from "node:stream";

export function tokenBucket(bytesPerSecond: number, startMs: number) {
  let tokens = bytesPerSecond;
  let last = startMs;
  return {
    /** Takes n bytes at nowMs; returns how long to wait (ms) before reading again, 0 for not at all. */
    take(n: number, nowMs: number): number {
      tokens = Math.min(bytesPerSecond, tokens + ((nowMs - last) * bytesPerSecond) / 1000);
      last = nowMs;
      tokens -= n;
      return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / bytesPerSecond);
    },
  };
}

/** Reads `stream` into `onData`, pausing it while the bucket is empty. */
export function readAtRate(stream: Readable, bytesPerSecond: number, onData: (b: Buffer) => void): void {
  const bucket = bytesPerSecond > 0 ? tokenBucket(bytesPerSecond, Date.now()) : undefined;
  stream.on("data", (b: Buffer) => {
    onData(b);
    const wait = bucket?.take(b.length, Date.now()) ?? 0;
    if (wait > 0) {
      stream.pause();
      setTimeout(() => stream.resume(), wait).unref();
    }
  });
}
