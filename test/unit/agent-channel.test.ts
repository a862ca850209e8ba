/**
 * The persistent exec channel against the real hangar-agent binary (make setup builds it),
 * run here as a local child process instead of inside a pod: the transport differs, the
 * protocol and the agent are the ones production uses.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createAgentChannel, type AgentChannel } from "../../runtime/kubernetes/exec/agent-channel.js";
import { ACK_BATCH, JOIN_BYTES, takeJoined } from "../../runtime/kubernetes/exec/agent-command.js";
import { encodeFrame, FrameParser } from "../../runtime/kubernetes/exec/agent-frames.js";
import fc from "fast-check";
import { agentBinary, startArgv } from "../../runtime/kubernetes/exec/agent-link.js";
import type { ExecProcess } from "../../runtime/types.js";

const AGENT = ".build/hangar-agent";
const children: ChildProcess[] = [];

async function open(sent: Buffer[] = []): Promise<{ ch: AgentChannel; child: ChildProcess }> {
  if (!existsSync(AGENT)) throw new Error(`${AGENT} is missing: run make setup`);
  const child = spawn(AGENT, [], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const ch = createAgentChannel({ send: (b) => (sent.push(b), child.stdin?.write(b)), close: () => child.stdin?.end() });
  child.stdout?.on("data", (b: Buffer) => ch.receive(b));
  child.on("exit", () => ch.end("agent exited"));
  await ch.ready;
  return { ch, child };
}

async function collect(p: ExecProcess) {
  const out = { stdout: "", stderr: "", chunks: 0 };
  for await (const c of p.output()) {
    out[c.stream] += c.data.toString();
    out.chunks++;
  }
  return { ...out, exitCode: (await p.exited).exitCode };
}

afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

describe("agent frames", () => {
  it("parses frames split at any byte and joined together", () => {
    const a = encodeFrame("O", 7, Buffer.from("hello"));
    const b = encodeFrame("X", 7, Buffer.from([0, 0, 0, 3]));
    const all = Buffer.concat([a, b]);
    for (let cut = 0; cut <= all.length; cut++) {
      const p = new FrameParser();
      const got = [...p.push(all.subarray(0, cut)), ...p.push(all.subarray(cut))];
      expect(got.map((f) => [f.kind, f.id, f.payload.toString("hex")])).toEqual([
        ["O", 7, Buffer.from("hello").toString("hex")],
        ["X", 7, "00000003"],
      ]);
    }
  });
  it("parses any frames cut into any pieces (large frames kept as pieces until complete) to the same frames", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 70_000 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 40 }),
        (sizes, cuts) => {
          const frames = sizes.map((n, i) => encodeFrame("O", i, Buffer.alloc(n, i + 1)));
          const all = Buffer.concat(frames);
          const p = new FrameParser();
          const got: { id: number; payload: Buffer }[] = [];
          for (let off = 0, k = 0; off < all.length; k++) {
            const n = cuts[k % cuts.length] as number;
            got.push(...p.push(all.subarray(off, off + n)));
            off += n;
          }
          expect(got.map((f) => f.id)).toEqual(sizes.map((_, i) => i));
          got.forEach((f, i) => expect(f.payload.equals(Buffer.alloc(sizes[i] as number, i + 1))).toBe(true));
        },
      ),
      { numRuns: 200 },
    );
  });
  it("output waiting together is relayed joined: same stream only, in order, up to the join size", () => {
    const c = (stream: "stdout" | "stderr", s: string) => ({ stream, data: Buffer.from(s) });
    const q = [c("stdout", "a"), c("stdout", "b"), c("stderr", "E"), c("stdout", "c")];
    expect(takeJoined(q)).toEqual(c("stdout", "ab"));
    expect(takeJoined(q)).toEqual(c("stderr", "E"));
    expect(takeJoined(q)).toEqual(c("stdout", "c"));
    expect(takeJoined(q)).toBeUndefined();
    const big = [c("stdout", "x".repeat(6)), c("stdout", "y".repeat(4)), c("stdout", "z".repeat(3))];
    expect(takeJoined(big, 10)?.data.toString()).toBe("xxxxxxyyyy");
    expect(takeJoined(big, 10)?.data.toString()).toBe("zzz");
    expect(JOIN_BYTES).toBe(256 * 1024);
  });
  it("refuses a frame larger than 1 MiB", () => {
    const hdr = Buffer.alloc(9);
    hdr.writeUInt32BE((1 << 20) + 1, 5);
    expect(() => new FrameParser().push(hdr)).toThrow(/exceeds/);
  });
  it("a channel that receives garbage closes and refuses commands", () => {
    let closedByChannel = false;
    const ch = createAgentChannel({ send: () => undefined, close: () => (closedByChannel = true) });
    ch.receive(Buffer.from("HTTP/1.1 400 Bad Request\r\n\r\n"));
    expect(ch.closed).toBe(true);
    expect(closedByChannel).toBe(true);
    expect(() => ch.exec(["true"], {})).toThrow(/closed/);
  });
});

describe("commands over the agent", () => {
  it("exact exit codes, signals as 128+n, a missing program as 127", async () => {
    const { ch } = await open();
    expect((await collect(ch.exec(["true"], {}))).exitCode).toBe(0);
    expect((await collect(ch.exec(["sh", "-c", "exit 7"], {}))).exitCode).toBe(7);
    expect((await collect(ch.exec(["sh", "-c", "kill -TERM $$"], {}))).exitCode).toBe(143);
    const missing = await collect(ch.exec(["no-such-program-hangar"], {}));
    expect(missing).toMatchObject({ exitCode: 127, stdout: "" });
    expect(missing.stderr).toContain("no-such-program-hangar: not found");
  });

  it("stdout and stderr apart, env merged over the agent's, PATH from the request", async () => {
    const { ch } = await open();
    const r = await collect(ch.exec(["sh", "-c", 'echo "out $FOO"; echo err >&2'], { FOO: "bar baz" }));
    expect(r).toMatchObject({ stdout: "out bar baz\n", stderr: "err\n", exitCode: 0 });
    const home = await collect(ch.exec(["sh", "-c", 'test -n "$PATH" && echo ok'], {}));
    expect(home.stdout).toBe("ok\n");
    expect((await collect(ch.exec(["true"], { PATH: "/nonexistent" }))).exitCode).toBe(127);
  });

  it("one output chunk per read: a slow writer's lines arrive as separate chunks, before the exit", async () => {
    const { ch } = await open();
    const p = ch.exec(["sh", "-c", "echo a; sleep 0.2; echo b; sleep 0.2; echo c"], {});
    const seen: string[] = [];
    for await (const c of p.output()) seen.push(c.data.toString());
    expect(seen).toEqual(["a\n", "b\n", "c\n"]);
    expect((await p.exited).exitCode).toBe(0);
  });

  it("stdin with EOF, and 8 MiB through cat with backpressure both ways", async () => {
    const { ch } = await open();
    const p = ch.exec(["cat"], {});
    await p.write(Buffer.from("line\n"));
    p.closeStdin();
    expect(await collect(p)).toMatchObject({ stdout: "line\n", exitCode: 0 });
    const big = Buffer.alloc(8 << 20, 0x61);
    const q = ch.exec(["cat"], {});
    const reading = (async () => {
      let n = 0;
      for await (const c of q.output()) n += c.data.length;
      return n;
    })();
    await q.write(big);
    q.closeStdin();
    expect(await reading).toBe(big.length);
    expect((await q.exited).exitCode).toBe(0);
  });

  it("output of many windows flows, acknowledged in batches, not per chunk", async () => {
    const sent: Buffer[] = [];
    const { ch } = await open(sent);
    const size = 8 << 20; // eight times the agent's 1 MiB output window
    const p = ch.exec(["head", "-c", String(size), "/dev/zero"], {});
    p.closeStdin();
    let n = 0,
      chunks = 0;
    for await (const c of p.output()) {
      n += c.data.length;
      chunks++;
    }
    expect(n).toBe(size);
    expect((await p.exited).exitCode).toBe(0);
    const acks = sent.filter((b) => b[0] === "A".charCodeAt(0));
    // Every acknowledgement is at least a batch, and together they never exceed what was read.
    expect(acks.every((b) => b.readUInt32BE(9) >= ACK_BATCH)).toBe(true);
    expect(acks.reduce((a, b) => a + b.readUInt32BE(9), 0)).toBeLessThanOrEqual(size);
    expect(acks.length).toBeLessThanOrEqual(Math.ceil(size / ACK_BATCH));
    expect(chunks).toBeGreaterThan(acks.length * 2);
  });

  it("a consumer that does not read stalls only its own command", async () => {
    const { ch } = await open();
    const flood = ch.exec(["sh", "-c", "head -c 50000000 /dev/zero"], {});
    const it = flood.output()[Symbol.asyncIterator]();
    await it.next(); // read one chunk, then stop reading
    const t0 = Date.now();
    expect((await collect(ch.exec(["echo", "still here"], {}))).stdout).toBe("still here\n");
    expect(Date.now() - t0).toBeLessThan(5000);
    await flood.kill();
  });

  it("kill takes down the whole tree, including a child in its own process group", async () => {
    const { ch } = await open();
    const p = ch.exec(["sh", "-c", "setsid sleep 1000 & echo $!; sleep 1000"], {});
    const it = p.output()[Symbol.asyncIterator]();
    const first = await it.next();
    const bgPid = Number(String(first.value?.data).trim());
    expect(bgPid).toBeGreaterThan(1);
    await p.kill();
    for (;;) if ((await it.next()).done) break;
    expect((await p.exited).exitCode).toBe(137);
    const alive = () => {
      try {
        return !/\) [ZX] /.test(readFileSync(`/proc/${bgPid}/stat`, "utf8"));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(alive()).toBe(false);
  });

  it("many commands at once keep their own output and exit codes", async () => {
    const { ch } = await open();
    const rs = await Promise.all(Array.from({ length: 64 }, (_, i) => collect(ch.exec(["sh", "-c", `echo ${i}; exit ${i % 7}`], {}))));
    rs.forEach((r, i) => expect(r).toMatchObject({ stdout: `${i}\n`, exitCode: i % 7 }));
    expect(ch.running).toBe(0);
  });

  it("the agent going away fails running commands with UNAVAILABLE and closes the channel", async () => {
    const { ch, child } = await open();
    const p = ch.exec(["sleep", "1000"], {});
    child.kill("SIGKILL");
    await expect(p.exited).rejects.toThrow(/exec channel .* closed/);
    expect(ch.closed).toBe(true);
    expect(() => ch.exec(["true"], {})).toThrow(/closed/);
  });

  it("closing the agent's stdin kills the commands it started", async () => {
    const { ch, child } = await open();
    const p = ch.exec(["sh", "-c", "echo $$; sleep 1000"], {});
    const it = p.output()[Symbol.asyncIterator]();
    const pid = Number(String((await it.next()).value?.data).trim());
    const exited = new Promise((r) => child.once("exit", r));
    ch.close();
    await exited;
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      try {
        gone = /\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        gone = true;
      }
      if (!gone) await new Promise((r) => setTimeout(r, 20));
    }
    expect(gone).toBe(true);
  });
});

describe("starting the agent in a pod (agent-link's argv, run by a real sh)", () => {
  const sh = (argv: string[]) => spawnSync(argv[0] as string, argv.slice(1), { encoding: "utf8" });
  it("runs the first copy that exists (the image's before the one installed through exec) and exits 120 when there is none", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hangar-agent-argv-"));
    const [first, second] = [path.join(dir, "mounted"), path.join(dir, "installed")];
    writeFileSync(second, '#!/bin/sh\necho second "$0"\n', { mode: 0o755 });
    expect(sh(startArgv(first, second))).toMatchObject({ status: 0, stdout: `second ${second}\n` });
    writeFileSync(first, '#!/bin/sh\necho first "$0"\n', { mode: 0o755 });
    expect(sh(startArgv(first, second))).toMatchObject({ status: 0, stdout: `first ${first}\n` });
    writeFileSync(path.join(dir, "not-executable"), "#!/bin/sh\necho no\n", { mode: 0o644 });
    expect(sh(startArgv(path.join(dir, "not-executable"), path.join(dir, "missing"))).status).toBe(120);
    const b = agentBinary(Buffer.from("agent"));
    expect(b.mounted).toBe(`/.hangar-agent/hangar-agent-${b.path.slice(-16)}`);
    expect(b.path).toMatch(/^\/tmp\/\.hangar-agent-[0-9a-f]{16}$/);
  });
});
