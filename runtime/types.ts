/**
 * The Runtime interface: what the controller needs from a place that runs sandboxes.
 * The embedded local runtime (runtime/local) and the Kubernetes runtime implement it;
 * the controller cannot tell them apart.
 */
import type { PullProgress } from "../core/pull-progress.js";
import type { StartSecrets } from "../core/secrets.js";
import type { TemplateStore } from "../core/templates.js";
import type { VolumeRegistry } from "../core/volumes.js";
import type { RunnerInfo, SandboxRecord } from "../core/types.js";

/** A snapshot's archive: a file of this host (read by the unpack directly) or, where the store has none, its bytes. */
export interface ArchiveSource {
  path?: string;
  open(): AsyncIterable<Uint8Array>;
}

export interface StartedSandbox {
  /** Human-readable note on how the image was realised, shown in the sandbox status. */
  imageNote: string;
  startedAtMs: number;
  /** The runtime already stored the record as RUNNING with this start (a warm claim): no second write. */
  stored?: true;
  /** Volumes the runtime filled from their snapshot's layer (spec restore.layer): no tar restore follows. */
  restored?: string[];
}

export interface ExitInfo {
  exitCode: number;
  reason: string;
  endedAtMs: number;
  /** Set when the main process never ran (e.g. its command does not exist). */
  startFailure?: string;
  /** Set when something other than the main process or a Hangar stop ended it (the pod was deleted, a platform deadline). */
  endedBy?: string;
  /** When the main process began, as the runtime saw it (Kubernetes: the container's startedAt): proof that it ran. */
  ranAtMs?: number;
}

/**
 * Everything a runtime tells the controller, as one typed stream (Runtime.subscribe): the
 * controller's only inputs from below besides the results of its own calls.
 */
export type RuntimeEvent =
  /** Why a starting sandbox is not running yet (the scheduler's reason, an image pull), when that changes; only before start() settles. */
  | { t: "progress"; id: string; reason: string; preparing?: boolean; pull?: PullProgress }
  /** The sandbox's record is durable (runtimes with `records`: the pod exists, or the pool pod was claimed). At most once, before start() resolves. */
  | { t: "stored"; id: string }
  /** The sandbox's main process ended (on its own, after stop(), or one this process did not start). Once per sandbox; for its own starts, after start() settled. */
  | { t: "exit"; id: string; exit: ExitInfo }
  /** A stored record, new or changed by another replica or from before a restart (runtimes with `records`). */
  | { t: "record"; record: SandboxRecord }
  /** A start another replica began was finished here, that replica being gone (ADR 0014). */
  | { t: "started"; id: string; started: StartedSandbox };

export interface OutputChunk {
  stream: "stdout" | "stderr";
  data: Buffer;
}

export interface ExecOptions {
  argv: string[];
  /** A sidecar's name (SandboxSpec.sidecars): the command runs there; unset: the primary container. */
  sidecar?: string;
  env?: Record<string, string>;
  tty?: { cols: number; rows: number };
  /**
   * The caller will send no input: the command starts with an empty stdin (reads EOF at once)
   * instead of a pipe that a later closeStdin() ends. On Kubernetes this opens the exec without a
   * stdin stream, so EOF does not depend on the stream-close signal crossing the apiserver.
   */
  noInput?: boolean;
  /**
   * The command moves a lot of data (a snapshot's archive): on Kubernetes it waits for the pod's
   * exec agent to finish opening (its direct link, ADR 0022) instead of taking plain exec through
   * the apiserver meanwhile. Same semantics either way.
   */
  bulk?: boolean;
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
  /** A sidecar's log instead of the primary's. */
  sidecar?: string;
  /** Resume: start at this raw byte offset of the sandbox's log (tail and since are then ignored). */
  fromOffset?: number;
}

/** A piece of a sandbox's log. */
export interface LogChunk {
  data: Buffer;
  /**
   * The raw log bytes up to the end of this piece, counted from the start of the log (timestamp
   * prefixes not counted): what a reader resumes from. Absent on Hangar's own notes (a dropped-output
   * marker) and where the runtime cannot place the piece.
   */
  end?: number;
}

/** Resuming a log at an offset it cannot serve: REPLAY_GAP (no longer kept) or INVALID_RESUME_OFFSET (past its end). */
export class LogResumeError extends Error {
  constructor(
    readonly code: "REPLAY_GAP" | "INVALID_RESUME_OFFSET",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Records that outlive this Hangar process (the Kubernetes runtime keeps them on the pods, so
 * a restarted Hangar or a second replica sees the same sandboxes). The local runtime keeps them
 * in files (ADR 0030): its sandboxes end with the process, their records answer after a restart.
 */
export interface DurableRecords {
  /**
   * Starts delivering stored records as "record" events (existing ones first, then each change
   * made by any replica), and the exits of sandboxes this process did not start. Resolves once the
   * stored records were delivered.
   */
  open(): Promise<void>;
  /** Stores the record's current state; saves of one sandbox land in call order. */
  save(r: SandboxRecord): Promise<void>;
  /**
   * Reads one sandbox's stored record now, past the watch (delivered as a "record" event when
   * found): another replica may have created it a moment ago. Resolves when the answer is in.
   */
  lookup?(id: string): Promise<void>;
}

export interface Runtime {
  readonly name: string;
  readonly records?: DurableRecords;
  /** Where sandbox templates are kept (durable, shared by replicas); absent = templates refused. */
  readonly templates?: TemplateStore;
  /** The volumes the operator registered per tenant (core/volumes.ts); absent = registered volumes refused. */
  readonly volumes?: VolumeRegistry;
  /**
   * Copy-on-write restores (runtime/local/snapshot-layers.ts): a snapshot unpacked once, mounted
   * under each sandbox restored from it. Absent: a restore is tar -x inside the sandbox.
   */
  readonly layers?: { ensure(key: string, archive: ArchiveSource): Promise<void>; drop(key: string): Promise<void> };
  /** The places sandboxes can run (discovery lists them; runner_ids pick among them). */
  runners(): RunnerInfo[];
  /**
   * Starts the sandbox its record describes, on the record's runner; resolves when commands can be
   * exec'd in it. What the controller's admission decided (runner, runtime class, gVisor, egress,
   * lifetime) is on the record: a runtime reads it and never decides it again. A runtime with durable
   * records stores the record from the start. `secrets` are the values of spec.secrets by env var:
   * for this start only, never stored in the record or logged.
   */
  start(record: SandboxRecord, secrets?: StartSecrets): Promise<StartedSandbox>;
  /** Adds a listener to the runtime's events (the controller's, before records.open() and any start()); returns its removal. */
  subscribe(listener: (e: RuntimeEvent) => void): () => void;
  /** Sends SIGTERM to the main process, SIGKILL after graceMs (0 = at once). Resolves quickly. */
  stop(id: string, graceMs: number): Promise<void>;
  exec(id: string, opts: ExecOptions): Promise<ExecProcess>;
  logs(id: string, opts: LogOptions): AsyncIterable<LogChunk>;
  /**
   * The id of the sandbox's log timeline (offsets restart with a new one): resumable streams carry
   * it; undefined when this runtime cannot resume the log.
   */
  logSession?(id: string): string | undefined;
  /** Frees what is left of a finished sandbox (files, logs, its stored record). Idempotent. */
  remove(id: string): Promise<void>;
  close(): Promise<void>;
  /** What the runtime's watch of its sandboxes went through since start (metrics); absent: nothing to report. */
  watchStats?(): WatchStats;
  /** Commands started since start, by the path they took (metrics); absent: one path only. */
  execStats?(): ExecStats;
  /** Exec agent starts since start, by how the agent got into the pod (metrics); absent: no agent. */
  agentStats?(): Record<string, number>;
  /** Each warm pool's pods now and its claims and refills since start (metrics); absent: no pools. */
  poolStats?(): PoolStats[];
  /** Container statuses and events of a sandbox (Kubernetes: its pod's); undefined: unknown here. */
  describe?(id: string): Promise<SandboxDescription | undefined>;
  /** Starts since start that failed because the pod's network setup (hangar-netinit) failed (metrics); absent: no netinit. */
  netinitStats?(): { failures: number };
  /** Apiserver calls of the typed API clients since start, and their answers (metrics); absent: none counted. */
  apiStats?(): ApiCallCount[];
  /** Sandbox pods this replica holds no record for, now (metrics); absent: no pods. */
  podStats?(): { withoutRecord: number };
}

export interface ApiCallCount {
  /** HTTP method, and the resource the path names ("pods", "pods/log"). */
  verb: string;
  resource: string;
  /** The answer's status code, or "error" when none came; absent: calls sent. */
  code?: string;
  count: number;
}

/** What the runtime can tell about a sandbox beyond its record (the console's detail view). */
export interface SandboxDescription {
  containers: { name: string; image: string; state: string; reason: string; restarts: number; startedAtMs?: number }[];
  events: { atMs: number; type: string; reason: string; message: string; count: number }[];
}

export interface PoolStats {
  /** The pool's name (its pods' pool label). */
  pool: string;
  /** Target idle pods, idle pods now, and those of them claimable now (running, exec proven). */
  size: number;
  idle: number;
  ready: number;
  /** Claims since start: a pod claimed (hits) or none could be (misses: the create starts a pod of its own). */
  hits: number;
  misses: number;
  /** Refill pod creates this replica started since start, and those the apiserver refused. */
  refills: number;
  refillFailures: number;
}

export interface ExecStats {
  /** The exec agent's direct link to the pod (ADR 0022). */
  direct: number;
  /** The exec agent's channel through the apiserver (ADR 0008). */
  agent: number;
  /** One exec websocket per command. */
  plain: number;
}

export interface WatchStats {
  /** Full relists after the first list: the watch expired (410 Gone, e.g. across an apiserver restart) and had to start over. */
  relists: number;
}
