/**
 * A local data dir that cannot work stops Hangar at start, with the fix (runtime/local/data-dir-reach.ts):
 * made if missing (as the runtime would), then every directory above it must let the sandboxes'
 * slot uids through. Only when Hangar is root with isolation: otherwise no slot uid reaches it.
 */
import { mkdirSync } from "node:fs";
import { checkDataDir } from "../runtime/local/data-dir-reach.js";

export function dataDirProblem(dataDir: string): string | undefined {
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    return `HANGAR_DATA_DIR ${dataDir} cannot be made: ${(e as Error).message}`;
  }
  return checkDataDir(dataDir);
}
