/**
 * The last hour of Hangar's own figures for the console's plots: sampled every intervalMs from the
 * same sources as /metrics, kept in a ring. A point per sample; nothing is kept past the window.
 */
export interface Sample {
  atMs: number;
  values: Record<string, number>;
}

export function createHistory(o: { probe: () => Record<string, number>; now: () => number; intervalMs: number; windowMs: number }) {
  const samples: Sample[] = [];
  const keep = Math.max(1, Math.ceil(o.windowMs / o.intervalMs));
  const sample = () => {
    samples.push({ atMs: o.now(), values: o.probe() });
    if (samples.length > keep) samples.splice(0, samples.length - keep);
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    sample,
    start() {
      sample();
      timer = setInterval(sample, o.intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
    /** Columns for plotting: times (s) and one array per figure, missing values as null. */
    series(names: readonly string[]): { t: number[]; series: Record<string, (number | null)[]> } {
      const series: Record<string, (number | null)[]> = {};
      for (const n of names) series[n] = samples.map((s) => s.values[n] ?? null);
      return { t: samples.map((s) => s.atMs / 1000), series };
    },
  };
}

export type History = ReturnType<typeof createHistory>;
