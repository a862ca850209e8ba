// The log read rate of a local sandbox (runtime/local/log-rate.ts): a token bucket, and a real pipe.
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readAtRate, tokenBucket } from "../../runtime/local/log-rate.js";

describe("token bucket", () => {
  it("lets a second's worth through at once, then makes the reader wait for the deficit", () => {
    const b = tokenBucket(1000, 0);
    expect(b.take(1000, 0)).toBe(0);
    expect(b.take(500, 0)).toBe(500);
    expect(b.take(0, 500)).toBe(0); // 500 ms refilled the 500 owed
    expect(b.take(250, 500)).toBe(250);
  });
  it("never saves more than one second's burst", () => {
    const b = tokenBucket(1000, 0);
    expect(b.take(3000, 60_000)).toBe(2000);
  });
});

describe("reading a stream at a rate", () => {
  afterEach(() => vi.useRealTimers());
  it("pauses the stream past the rate and resumes it once the bucket has refilled", async () => {
    vi.useFakeTimers({ now: 0 });
    const s = new PassThrough({ highWaterMark: 64 * 1024 });
    const got: number[] = [];
    readAtRate(s, 64 * 1024, (b) => got.push(b.length));
    s.write(Buffer.alloc(64 * 1024)); // the burst
    await vi.advanceTimersByTimeAsync(0);
    expect(s.isPaused()).toBe(false);
    s.write(Buffer.alloc(32 * 1024)); // half a second over
    await vi.advanceTimersByTimeAsync(0);
    expect(got).toEqual([64 * 1024, 32 * 1024]);
    expect(s.isPaused()).toBe(true);
    await vi.advanceTimersByTimeAsync(499);
    expect(s.isPaused()).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.isPaused()).toBe(false);
  });
  it("0 reads at once", async () => {
    const fast = new PassThrough();
    let n = 0;
    readAtRate(fast, 0, (b) => (n += b.length));
    fast.end(Buffer.alloc(1 << 20));
    await new Promise<void>((r) => fast.on("end", () => r()));
    expect(n).toBe(1 << 20);
    expect(fast.isPaused()).toBe(false);
  });
});
