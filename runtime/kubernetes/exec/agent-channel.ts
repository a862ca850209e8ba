/**
 * The Hangar side of the persistent exec channel (ADR 0008): many commands multiplexed over
 * one byte stream to hangar-agent (agent/main.go) running in the sandbox. Each command is an
 * ExecProcess with the same semantics as plain exec (agent-command.ts). When the stream ends,
 * every command on it fails with UNAVAILABLE and the channel reports itself closed (callers fall
 * back to plain exec). Transport-agnostic: the Kubernetes exec websocket carries it in
 * production, a local child process in unit tests.
 */
import { errors } from "../../../core/errors.js";
import type { ExecProcess } from "../../types.js";
import { type AgentCommand, createAgentCommand } from "./agent-command.js";
import type { CgroupWant } from "../pool/caps.js";
import { AGENT_VERSION, encodeFrame, type Frame, FrameParser } from "./agent-frames.js";

export interface Transport {
  send(frame: Buffer): void;
  close(): void;
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
  /**
   * A reusable pool pod (ADR 0040): asks the agent for a fresh cell — every process of the current
   * one is gone when this resolves (with the supervisor's timings); rejects with its reason.
   */
  /** A fresh cell (ADR 0040); with volumes (JSON, ADR 0042) made with the claim's scratch volumes before it answers. */
  reset(volumes?: string): Promise<CellReset>;
  /**
   * A sized pool's claim (ADR 0043): resolves once the pod's own cgroup shows these limits (the
   * kubelet applied the resize), rejects with the agent's reason (not within its bound).
   */
  awaitLimits(want: CgroupWant): Promise<{ waitedMs: number }>;
}

export interface CellReset {
  killedMs: number;
  readyMs: number;
}

type Listened = { port: number; cert: string };

/** The one listen request (ADR 0022) that may wait for the agent's reply at a time. */
function createListenRequests(send: (frame: Buffer) => void) {
  let listening: { resolve(v: Listened): void; reject(e: unknown): void } | undefined;
  return {
    ask(token: Buffer, first: number, count: number): Promise<Listened> {
      if (listening) return Promise.reject(new Error("a listen request is already waiting"));
      const p = new Promise<Listened>((resolve, reject) => (listening = { resolve, reject }));
      send(encodeFrame("L", 0, Buffer.from(JSON.stringify({ token: token.toString("hex"), first, count }))));
      return p;
    },
    /** The agent's L frame. */
    reply(payload: Buffer) {
      const l = listening;
      listening = undefined;
      let reply: { port?: unknown; cert?: unknown; error?: unknown } = {};
      try {
        reply = JSON.parse(payload.toString()) as typeof reply;
      } catch {
        reply = { error: "an unreadable reply" };
      }
      if (typeof reply.port === "number" && typeof reply.cert === "string") l?.resolve({ port: reply.port, cert: reply.cert });
      else l?.reject(new Error(`the agent did not listen: ${String(reply.error ?? "no port in its reply").slice(0, 200)}`));
    },
    fail(reason: string) {
      listening?.reject(new Error(`the exec channel closed: ${reason}`));
      listening = undefined;
    },
  };
}

/**
 * Requests of one kind (R: a fresh cell, ADR 0040; Q: the cgroup's limits, ADR 0043) waiting for the
 * agent's frames of that kind, answered in order; `parse` turns a reply into the value or the reason.
 */
function createAsks<T>(kind: "R" | "Q", send: (frame: Buffer) => void, parse: (r: Record<string, unknown>) => T | string) {
  const waiting: { resolve(v: T): void; reject(e: unknown): void }[] = [];
  return {
    ask(payload?: string): Promise<T> {
      const p = new Promise<T>((resolve, reject) => waiting.push({ resolve, reject }));
      send(encodeFrame(kind, 0, payload ? Buffer.from(payload) : undefined));
      return p;
    },
    reply(payload: Buffer) {
      const w = waiting.shift();
      let r: Record<string, unknown> = {};
      try {
        r = JSON.parse(payload.toString()) as typeof r;
      } catch {
        r = { error: "an unreadable reply" };
      }
      const v = parse(r);
      if (typeof v === "string") w?.reject(new Error(v.slice(0, 300)));
      else w?.resolve(v);
    },
    fail(reason: string) {
      for (const w of waiting.splice(0)) w.reject(new Error(`the exec channel closed: ${reason}`));
    },
  };
}

const parseReset = (r: Record<string, unknown>): CellReset | string =>
  typeof r.killed_ms === "number" && typeof r.ready_ms === "number"
    ? { killedMs: r.killed_ms, readyMs: r.ready_ms }
    : `the cell was not reset: ${String(r.error ?? "no timings in the reply")}`;

const parseLimits = (r: Record<string, unknown>): { waitedMs: number } | string =>
  typeof r.waited_ms === "number" ? { waitedMs: r.waited_ms } : `the pod's limits did not apply: ${String(r.error ?? "no answer")}`;

/** A frame addressed to a command (O, E, W, X); the command is forgotten at its exit. */
function toCommand(procs: Map<number, AgentCommand>, f: Frame): void {
  const r = procs.get(f.id);
  if (!r) return;
  if (f.kind === "O" || f.kind === "E") {
    if (f.payload.length === 0) return;
    r.output(f.kind === "O" ? "stdout" : "stderr", f.payload);
  } else if (f.kind === "W" && f.payload.length === 4) r.written(f.payload.readUInt32BE(0));
  else if (f.kind === "X" && f.payload.length === 4) {
    procs.delete(f.id);
    r.exit(f.payload.readInt32BE(0));
  }
}

export function createAgentChannel(t: Transport): AgentChannel {
  const parser = new FrameParser();
  const procs = new Map<number, AgentCommand>();
  const send = (frame: Buffer) => t.send(frame);
  const listens = createListenRequests(send);
  const resets = createAsks("R", send, parseReset);
  const limits = createAsks("Q", send, parseLimits);
  let nextId = 1;
  let closed = false;
  let hello!: () => void;
  let helloFailed!: (e: unknown) => void;
  const ready = new Promise<void>((res, rej) => {
    hello = res;
    helloFailed = rej;
  });
  ready.catch(() => undefined);

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
      } else if (f.kind === "L") listens.reply(f.payload);
      else if (f.kind === "R") resets.reply(f.payload);
      else if (f.kind === "Q") limits.reply(f.payload);
      else toCommand(procs, f);
    }
  }

  function end(reason: string) {
    if (closed) return;
    closed = true;
    helloFailed(errors.unavailable(`the exec channel did not open: ${reason}`));
    listens.fail(reason);
    resets.fail(reason);
    limits.fail(reason);
    for (const r of procs.values()) r.fail(reason);
    procs.clear();
  }

  const whenOpen = <T>(ask: () => Promise<T>) => (closed ? Promise.reject(new Error("the exec channel is closed")) : ask());

  function exec(argv: string[], env: Record<string, string>): ExecProcess {
    if (closed) throw errors.unavailable("the exec channel is closed");
    const id = nextId++;
    const r = createAgentCommand(send, id, () => closed);
    procs.set(id, r);
    send(encodeFrame("S", id, Buffer.from(JSON.stringify({ argv, env }))));
    return r.process;
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
    listen: (token, first, count) => whenOpen(() => listens.ask(token, first, count)),
    reset: (volumes) => whenOpen(() => resets.ask(volumes)),
    awaitLimits: (want) => whenOpen(() => limits.ask(JSON.stringify(want))),
    close() {
      end("closed by Hangar");
      t.close();
    },
  };
}
