import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadMallocTrim, startMallocTrim } from "../../cmd/malloc-trim.js";

const MiB = 2 ** 20;

describe("startMallocTrim", () => {
  afterEach(() => vi.useRealTimers());

  it("trims on its interval, counts the time and the RSS handed back, and stops", () => {
    vi.useFakeTimers();
    const rss = [500 * MiB, 300 * MiB, 300 * MiB, 310 * MiB];
    let clock = 0;
    const calls: number[] = [];
    const loop = startMallocTrim({
      trim: (pad) => {
        calls.push(pad);
        clock += 20;
        return 1;
      },
      intervalMs: 10_000,
      rss: () => rss.shift() ?? 0,
      now: () => clock,
    });
    vi.advanceTimersByTime(9_999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([0]);
    expect(loop.stats()).toEqual({ trims: 1, seconds: 0.02, releasedBytes: 200 * MiB });
    // RSS that grew during a trim counts as nothing handed back, never as a negative amount.
    vi.advanceTimersByTime(10_000);
    expect(loop.stats()).toEqual({ trims: 2, seconds: 0.04, releasedBytes: 200 * MiB });
    loop.stop();
    vi.advanceTimersByTime(60_000);
    expect(calls).toHaveLength(2);
  });
});

describe("loadMallocTrim on this machine (glibc)", () => {
  it("hands freed native memory back: RSS that glibc keeps after the buffers die drops once trimmed", async () => {
    const loaded = await loadMallocTrim();
    if (!("trim" in loaded)) throw new Error(`malloc_trim did not load: ${loaded.error}`);
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const rss = () => process.memoryUsage.rss();
    const base = rss();
    // 200 MB of small native buffers (Buffers' backing stores come from malloc), one live buffer
    // above them so that glibc cannot give the pages back by shrinking its heap's top.
    let bufs: Buffer[] | undefined = Array.from({ length: 50_000 }, () => Buffer.allocUnsafeSlow(4000));
    const pin = Buffer.allocUnsafeSlow(4000);
    bufs = undefined;
    gc();
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const kept = rss();
    // Without a trim glibc keeps what was freed (this is the premise; if it ever stops, so does the need).
    expect(kept - base).toBeGreaterThan(100 * MiB);
    const loop = startMallocTrim({ trim: loaded.trim, intervalMs: 3_600_000 });
    loop.trimNow();
    loop.stop();
    expect(kept - rss()).toBeGreaterThan(100 * MiB);
    expect(loop.stats().releasedBytes).toBeGreaterThan(100 * MiB);
    expect(pin.length).toBe(4000);
    expect(bufs).toBeUndefined();
  });
});
