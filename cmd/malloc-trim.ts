/**
 * Hands the native memory glibc keeps after it is freed back to the system (ADR 0024).
 *
 * Every exec probe, TLS record, websocket frame and gRPC message Hangar relays allocates native
 * buffers that are freed soon after; glibc keeps the freed pages in its arenas. Measured at 2,000
 * sandboxes: 98 MiB of live JavaScript heap in a 549 MiB RSS, glibc's main arena 260 MB of which
 * 11 MB in use, and `malloc_trim(0)` took the RSS from 526 to 273 MiB. Node has no binding for
 * it, so it is called through koffi (an FFI library with prebuilt binaries: no compiler at install).
 */
import { memoryUsage } from "node:process";

export type MallocTrim = (pad: number) => number;

/** Loads glibc's malloc_trim, or says why it cannot (not Linux, not glibc, koffi absent). */
export async function loadMallocTrim(): Promise<{ trim: MallocTrim } | { error: string }> {
  if (process.platform !== "linux") return { error: `${process.platform} is not Linux` };
  try {
    const koffi = (await import("koffi")).default;
    const libc = koffi.load("libc.so.6");
    const trim = libc.func("int malloc_trim(size_t pad)") as (pad: number) => number;
    return { trim };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

export interface TrimStats {
  trims: number;
  seconds: number;
  /** RSS before minus after, summed over every trim (bytes; a trim during growth may count less). */
  releasedBytes: number;
}

export interface TrimLoop {
  stats(): TrimStats;
  /** One trim now (also what the timer runs). */
  trimNow(): void;
  stop(): void;
}

/** Calls `trim(0)` every `intervalMs` (an unref'd timer: it never keeps Hangar alive). */
export function startMallocTrim(o: { trim: MallocTrim; intervalMs: number; rss?: () => number; now?: () => number }): TrimLoop {
  const rss = o.rss ?? (() => memoryUsage.rss());
  const now = o.now ?? (() => performance.now());
  const stats: TrimStats = { trims: 0, seconds: 0, releasedBytes: 0 };
  const trimNow = () => {
    const before = rss();
    const t0 = now();
    o.trim(0);
    stats.seconds += (now() - t0) / 1000;
    stats.trims++;
    stats.releasedBytes += Math.max(0, before - rss());
  };
  const timer = setInterval(trimNow, o.intervalMs);
  timer.unref();
  return { stats: () => ({ ...stats }), trimNow, stop: () => clearInterval(timer) };
}
