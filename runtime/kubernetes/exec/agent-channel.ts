/**
 * The Hangar side of the persistent exec channel (ADR 0008): many commands multiplexed over
 * one byte stream to hangar-agent (agent/main.go) running in the sandbox. Each command is an
 * ExecProcess with the same semantics as plain exec: one output chunk per pipe read, stdin
 * with EOF and backpressure (the agent acknowledges what it wrote), output flow control (a
 * window per command, so one slow reader does not stall the others), kill of the whole
 * process tree, exact exit codes. When the stream ends, every command on it fails with
 * UNAVAILABLE and the channel reports itself closed (callers fall back to plain exec).
 * Transport-agnostic: the Kubernetes exec websocket carries it in production, a local child
 * process in unit tests.
 */
import { errors } from "../../../core/errors.js";
import { KILL_RETRY_BOUND_MS, KillFailed, killRetryDelays } from "../../../core/kill.js";
import { createOutputQueue, type OutputQueue } from "../../exec-output.js";
import type { ExecProcess, OutputChunk } from "../../types.js";

export const AGENT_VERSION = "hangar-agent/1";
const HEADER = 9;
const MAX_FRAME = 1 << 20;
/** Unacknowledged stdin per command before write() waits (the agent's window is the same size for output). */
const STDIN_WINDOW = 1 << 20;
const STDIN_FRAME = 64 << 10;
/**
 * Acknowledge consumed output in batches of this much. The agent stops a command's output only
 * when a whole window (1 MiB, agent/main.go) is unacknowledged, and what is consumed but not yet
 * acknowledged stays below this batch, so the agent always has at least the window minus the
 * batch to send. Each acknowledgement is a masked websocket frame, a TLS record and a socket
 * write through the apiserver: acknowledging every chunk (the queue is empty after almost every
 * one) cost ~2 ms of Hangar's CPU per MiB relayed.
 */
export const ACK_BATCH = 256 << 10;

export interface Transport {
  send(frame: Buffer): void;
  close(): void;
}

export function encodeFrame(kind: string, id: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const b = Buffer.allocUnsafe(HEADER + payload.length);
  b[0] = kind.charCodeAt(0);
  b.writeUInt32BE(id, 1);
  b.writeUInt32BE(payload.length, 5);
  payload.copy(b, HEADER);
  return b;
}

const u32 = (n: number) => {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(n >>> 0, 0);
  return b;
};

/**
 * Splits a byte stream into frames; throws on a frame no agent sends (the channel is then dropped).
 * A frame that arrives in pieces (TLS hands over at most 16 KiB at a time) is kept as the list of
 * its pieces and joined once, when the last one is in: joining at every piece copied a 1 MiB frame
 * some 64 times.
 */
export class FrameParser {
  private buf: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes the frame at the head of `buf` needs in all (header + payload); 0 while unknown. */
  private need = 0;
  push(data: Buffer): { kind: string; id: number; payload: Buffer }[] {
    if (this.pending.length) {
      this.pending.push(data);
      this.pendingBytes += data.length;
      if (this.pendingBytes < this.need) return [];
      this.buf = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    } else this.buf = this.buf.length ? Buffer.concat([this.buf, data]) : data;
    const out: { kind: string; id: number; payload: Buffer }[] = [];
    this.need = 0;
    while (this.buf.length >= HEADER) {
      const len = this.buf.readUInt32BE(5);
      if (len > MAX_FRAME) throw new Error(`agent frame of ${len} bytes exceeds ${MAX_FRAME}`);
      if (this.buf.length < HEADER + len) {
        // Wait for the rest without copying what is here on every piece.
        this.need = HEADER + len;
        this.pending = [this.buf];
        this.pendingBytes = this.buf.length;
        this.buf = Buffer.alloc(0);
        break;
      }
      out.push({
        kind: String.fromCharCode(this.buf[0] ?? 0),
        id: this.buf.readUInt32BE(1),
        payload: this.buf.subarray(HEADER, HEADER + len),
      });
      this.buf = this.buf.subarray(HEADER + len);
    }
    return out;
  }
}

/**
 * Output chunks are relayed as one message each (a gRPC message, a protobuf copy, HTTP/2 frames):
 * chunks of one stream waiting together are joined, up to this size, so a command that writes
 * faster than its caller reads costs fewer, larger messages (bench/grpc-stream-probe.mjs, this
 * machine: 10.1 ms of server CPU per MiB in 16 KiB messages, 5.9 in 256 KiB ones).
 */
export const JOIN_BYTES = 256 * 1024;

/** The next chunk to relay: the queue's first, joined with the chunks of its stream right behind it (up to JOIN_BYTES). */
export function takeJoined(queue: OutputChunk[], max = JOIN_BYTES): OutputChunk | undefined {
  const first = queue.shift();
  if (!first || !queue.length || queue[0]?.stream !== first.stream || first.data.length >= max) return first;
  const parts = [first.data];
  let bytes = first.data.length;
  while (queue.length && queue[0]?.stream === first.stream && bytes + (queue[0]?.data.length ?? 0) <= max) {
    const c = queue.shift() as OutputChunk;
    parts.push(c.data);
    bytes += c.data.length;
  }
  return parts.length === 1 ? first : { ...first, data: Buffer.concat(parts, bytes) };
}

interface Running {
  out: OutputQueue;
  ended: boolean;
  unacked: number;
  stdinOutstanding: number;
  stdinWaiters: (() => void)[];
  resolve(v: { exitCode: number }): void;
  reject(e: unknown): void;
  exitCode?: number;
  onExit: (() => void)[];
}

export interface AgentChannel {
  /** Resolves once the agent said hello; rejects if the stream ended first. */
  readonly ready: Promise<void>;
  readonly closed: boolean;
  exec(argv: string[], env: Record<string, string>): ExecProcess;
  /** Bytes from the transport. */
  receive(data: Buffer): void;
  /** The transport ended (or failed): fail what runs and refuse new commands. */
  end(reason: string): void;
  close(): void;
  readonly running: number;
  /**
   * Asks the agent to open its direct link (ADR 0022) on the first free port of `first`..`first+count-1`,
   * accepting connections that present `token` (32 bytes); resolves with the port and the agent's
   * own certificate, rejects with the agent's reason.
   */
  listen(token: Buffer, first: number, count: number): Promise<{ port: number; cert: string }>;
}

export function createAgentChannel(t: Transport): AgentChannel {
  const parser = new FrameParser();
  const procs = new Map<number, Running>();
  let nextId = 1;
  let closed = false;
  let hello!: () => void;
  let helloFailed!: (e: unknown) => void;
  const ready = new Promise<void>((res, rej) => {
    hello = res;
    helloFailed = rej;
  });
  ready.catch(() => undefined);
  let listening: { resolve(v: { port: number; cert: string }): void; reject(e: unknown): void } | undefined;

  function receive(data: Buffer) {
    if (closed) return;
    let frames;
    try {
      frames = parser.push(data);
    } catch (e) {
      end((e as Error).message);
      t.close();
      return;
    }
    for (const f of frames) {
      if (f.kind === "H") {
        if (f.payload.toString() === AGENT_VERSION) hello();
        else {
          end(`agent version ${f.payload.toString().slice(0, 40)} is not ${AGENT_VERSION}`);
          t.close();
          return;
        }
        continue;
      }
      if (f.kind === "L") {
        const l = listening;
        listening = undefined;
        let reply: { port?: unknown; cert?: unknown; error?: unknown } = {};
        try {
          reply = JSON.parse(f.payload.toString()) as typeof reply;
        } catch {
          reply = { error: "an unreadable reply" };
        }
        if (typeof reply.port === "number" && typeof reply.cert === "string") l?.resolve({ port: reply.port, cert: reply.cert });
        else l?.reject(new Error(`the agent did not listen: ${String(reply.error ?? "no port in its reply").slice(0, 200)}`));
        continue;
      }
      const r = procs.get(f.id);
      if (!r) continue;
      if (f.kind === "O" || f.kind === "E") {
        if (f.payload.length === 0) continue;
        r.out.push(f.kind === "O" ? "stdout" : "stderr", Buffer.from(f.payload));
      } else if (f.kind === "W" && f.payload.length === 4) {
        r.stdinOutstanding -= f.payload.readUInt32BE(0);
        if (r.stdinOutstanding <= STDIN_WINDOW) for (const w of r.stdinWaiters.splice(0)) w();
      } else if (f.kind === "X" && f.payload.length === 4) {
        r.exitCode = f.payload.readInt32BE(0);
        r.ended = true;
        procs.delete(f.id);
        if (r.out.length === 0) r.resolve({ exitCode: r.exitCode });
        for (const w of r.stdinWaiters.splice(0)) w();
        for (const w of r.onExit.splice(0)) w();
        r.out.end();
      }
    }
  }

  function end(reason: string) {
    if (closed) return;
    closed = true;
    helloFailed(errors.unavailable(`the exec channel did not open: ${reason}`));
    listening?.reject(new Error(`the exec channel closed: ${reason}`));
    listening = undefined;
    for (const r of procs.values()) {
      r.ended = true;
      r.reject(errors.unavailable(`the exec channel to the sandbox closed while the command ran (${reason})`));
      for (const w of r.stdinWaiters.splice(0)) w();
      for (const w of r.onExit.splice(0)) w();
      r.out.end();
    }
    procs.clear();
  }

  function exec(argv: string[], env: Record<string, string>): ExecProcess {
    if (closed) throw errors.unavailable("the exec channel is closed");
    const id = nextId++;
    let resolve!: Running["resolve"];
    let reject!: Running["reject"];
    const exited = new Promise<{ exitCode: number }>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    exited.catch(() => undefined);
    const ack = () => {
      if (r.unacked >= ACK_BATCH && !r.ended && !closed) {
        t.send(encodeFrame("A", id, u32(r.unacked)));
        r.unacked = 0;
      }
    };
    const out = createOutputQueue({
      take: takeJoined,
      onTake: (next) => {
        r.unacked += next.data.length;
        ack();
      },
      onDrained: () => {
        if (r.exitCode !== undefined) r.resolve({ exitCode: r.exitCode });
      },
    });
    const r: Running = { out, ended: false, unacked: 0, stdinOutstanding: 0, stdinWaiters: [], resolve, reject, onExit: [] };
    procs.set(id, r);
    t.send(encodeFrame("S", id, Buffer.from(JSON.stringify({ argv, env }))));
    let stdinClosed = false;
    return {
      async write(data) {
        for (let off = 0; off < data.length && !stdinClosed && !r.ended; off += STDIN_FRAME) {
          const part = data.subarray(off, off + STDIN_FRAME);
          r.stdinOutstanding += part.length;
          t.send(encodeFrame("I", id, part));
          if (r.stdinOutstanding > STDIN_WINDOW) await new Promise<void>((w) => r.stdinWaiters.push(w));
        }
      },
      closeStdin() {
        if (stdinClosed) return;
        stdinClosed = true;
        if (!r.ended && !closed) t.send(encodeFrame("C", id));
      },
      resize() {
        // Commands on the channel have no terminal (TTY commands use plain exec).
      },
      output: () => out.output(),
      // Resolves at the exit frame when no output is queued, else once output() drained it.
      exited,
      /**
       * Asks the agent to kill the command's tree; resolves at its exit frame. No exit frame within
       * 2 s: asked again with backoff up to KILL_RETRY_BOUND_MS, then KillFailed (ADR 0032), never
       * a quiet return. A channel that closed took its commands with it (the agent kills what it
       * started when its stdin ends, ADR 0008).
       */
      async kill() {
        if (r.ended || closed) return;
        let gone = false;
        const exitSeen = new Promise<void>((w) => r.onExit.push(w)).then(() => void (gone = true));
        const wait = (ms: number) => new Promise<void>((w) => setTimeout(w, ms).unref());
        const deadline = Date.now() + KILL_RETRY_BOUND_MS;
        for (const pause of [0, ...killRetryDelays()]) {
          if (pause) await Promise.race([exitSeen, wait(Math.min(pause, deadline - Date.now()))]);
          if (gone || r.ended || closed) return;
          if (Date.now() >= deadline) break;
          t.send(encodeFrame("K", id));
          await Promise.race([exitSeen, wait(Math.min(2000, deadline - Date.now()))]);
          if (gone || r.ended || closed) return;
        }
        throw new KillFailed(
          `the exec agent did not report the command's end within ${KILL_RETRY_BOUND_MS / 1000}s of its kill`,
          "unconfirmed",
        );
      },
    };
  }

  return {
    ready,
    get closed() {
      return closed;
    },
    get running() {
      return procs.size;
    },
    exec,
    receive,
    end,
    listen(token, first, count) {
      if (closed) return Promise.reject(new Error("the exec channel is closed"));
      if (listening) return Promise.reject(new Error("a listen request is already waiting"));
      const p = new Promise<{ port: number; cert: string }>((resolve, reject) => (listening = { resolve, reject }));
      t.send(encodeFrame("L", 0, Buffer.from(JSON.stringify({ token: token.toString("hex"), first, count }))));
      return p;
    },
    close() {
      end("closed by Hangar");
      t.close();
    },
  };
}
