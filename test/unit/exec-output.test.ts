/**
 * The shared output queue of every ExecProcess (runtime/exec-output.ts): order, end, flow control
 * in bytes and in chunks, a consumer that stops early, and the hooks the exec agent's commands use.
 */
import { describe, expect, it } from "vitest";
import { createOutputQueue } from "../../runtime/exec-output.js";
import type { OutputChunk } from "../../runtime/types.js";

const b = (s: string) => Buffer.from(s);
const text = (chunks: OutputChunk[]) => chunks.map((c) => `${c.stream}:${c.data.toString()}`);
const drain = async (it: AsyncIterable<OutputChunk>) => {
  const got: OutputChunk[] = [];
  for await (const c of it) got.push(c);
  return got;
};
const tick = () => new Promise((r) => setImmediate(r));

describe("the exec output queue", () => {
  it("hands chunks out in arrival order, then ends once drained", async () => {
    const q = createOutputQueue();
    q.push("stdout", b("a"));
    q.push("stderr", b("b"));
    q.push("stdout", b("c"));
    q.end();
    expect(text(await drain(q.output()))).toEqual(["stdout:a", "stderr:b", "stdout:c"]);
  });

  it("waits for chunks that arrive later, and for the end", async () => {
    const q = createOutputQueue();
    const got = drain(q.output());
    await tick();
    q.push("stdout", b("one"));
    await tick();
    q.push("stdout", b("two"));
    q.end();
    expect(text(await got)).toEqual(["stdout:one", "stdout:two"]);
  });

  it("drops empty chunks", async () => {
    const q = createOutputQueue();
    q.push("stdout", Buffer.alloc(0));
    q.push("stderr", b("x"));
    expect(q.length).toBe(1);
    q.end();
    expect(text(await drain(q.output()))).toEqual(["stderr:x"]);
  });

  it("ended before any output: output() returns at once", async () => {
    const q = createOutputQueue();
    q.end();
    expect(q.ended).toBe(true);
    expect(await drain(q.output())).toEqual([]);
  });

  it("data before an end that came with a failure is still handed out (the failure travels through exited)", async () => {
    const q = createOutputQueue();
    const failed = Promise.reject(new Error("cut"));
    failed.catch(() => undefined);
    q.push("stdout", b("partial"));
    q.end();
    expect(text(await drain(q.output()))).toEqual(["stdout:partial"]);
    await expect(failed).rejects.toThrow("cut");
  });

  it("a consumer that stops early leaves the rest for the next output()", async () => {
    const q = createOutputQueue();
    for (const s of ["1", "2", "3"]) q.push("stdout", b(s));
    for await (const c of q.output()) {
      expect(c.data.toString()).toBe("1");
      break;
    }
    q.end();
    expect(text(await drain(q.output()))).toEqual(["stdout:2", "stdout:3"]);
  });

  it("counts chunks: pauses at pauseAt, resumes below resumeBelow", async () => {
    const events: string[] = [];
    const q = createOutputQueue({
      flow: {
        unit: "chunks",
        pauseAt: 4,
        resumeBelow: 2,
        pause: () => void events.push("pause"),
        resume: () => void events.push("resume"),
      },
    });
    for (let i = 0; i < 3; i++) q.push("stdout", b(String(i)));
    expect(events).toEqual([]);
    q.push("stdout", b("3"));
    expect(events).toEqual(["pause"]);
    q.push("stdout", b("4"));
    expect(events).toEqual(["pause"]); // paused once
    const it = q.output()[Symbol.asyncIterator]();
    for (let i = 0; i < 3; i++) await it.next(); // 2 left: not below 2
    expect(events).toEqual(["pause"]);
    await it.next(); // 1 left
    expect(events).toEqual(["pause", "resume"]);
  });

  it("counts bytes, and tries the pause again when the source could not be paused yet", async () => {
    const events: string[] = [];
    let canPause = false;
    const q = createOutputQueue({
      flow: {
        unit: "bytes",
        pauseAt: 11,
        resumeBelow: 5,
        pause: () => (canPause ? void events.push("pause") : false),
        resume: () => void events.push("resume"),
      },
    });
    q.push("stdout", b("0123456789")); // 10 bytes: not more than 10
    expect(events).toEqual([]);
    q.push("stdout", b("ab")); // 12, but the source cannot pause yet
    expect(events).toEqual([]);
    canPause = true;
    q.push("stdout", b("c")); // 13: paused now
    expect(events).toEqual(["pause"]);
    const it = q.output()[Symbol.asyncIterator]();
    await it.next(); // 3 bytes left
    expect(events).toEqual(["pause", "resume"]);
  });

  it("takes with a custom take, reports each chunk before it is handed out, and says when it drained", async () => {
    const seen: string[] = [];
    const q = createOutputQueue({
      take: (queue) => {
        const first = queue.shift();
        if (!first || queue[0]?.stream !== first.stream) return first;
        const second = queue.shift() as OutputChunk;
        return { stream: first.stream, data: Buffer.concat([first.data, second.data]) };
      },
      onTake: (c) => seen.push(`take ${c.data.toString()}`),
      onDrained: () => seen.push("drained"),
    });
    q.push("stdout", b("a"));
    q.push("stdout", b("b"));
    q.push("stderr", b("c"));
    q.end();
    for await (const c of q.output()) seen.push(`got ${c.data.toString()}`);
    expect(seen).toEqual(["take ab", "got ab", "take c", "got c", "drained"]);
  });
});
