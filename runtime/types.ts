/**
 * The Runtime interface: what the controller needs from a place that runs sandboxes.
 * The embedded local runtime (runtime/local) and the Kubernetes runtime implement it;
 * the controller cannot tell them apart.
 */
import type { RunnerInfo, SandboxSpec } from "../core/types.js";

export interface StartedSandbox {
  /** Human-readable note on how the image was realised, shown in the sandbox status. */
  imageNote: string;
  startedAtMs: number;
}

export interface ExitInfo {
  exitCode: number;
  reason: string;
  endedAtMs: number;
  /** Set when the main process never ran (e.g. its command does not exist). */
  startFailure?: string;
}

export interface RuntimeEvents {
  /** The sandbox's main process ended (on its own, or after stop()). Called once, after start() settled. */
  onExit(id: string, exit: ExitInfo): void;
}

export interface OutputChunk {
  stream: "stdout" | "stderr";
  data: Buffer;
}

export interface ExecOptions {
  argv: string[];
  env?: Record<string, string>;
  tty?: { cols: number; rows: number };
}

/** A running command. Output chunks are single pipe reads; pulling slowly applies backpressure. */
export interface ExecProcess {
  /** Resolves when the data has been handed to the process's stdin (backpressure). */
  write(data: Buffer): Promise<void>;
  /** Closes stdin: the process reads EOF. Idempotent. */
  closeStdin(): void;
  resize(cols: number, rows: number): void;
  output(): AsyncIterable<OutputChunk>;
  /** Resolves after the process exited AND its stdout/stderr were drained. */
  readonly exited: Promise<{ exitCode: number }>;
  /** Kills the command's whole process tree; resolves once it is gone. */
  kill(): Promise<void>;
}

export interface LogOptions {
  follow: boolean;
  tailLines: number;
  sinceMs?: number;
  timestamps: boolean;
  signal: AbortSignal;
}

export interface Runtime {
  readonly name: string;
  /** The places sandboxes can run (discovery lists them; runner_ids pick among them). */
  runners(): RunnerInfo[];
  /** Starts the sandbox on the given runner; resolves when commands can be exec'd in it. */
  start(id: string, spec: SandboxSpec, events: RuntimeEvents, runnerId: string): Promise<StartedSandbox>;
  /** Sends SIGTERM to the main process, SIGKILL after graceMs (0 = at once). Resolves quickly. */
  stop(id: string, graceMs: number): Promise<void>;
  exec(id: string, opts: ExecOptions): Promise<ExecProcess>;
  logs(id: string, opts: LogOptions): AsyncIterable<Buffer>;
  /** Frees what is left of a finished sandbox (files, logs). Idempotent. */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}
