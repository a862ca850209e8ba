/** A tenant's log budget (HANGAR_TENANT_LOG_BYTES, ADR 0031): its local sandboxes' logs together stay within it. */
import { describe, expect, it } from "vitest";
import { LogBudget, logBudgets } from "../../runtime/local/log-budget.js";
import { CHUNK_OVERHEAD, LogStore } from "../../runtime/local/log-store.js";

const LINE = 100; // bytes per pushed line, each its own chunk
const COST = LINE + CHUNK_OVERHEAD;
const line = (tag: string, i: number) => Buffer.from(`${tag}-${String(i).padStart(4, "0")}`.padEnd(LINE - 1, ".") + "\n");
const write = (s: LogStore, tag: string, n: number) => {
  for (let i = 0; i < n; i++) s.push("stdout", line(tag, i));
};
async function text(s: LogStore): Promise<string> {
  let out = "";
  for await (const b of s.read({ follow: false, tailLines: 0, timestamps: false, signal: new AbortController().signal }))
    out += b.data.toString();
  return out;
}
const kept = (s: LogStore, tag: string) =>
  (s as unknown as { chunks: { data: Buffer }[] }).chunks.filter((c) => c.data.toString().startsWith(tag)).length;

describe("LogBudget", () => {
  const rows: [string, number, (b: LogBudget) => Record<string, LogStore>, Record<string, number>][] = [
    [
      "under the budget every log keeps all",
      10 * COST,
      (b) => {
        const a = new LogStore(1 << 20, b),
          c = new LogStore(1 << 20, b);
        write(a, "a", 4);
        write(c, "c", 4);
        return { a, c };
      },
      { a: 4, c: 4 },
    ],
    [
      "a live writer over the budget trims its own oldest output, never a live sibling's",
      10 * COST,
      (b) => {
        const quiet = new LogStore(1 << 20, b),
          noisy = new LogStore(1 << 20, b);
        write(quiet, "q", 3);
        write(noisy, "n", 50);
        return { q: quiet, n: noisy };
      },
      { q: 3, n: 7 },
    ],
    [
      "an ended sandbox's log goes first, before the writer's own",
      10 * COST,
      (b) => {
        const old = new LogStore(1 << 20, b);
        write(old, "o", 6);
        old.end();
        const live = new LogStore(1 << 20, b);
        write(live, "l", 6);
        return { o: old, l: live };
      },
      { o: 4, l: 6 },
    ],
    [
      "the oldest ended sandbox first",
      9 * COST,
      (b) => {
        const first = new LogStore(1 << 20, b),
          second = new LogStore(1 << 20, b);
        write(first, "f", 3);
        write(second, "s", 3);
        first.end();
        second.end();
        const live = new LogStore(1 << 20, b);
        write(live, "l", 8);
        return { f: first, s: second, l: live };
      },
      { f: 0, s: 1, l: 8 },
    ],
    [
      "a log's own limit still holds inside the budget",
      100 * COST,
      (b) => {
        const s = new LogStore(3 * COST, b);
        write(s, "x", 10);
        return { x: s };
      },
      { x: 3 },
    ],
  ];
  for (const [name, limit, make, want] of rows) {
    it(name, () => {
      const b = new LogBudget(limit);
      const logs = make(b);
      expect(Object.fromEntries(Object.entries(logs).map(([tag, s]) => [tag, kept(s, tag)]))).toEqual(want);
      expect(b.bytes).toBe(Object.values(want).reduce((a, n) => a + n, 0) * COST);
      expect(b.bytes).toBeLessThanOrEqual(limit);
    });
  }
  it("a removed sandbox's bytes leave the budget; readers of a trimmed log see the marker and the newest lines", async () => {
    const b = new LogBudget(4 * COST);
    const s = new LogStore(1 << 20, b);
    write(s, "a", 10);
    expect(await text(s)).toMatch(/^\[hangar: 600 bytes of older output were dropped[^\n]*\na-0006/);
    s.close();
    expect(b.bytes).toBe(0);
  });
  it("one budget per tenant, each with its tenant's limit", () => {
    const of = logBudgets((t) => (t === "big" ? 1000 : 10));
    expect(of("big")).toBe(of("big"));
    expect([of("big").limit, of("small").limit]).toEqual([1000, 10]);
  });
});
