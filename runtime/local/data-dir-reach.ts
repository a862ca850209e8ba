/**
 * Whether sandboxes can reach the local runtime's data dir. When Hangar is root each sandbox
 * starts as an unprivileged slot uid, which must traverse every directory above the data dir
 * (bubblewrap mounts the sandbox's root, files and helpers from there). A data dir under a
 * directory "other" cannot search (a `mktemp -d`, mode 0700) would fail every sandbox's start;
 * Hangar refuses to start instead, naming the fix (cmd/main.ts; prepare.ts checks again).
 */
import { statSync } from "node:fs";
import path from "node:path";

/** The directories a slot uid must search to reach `dataDir`, nearest first (the data dir itself is Hangar's: it is made 0711). */
export function ancestors(dataDir: string): string[] {
  const out: string[] = [];
  for (let d = path.dirname(path.resolve(dataDir)); ; d = path.dirname(d)) {
    out.push(d);
    if (d === path.dirname(d)) return out;
  }
}

/**
 * The problem with `dataDir`, or undefined when slot uids can reach it (pure: `modeOf` gives a
 * directory's permission bits, undefined when it does not exist yet; a missing one is skipped,
 * as Hangar makes it). The first ancestor without "other" search (o+x) is named.
 */
export function unreachableDataDir(dataDir: string, modeOf: (dir: string) => number | undefined): string | undefined {
  for (const d of ancestors(dataDir)) {
    const mode = modeOf(d);
    if (mode === undefined || (mode & 0o001) !== 0) continue;
    const bits = (mode & 0o777).toString(8).padStart(4, "0");
    return `HANGAR_DATA_DIR ${dataDir} is not reachable by sandbox uids (mode ${bits} on ${d}): chmod o+x ${d} (e.g. chmod 711) or choose another dir`;
  }
  return undefined;
}

/** unreachableDataDir over this machine's file system. */
export const checkDataDir = (dataDir: string): string | undefined =>
  unreachableDataDir(dataDir, (d) => {
    try {
      return statSync(d).mode;
    } catch {
      return undefined;
    }
  });
