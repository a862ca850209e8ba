/**
 * The local runtime's sandboxes: the one small state its rooms share (the options, the sandboxes
 * by id, the GPU pool and snapshot layers they hold, the launcher, the event stream), and how a
 * running sandbox is followed to its end (teardown, then one exit event).
 */
import type { ChildProcess } from "node:child_process";
import { errors } from "../../core/errors.js";
import { endedBySignal, exitCodeOf, exitCodeOfSignal } from "../../core/exit-code.js";
import type { SandboxSpec } from "../../core/types.js";
import type { RuntimeEvent } from "../types.js";
import type { CgroupSet } from "./cgroups.js";
import type { GpuPool } from "./gpus.js";
import type { Launcher } from "./launcher.js";
import type { LogStore } from "./log-store.js";
import type { LocalRuntimeOptions } from "./options.js";
import { killTree } from "./proc-tree.js";
import type { SnapshotLayers } from "./snapshot-layers.js";

export interface LocalSandbox {
  id: string;
  dir: string;
  spec: SandboxSpec;
  main: ChildProcess;
  initPid?: number;
  cgroups: CgroupSet;
  logs: LogStore;
  env: Record<string, string>;
  exited: Promise<void>;
  killedBySignal?: number;
  cpuMillicores: number;
  memoryBytes: number;
  /** The uid that owns the sandbox's user namespace (Hangar is root), released at teardown. */
  slot?: number;
  /** The sandbox's user-mode network relay, when egress is allowed. */
  pasta?: ChildProcess;
}

/** What the local runtime's rooms share. */
export interface LocalState {
  readonly o: LocalRuntimeOptions;
  readonly sandboxes: Map<string, LocalSandbox>;
  readonly launcher: Launcher;
  /** A GPU sandbox holds its devices from its start until its teardown. */
  readonly gpuPool?: GpuPool;
  /** Restores mount a snapshot unpacked once (Hangar root); a sandbox holds its layers until its teardown. */
  readonly layers?: Promise<SnapshotLayers>;
  emit(e: RuntimeEvent): void;
}

/** The main process exited or was killed (a killed process has a signal and no exit code). */
export const ended = (sb: LocalSandbox) => sb.main.exitCode !== null || sb.main.signalCode !== null;

export function getSandbox(s: LocalState, id: string): LocalSandbox {
  const sb = s.sandboxes.get(id);
  if (!sb) throw errors.sandboxNotFound(id);
  return sb;
}

export type SandboxParts = Omit<LocalSandbox, "exited" | "initPid" | "killedBySignal" | "pasta">;

/**
 * The sandbox, in the map and followed to its end: when its main command ends, everything in it
 * ends; once torn down (and its start settled), one exit event. settle(): the start is done.
 */
export function trackSandbox(
  s: LocalState,
  parts: SandboxParts,
  ends: { killAll(sb: LocalSandbox, reason: string): Promise<void>; teardown(sb: LocalSandbox): Promise<void> },
): { sb: LocalSandbox; settle: () => void } {
  const { main, logs, id } = parts;
  // When the main command ends, the sandbox ends: bubblewrap's init would otherwise wait for every
  // process left in the sandbox (and keep the output pipes, so "close", open).
  main.once("exit", () => {
    void ends.killAll(sb, "exit");
    if (sb.initPid) void killTree(sb.initPid);
  });
  let settle: () => void = () => undefined;
  const startSettled = new Promise<void>((r) => (settle = r));
  const sb: LocalSandbox = {
    ...parts,
    exited: new Promise<void>((resolve) => {
      main.once("close", (code, signal) => {
        logs.end();
        const exitCode =
          sb.killedBySignal !== undefined && (code === null || code === 1 || endedBySignal(code))
            ? exitCodeOfSignal(sb.killedBySignal)
            : exitCodeOf(code, signal);
        const last = logs.lastLine() ?? "";
        const startFailure = /^bwrap: (execvp|Can't)/.test(last) ? last : undefined;
        const endedAtMs = Date.now();
        void ends
          .teardown(sb)
          .then(() => startSettled)
          .then(() => new Promise((r) => setImmediate(r)))
          .finally(() => {
            s.emit({
              t: "exit",
              id,
              exit: {
                exitCode,
                reason: sb.killedBySignal ? `killed by signal ${sb.killedBySignal}` : `main process exited with code ${exitCode}`,
                endedAtMs,
                startFailure,
              },
            });
            resolve();
          });
      });
    }),
  };
  s.sandboxes.set(id, sb);
  return { sb, settle };
}
