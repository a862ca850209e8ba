/** The local runtime's log store: tail, since, timestamps, follow, and a bound that a flood of short lines cannot get around. */
import { describe, expect, it } from "vitest";
import { CHUNK_OVERHEAD, LogStore } from "../../runtime/local/log-store.js";

const opts = (o: Partial<{ follow: boolean; tailLines: number; sinceMs: number; timestamps: boolean }> = {}) => ({
  follow: false,
  tailLines: 0,
  timestamps: false,
  signal: new AbortController().signal,
  ...o,
});
async function text(s: LogStore, o = opts()): Promise<string> {
  let out = "";
  for await (const b of s.read(o)) out += b.data.toString();
  return out;
}

describe("LogStore", () => {
  it("keeps whole lines across reads and streams, with tail, since and timestamps", async () => {
    const s = new LogStore();
    s.push("stdout", Buffer.from("a\nb"), 1000);
    s.push("stderr", Buffer.from("E1\n"), 1000);
    s.push("stdout", Buffer.from("c\nd\n"), 2000);
    s.push("stdout", Buffer.from("tail-without-newline"), 3000);
    s.end(3000);
    expect(await text(s)).toBe("a\nE1\nbc\nd\ntail-without-newline");
    expect(await text(s, opts({ tailLines: 2 }))).toBe("d\ntail-without-newline");
    expect(await text(s, opts({ tailLines: 4 }))).toBe("E1\nbc\nd\ntail-without-newline");
    expect(await text(s, opts({ tailLines: 100 }))).toBe("a\nE1\nbc\nd\ntail-without-newline");
    expect(await text(s, opts({ sinceMs: 2000 }))).toBe("bc\nd\ntail-without-newline");
    expect(await text(s, opts({ sinceMs: 2000, timestamps: true }))).toBe(
      "1970-01-01T00:00:02.000000000Z bc\n1970-01-01T00:00:02.000000000Z d\n1970-01-01T00:00:03.000000000Z tail-without-newline",
    );
    expect(s.lastLine()).toBe("tail-without-newline");
  });

  it("a flood of empty lines stays within the limit, oldest first, and readers see a marker", async () => {
    const limit = 1024 * 1024;
    const s = new LogStore(limit);
    const flood = Buffer.alloc(64 * 1024, 10); // 65,536 empty lines per read
    for (let i = 0; i < 200; i++) s.push("stdout", flood); // 13 MB, 13 million lines
    s.push("stdout", Buffer.from("last words\n"));
    s.end();
    const got = await text(s);
    expect(got.startsWith("[hangar: ")).toBe(true);
    expect(got).toMatch(/bytes of older output were dropped/);
    expect(got.endsWith("\nlast words\n")).toBe(true);
    expect(got.length).toBeLessThanOrEqual(limit + 200);
    expect(got.length).toBeGreaterThan(limit - 2 * (64 * 1024 + CHUNK_OVERHEAD));
    expect(await text(s, opts({ tailLines: 3 }))).toBe("\n\nlast words\n");
  });

  it("many tiny reads cost their overhead against the limit, not unbounded objects", async () => {
    const s = new LogStore(64 * 1024);
    for (let i = 0; i < 100_000; i++) s.push("stdout", Buffer.from("\n"));
    s.end();
    const got = await text(s);
    const lines = got.split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(Math.ceil((64 * 1024) / (1 + CHUNK_OVERHEAD)) + 1);
    expect(got.startsWith("[hangar: ")).toBe(true);
  });

  it("follow yields what arrives and ends with the process", async () => {
    const s = new LogStore();
    s.push("stdout", Buffer.from("one\n"));
    const it = s.read(opts({ follow: true }))[Symbol.asyncIterator]();
    expect((await it.next()).value.data.toString()).toBe("one\n");
    const next = it.next();
    s.push("stdout", Buffer.from("two\n"));
    expect((await next).value.data.toString()).toBe("two\n");
    const last = it.next();
    s.end();
    expect((await last).done).toBe(true);
  });
});

describe("resumable logs", () => {
  const chunks = async (s: LogStore, o: Parameters<LogStore["read"]>[0]) => {
    const out: { data: string; end?: number }[] = [];
    for await (const c of s.read(o)) out.push({ data: c.data.toString(), ...(c.end !== undefined ? { end: c.end } : {}) });
    return out;
  };
  it("every piece carries its end offset, counted in raw bytes whatever the format; a resume starts at any byte", async () => {
    const s = new LogStore();
    s.push("stdout", Buffer.from("one\n"), 1000);
    s.push("stdout", Buffer.from("two\nthree\n"), 2000);
    s.end(2000);
    expect(await chunks(s, opts())).toEqual([
      { data: "one\n", end: 4 },
      { data: "two\nthree\n", end: 14 },
    ]);
    const stamped = await chunks(s, opts({ timestamps: true }));
    expect(stamped.map((c) => c.end)).toEqual([4, 14]);
    expect(await chunks(s, { ...opts(), fromOffset: 6 })).toEqual([{ data: "o\nthree\n", end: 14 }]);
    expect(await chunks(s, { ...opts(), fromOffset: 14 })).toEqual([]);
    expect(await chunks(s, opts({ tailLines: 1 }))).toEqual([{ data: "three\n", end: 14 }]);
  });
  it("a resume past the end is INVALID_RESUME_OFFSET; one before what is kept is REPLAY_GAP", async () => {
    const s = new LogStore(3 * (CHUNK_OVERHEAD + 10));
    for (let i = 0; i < 10; i++) s.push("stdout", Buffer.from(`line-${i}...\n`));
    s.end();
    await expect(chunks(s, { ...opts(), fromOffset: 10_000 })).rejects.toMatchObject({ code: "INVALID_RESUME_OFFSET" });
    await expect(chunks(s, { ...opts(), fromOffset: 0 })).rejects.toMatchObject({ code: "REPLAY_GAP" });
  });
  it("each store is its own timeline", () => {
    expect(new LogStore().session).not.toBe(new LogStore().session);
  });
});
