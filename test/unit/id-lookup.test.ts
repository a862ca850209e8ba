// Unknown ids on Kubernetes: answered from the watch (no request) while it is up, batched LISTs while
// it is down, and the same wait for an unknown id as for another tenant's (runtime/kubernetes/id-lookup.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createIdLookup } from "../../runtime/kubernetes/stores/id-lookup.js";

function setup(watching: boolean) {
  const known = new Set<string>(["theirs"]);
  const lists: string[][] = [];
  const wakers = new Set<(id: string) => void>();
  const l = createIdLookup({
    settleMs: 200,
    windowMs: 50,
    maxBatch: 100,
    watching: () => watching,
    known: (id) => known.has(id),
    list: async (ids) => {
      lists.push(ids);
    },
    onSeen: (f) => {
      wakers.add(f);
      return () => wakers.delete(f);
    },
  });
  const arrive = (id: string) => {
    known.add(id);
    for (const f of [...wakers]) f(id);
  };
  return { l, lists, arrive, wakers };
}

/** Resolves to the fake time at which p settled. */
const settledAt = (p: Promise<void>) => p.then(() => Date.now());

describe("id lookups", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => vi.useRealTimers());

  it("while the watch is up, 200 unknown ids cost no request", async () => {
    const { l, lists, wakers } = setup(true);
    const all = Promise.all(Array.from({ length: 200 }, (_, i) => l.lookup(`id-${i}`)));
    await vi.advanceTimersByTimeAsync(200);
    await all;
    expect(lists).toEqual([]);
    expect(l.requests()).toBe(0);
    expect(wakers.size).toBe(0);
  });

  it("an unknown id and another tenant's (known) id wait the same", async () => {
    const { l } = setup(true);
    const a = settledAt(l.lookup("nobody's"));
    const b = settledAt(l.lookup("theirs"));
    await vi.advanceTimersByTimeAsync(199);
    await vi.advanceTimersByTimeAsync(1);
    expect(await a).toBe(200);
    expect(await b).toBe(200);
  });

  it("a pod another replica just made ends the wait as soon as the watch delivers it", async () => {
    const { l, arrive } = setup(true);
    const p = settledAt(l.lookup("new"));
    await vi.advanceTimersByTimeAsync(30);
    arrive("new");
    await vi.advanceTimersByTimeAsync(0);
    expect(await p).toBe(30);
  });

  it("while the watch is down, lookups share one LIST per window, at most 100 ids each", async () => {
    const { l, lists } = setup(false);
    const all = Promise.all(Array.from({ length: 250 }, (_, i) => l.lookup(`id-${i}`)));
    await vi.advanceTimersByTimeAsync(150);
    await all;
    expect(lists.map((x) => x.length)).toEqual([100, 100, 50]);
    expect(new Set(lists.flat()).size).toBe(250);
  });

  it("a failed LIST fails every lookup of its batch", async () => {
    const l = createIdLookup({
      settleMs: 200,
      windowMs: 50,
      maxBatch: 100,
      watching: () => false,
      known: () => false,
      list: () => Promise.reject(new Error("apiserver down")),
      onSeen: () => () => undefined,
    });
    const p = l.lookup("x").then(
      () => "ok",
      (e: Error) => e.message,
    );
    await vi.advanceTimersByTimeAsync(50);
    expect(await p).toBe("apiserver down");
  });
});
