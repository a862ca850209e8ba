/** Where templates and snapshots are kept: the shared templates file and the snapshot store. */
import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, type Env } from "./config-env.js";

export function readStorage(env: Env, at: { runtime: "local" | "kubernetes"; dataDir: string }) {
  const sharedTemplatesFile = env.str("HANGAR_SHARED_TEMPLATES_FILE", "") || undefined;
  const snapshotDirText = env.str("HANGAR_SNAPSHOT_DIR", "");
  if (snapshotDirText && snapshotDirText !== "off" && !path.isAbsolute(snapshotDirText))
    throw new ConfigError(`HANGAR_SNAPSHOT_DIR=${snapshotDirText}: an absolute path (or "off")`);
  const snapshotMaxBytes = env.int("HANGAR_SNAPSHOT_MAX_BYTES", 10 * 1024 ** 3, 1024 * 1024, Number.MAX_SAFE_INTEGER);
  const snapshotsPerTenant = env.int("HANGAR_SNAPSHOTS_PER_TENANT", 1000, 1, 1_000_000);
  if (sharedTemplatesFile && !existsSync(sharedTemplatesFile))
    throw new ConfigError(`HANGAR_SHARED_TEMPLATES_FILE=${sharedTemplatesFile}: no such file`);
  return {
    sharedTemplatesFile,
    // Snapshots: the local runtime keeps them in its data dir by default; on Kubernetes the operator names storage every replica mounts.
    snapshots:
      snapshotDirText === "off" || (!snapshotDirText && at.runtime !== "local")
        ? undefined
        : {
            dir: path.resolve(snapshotDirText || path.join(at.dataDir, "snapshots")),
            maxBytes: snapshotMaxBytes,
            perTenant: snapshotsPerTenant,
          },
  };
}
