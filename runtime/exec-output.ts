/**
 * The pull-based output queue of every ExecProcess (plain Kubernetes exec, the exec agent's
 * commands, local child processes): chunks are queued in arrival order as the source delivers
 * them, and output() hands them out as the consumer asks. Empty chunks are dropped. Optional flow
 * control pauses the source while the consumer is behind (more than `pauseAt` queued, in bytes or
 * chunks) and resumes it once the queue fell below `resumeBelow`. After end(), output() returns
 * once what is queued was taken; errors are not carried here (they reach the caller through
 * ExecProcess.exited). Several output() calls share the queue: a consumer that stops early leaves
 * the rest for the next one.
 */
import type { OutputChunk } from "./types.js";

export interface OutputFlow {
  /** What pauseAt and resumeBelow count. */
  unit: "bytes" | "chunks";
  /** Pause the source once this much is queued. */
  pauseAt: number;
  /** Resume it once a take left less than this queued. */
  resumeBelow: number;
  /** Pauses the source; false when it cannot be paused yet (tried again at the next chunk). */
  pause(): boolean | void;
  resume(): void;
}

export interface OutputQueueOptions {
  /** How the next chunk is taken off the queue (default: the first one). */
  take?: (queue: OutputChunk[]) => OutputChunk | undefined;
  flow?: OutputFlow;
  /** Each chunk as it is handed out, before the consumer sees it. */
  onTake?: (chunk: OutputChunk) => void;
  /** When output() found the queue ended and empty, before it returns. */
  onDrained?: () => void;
}

export interface OutputQueue {
  push(stream: OutputChunk["stream"], data: Buffer): void;
  /** No more output: output() returns once the queue is drained. */
  end(): void;
  readonly ended: boolean;
  /** Chunks queued. */
  readonly length: number;
  output(): AsyncGenerator<OutputChunk, void, undefined>;
}

export function createOutputQueue(o: OutputQueueOptions = {}): OutputQueue {
  const queue: OutputChunk[] = [];
  const take = o.take ?? ((q: OutputChunk[]) => q.shift());
  const flow = o.flow;
  let bytes = 0;
  let paused = false;
  let ended = false;
  let wake: (() => void) | undefined;
  const level = () => (flow?.unit === "bytes" ? bytes : queue.length);
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  return {
    push(stream, data) {
      if (data.length === 0) return;
      queue.push({ stream, data });
      bytes += data.length;
      if (flow && !paused && level() >= flow.pauseAt) paused = flow.pause() !== false;
      notify();
    },
    end() {
      ended = true;
      notify();
    },
    get ended() {
      return ended;
    },
    get length() {
      return queue.length;
    },
    async *output() {
      for (;;) {
        const next = take(queue);
        if (next) {
          bytes -= next.data.length;
          if (flow && paused && level() < flow.resumeBelow) {
            paused = false;
            flow.resume();
          }
          o.onTake?.(next);
          yield next;
          continue;
        }
        if (ended) {
          o.onDrained?.();
          return;
        }
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
}

/** A command's `exited` promise with its settlers; a rejection nobody awaits yet is not unhandled. */
export function deferredExit(): {
  exited: Promise<{ exitCode: number }>;
  resolve: (v: { exitCode: number }) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: { exitCode: number }) => void;
  let reject!: (e: unknown) => void;
  const exited = new Promise<{ exitCode: number }>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  exited.catch(() => undefined);
  return { exited, resolve, reject };
}
