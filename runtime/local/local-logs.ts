/** A local sandbox's output, as its log store keeps it. */
import type { LogChunk, LogOptions } from "../types.js";
import { getSandbox, type LocalState } from "./local-sandboxes.js";

export async function* localLogs(s: LocalState, restored: (id: string) => boolean, id: string, opts: LogOptions): AsyncIterable<LogChunk> {
  if (!s.sandboxes.has(id) && restored(id)) return; // its output died with the Hangar that ran it (ADR 0030)
  yield* getSandbox(s, id).logs.read(opts);
}

export const logSession = (s: LocalState, id: string) => s.sandboxes.get(id)?.logs.session;
