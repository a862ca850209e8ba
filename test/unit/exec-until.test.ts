/**
 * The exec API reads a command's output through `until()` (api/exec.ts), which stops at a timeout
 * or a cancel. A chunk it has handed on must not stay in memory until the call ends: a tenant's
 * `cat /dev/zero` would otherwise hold every byte it printed (issue 38 item 5, review).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { until } from "../../api/exec-deadline.js";

// A full collection on demand, without starting vitest with --expose-gc.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MiB = 1024 * 1024;
/** A full collection, after the turns in flight have settled (freed buffers are released a moment later). */
const settle = async () => {
  await new Promise((r) => setImmediate(r));
  gc();
  await new Promise((r) => setTimeout(r, 50));
  gc();
};

describe("until()", () => {
  it("keeps no chunk it has handed on while the call goes on (200 MiB streamed, the stop still pending)", async () => {
    const chunks = 200;
    const alive: WeakRef<Buffer>[] = [];
    async function* output() {
      for (let i = 0; i < chunks; i++) {
        const b = Buffer.alloc(MiB, i);
        alive.push(new WeakRef(b));
        yield b;
      }
      await new Promise<void>(() => undefined); // the command runs on, printing nothing more
    }
    // Held, as the exec call holds its stop until it answers.
    const stop = new Promise<void>(() => undefined);
    await settle();
    const before = process.memoryUsage();
    let seen = 0;
    let after: NodeJS.MemoryUsage | undefined;
    let live = -1;
    for await (const c of until(output(), stop)) {
      seen += c.length;
      if (seen < chunks * MiB) continue;
      // The call is still on: only the chunk in hand may be kept.
      await settle();
      after = process.memoryUsage();
      live = alive.filter((w) => w.deref() !== undefined).length;
      break;
    }
    expect(seen).toBe(chunks * MiB);
    expect(live).toBeLessThanOrEqual(2);
    expect(after!.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * MiB);
    expect(after!.heapUsed - before.heapUsed).toBeLessThan(64 * MiB);
  });

  it("yields every item until the iteration ends, then ends too", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* output() {
      yield 1;
      yield 2;
      await gate;
      yield 3;
    }
    const got: number[] = [];
    for await (const x of until(output(), new Promise<void>(() => undefined))) {
      got.push(x);
      if (got.length === 2) release();
    }
    expect(got).toEqual([1, 2, 3]);
  });

  it("the stop ends a turn that waits for an item that never comes, and the iteration is asked to return", async () => {
    let returned = false;
    const never = new Promise<IteratorResult<string>>(() => undefined);
    let n = 0;
    const it: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (n++ === 0 ? Promise.resolve({ value: "a", done: false }) : never),
        return: async () => {
          returned = true;
          return { value: undefined, done: true };
        },
      }),
    };
    let stop!: () => void;
    const u = until(it, new Promise<void>((r) => (stop = r)));
    expect(await u.next()).toEqual({ value: "a", done: false });
    const waiting = u.next();
    await new Promise((r) => setImmediate(r));
    stop();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(returned).toBe(true);
  });

  it("a stop that came while the caller held an item ends the loop at the next turn, though no item will ever come", async () => {
    const never = new Promise<IteratorResult<string>>(() => undefined);
    let n = 0;
    const it: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({ next: () => (n++ === 0 ? Promise.resolve({ value: "a", done: false }) : never) }),
    };
    let stop!: () => void;
    const got: string[] = [];
    for await (const x of until(it, new Promise<void>((r) => (stop = r)))) {
      got.push(x);
      stop();
      await new Promise((r) => setImmediate(r)); // the caller's write, during which the stop settles
    }
    expect(got).toEqual(["a"]);
  });

  it("an iteration that throws rejects the loop with its error", async () => {
    async function* output(): AsyncGenerator<number> {
      yield 1;
      throw new Error("the stream broke");
    }
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const x of until(output(), new Promise<void>(() => undefined))) got.push(x);
      })(),
    ).rejects.toThrow("the stream broke");
    expect(got).toEqual([1]);
  });

  it("a stop that rejects rejects the loop with its error, whether it comes during a turn or between turns", async () => {
    const never = new Promise<IteratorResult<number>>(() => undefined);
    const blocked: AsyncIterable<number> = { [Symbol.asyncIterator]: () => ({ next: () => never }) };
    let fail!: (e: Error) => void;
    const during = until(blocked, new Promise<void>((_r, rej) => (fail = rej)));
    const turn = during.next();
    await new Promise((r) => setImmediate(r));
    fail(new Error("stop failed"));
    await expect(turn).rejects.toThrow("stop failed");

    async function* two() {
      yield 1;
      yield 2;
    }
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const x of until(two(), new Promise<void>((_r, rej) => (fail = rej)))) {
          got.push(x);
          fail(new Error("stop failed later"));
          await new Promise((r) => setImmediate(r));
        }
      })(),
    ).rejects.toThrow("stop failed later");
    expect(got).toEqual([1]);
  });
});
