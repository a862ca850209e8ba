/**
 * When a local sandbox's command has started: bubblewrap named its init (the info pipe), then it
 * must write the user namespace's uid and gid maps and exec the command. RUNNING before that let
 * a prompt exec fail (nsenter: setgid) and a prompt stop reach the command before it could set
 * its signal handlers. A start that never gets there fails, saying which step it waited for: it
 * is never reported RUNNING.
 */
import { readFile, readlink } from "node:fs/promises";
import { errors } from "../../core/errors.js";

/** How long bubblewrap may take from naming its init to exec'ing the command. */
export const COMMAND_START_LIMIT_MS = 20_000;

export interface ProcReader {
  read(path: string): Promise<string>;
  readlink(path: string): Promise<string>;
  now(): number;
  sleep(ms: number): Promise<void>;
}

const procReader: ProcReader = {
  read: (p) => readFile(p, "utf8").catch(() => ""),
  readlink: (p) => readlink(p).catch(() => ""),
  now: Date.now,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/**
 * Resolves once the maps of `init` are written and one of its children runs something other than
 * bubblewrap (`bwrap`); rejects (UNAVAILABLE, naming the step) if that has not happened within
 * `limitMs`. The caller races this with the main process ending (a command that ended has started).
 */
export async function commandStarted(
  init: number,
  bwrap: string,
  limitMs = COMMAND_START_LIMIT_MS,
  p: ProcReader = procReader,
): Promise<void> {
  const until = p.now() + limitMs;
  let mapped = false;
  for (;;) {
    mapped = (await p.read(`/proc/${init}/uid_map`)).trim() !== "" && (await p.read(`/proc/${init}/gid_map`)).trim() !== "";
    if (mapped) {
      const kids = (await p.read(`/proc/${init}/task/${init}/children`)).split(" ").filter(Boolean);
      for (const k of kids) {
        const exe = await p.readlink(`/proc/${k}/exe`);
        if (exe && exe !== bwrap) return;
      }
    }
    if (p.now() >= until) break;
    await p.sleep(2);
  }
  const step = mapped ? "bubblewrap did not start the command" : "the sandbox's user namespace got no uid/gid maps";
  throw errors.unavailable(`the sandbox did not start within ${Math.round(limitMs / 1000)} s: ${step}`);
}
