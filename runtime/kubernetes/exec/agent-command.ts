/**
 * One command on the exec agent's channel (ADR 0008), as an ExecProcess with the semantics of
 * plain exec: one output chunk per pipe read, stdin with EOF and backpressure (the agent
 * acknowledges what it wrote), output flow control (a window per command, so one slow reader does
 * not stall the others), kill of the whole process tree, exact exit codes. The channel
 * (agent-channel.ts) hands it the frames addressed to it.
 */
import { errors } from "../../../core/errors.js";
import { KILL_RETRY_BOUND_MS, KillFailed, killRetryDelays } from "../../../core/kill.js";
import { createOutputQueue, deferredExit, type OutputQueue } from "../../exec-output.js";
import type { ExecProcess, OutputChunk } from "../../types.js";
import { encodeFrame, u32 } from "./agent-frames.js";

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

/** What the channel does with a command: hand it its frames, fail it when the channel closes. */
export interface AgentCommand {
  readonly process: ExecProcess;
  /** An output frame (O or E). */
  output(stream: OutputChunk["stream"], payload: Buffer): void;
  /** The agent wrote this much of the command's stdin (W). */
  written(bytes: number): void;
  /** The command exited (X). */
  exit(code: number): void;
  /** The channel closed under the command. */
  fail(reason: string): void;
}

/** A command's state, shared by the channel's frames and its ExecProcess. */
interface Running {
  id: number;
  send(frame: Buffer): void;
  channelClosed(): boolean;
  out: OutputQueue;
  ended: boolean;
  unacked: number;
  stdinOutstanding: number;
  stdinWaiters: (() => void)[];
  onExit: (() => void)[];
  exitCode?: number;
}

/** Starts nothing: the channel sends the start frame. */
export function createAgentCommand(send: (frame: Buffer) => void, id: number, channelClosed: () => boolean): AgentCommand {
  const { exited, resolve, reject } = deferredExit();
  const ack = () => {
    if (r.unacked >= ACK_BATCH && !r.ended && !channelClosed()) {
      send(encodeFrame("A", id, u32(r.unacked)));
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
      if (r.exitCode !== undefined) resolve({ exitCode: r.exitCode });
    },
  });
  const r: Running = { id, send, channelClosed, out, ended: false, unacked: 0, stdinOutstanding: 0, stdinWaiters: [], onExit: [] };
  const wakeAll = () => {
    for (const w of r.stdinWaiters.splice(0)) w();
    for (const w of r.onExit.splice(0)) w();
    out.end();
  };
  return {
    process: agentProcess(r, exited),
    output: (stream, payload) => out.push(stream, Buffer.from(payload)),
    written(bytes) {
      r.stdinOutstanding -= bytes;
      if (r.stdinOutstanding <= STDIN_WINDOW) for (const w of r.stdinWaiters.splice(0)) w();
    },
    exit(code) {
      r.exitCode = code;
      r.ended = true;
      if (out.length === 0) resolve({ exitCode: code });
      wakeAll();
    },
    fail(reason) {
      r.ended = true;
      reject(errors.unavailable(`the exec channel to the sandbox closed while the command ran (${reason})`));
      wakeAll();
    },
  };
}

function agentProcess(r: Running, exited: Promise<{ exitCode: number }>): ExecProcess {
  let stdinClosed = false;
  return {
    async write(data) {
      for (let off = 0; off < data.length && !stdinClosed && !r.ended; off += STDIN_FRAME) {
        const part = data.subarray(off, off + STDIN_FRAME);
        r.stdinOutstanding += part.length;
        r.send(encodeFrame("I", r.id, part));
        if (r.stdinOutstanding > STDIN_WINDOW) await new Promise<void>((w) => r.stdinWaiters.push(w));
      }
    },
    closeStdin() {
      if (stdinClosed) return;
      stdinClosed = true;
      if (!r.ended && !r.channelClosed()) r.send(encodeFrame("C", r.id));
    },
    resize() {
      // Commands on the channel have no terminal (TTY commands use plain exec).
    },
    output: () => r.out.output(),
    // Resolves at the exit frame when no output is queued, else once output() drained it.
    exited,
    kill: () => killCommand(r),
  };
}

/**
 * Asks the agent to kill the command's tree; resolves at its exit frame. No exit frame within
 * 2 s: asked again with backoff up to KILL_RETRY_BOUND_MS, then KillFailed (ADR 0032), never
 * a quiet return. A channel that closed took its commands with it (the agent kills what it
 * started when its stdin ends, ADR 0008).
 */
async function killCommand(r: Running): Promise<void> {
  if (r.ended || r.channelClosed()) return;
  let gone = false;
  const exitSeen = new Promise<void>((w) => r.onExit.push(w)).then(() => void (gone = true));
  const wait = (ms: number) => new Promise<void>((w) => setTimeout(w, ms).unref());
  const deadline = Date.now() + KILL_RETRY_BOUND_MS;
  for (const pause of [0, ...killRetryDelays()]) {
    if (pause) await Promise.race([exitSeen, wait(Math.min(pause, deadline - Date.now()))]);
    if (gone || r.ended || r.channelClosed()) return;
    if (Date.now() >= deadline) break;
    r.send(encodeFrame("K", r.id));
    await Promise.race([exitSeen, wait(Math.min(2000, deadline - Date.now()))]);
    if (gone || r.ended || r.channelClosed()) return;
  }
  throw new KillFailed(`the exec agent did not report the command's end within ${KILL_RETRY_BOUND_MS / 1000}s of its kill`, "unconfirmed");
}
