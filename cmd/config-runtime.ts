/**
 * Which runtime runs the sandboxes, and what every runtime shares: the data dir, the runner's
 * identity, the runtime-class selection per category, and the secret stores.
 */
import os from "node:os";
import path from "node:path";
import { parseSecretStores } from "../core/secrets.js";
import { ConfigError, listOf, type Env } from "./config-env.js";

export function readRuntimeChoice(env: Env) {
  const runtime = env.str("HANGAR_RUNTIME", "local");
  if (runtime !== "local" && runtime !== "kubernetes") throw new ConfigError(`HANGAR_RUNTIME=${runtime}: expected local or kubernetes`);
  const runtimeClassSelection: Record<string, string> = {};
  for (const item of listOf(env.str("HANGAR_RUNTIME_CLASS_SELECTION", ""))) {
    const m = /^(CPU_DEFAULT|CPU_NESTED_VIRT|CPU_SNAPSHOT_RESTORE|GPU_DEFAULT)=([a-z0-9]([-a-z0-9.]*[a-z0-9])?)?$/.exec(item);
    if (!m)
      throw new ConfigError(
        `HANGAR_RUNTIME_CLASS_SELECTION: "${item}": expected CATEGORY=runtimeclass (or CATEGORY= for the node's default), CATEGORY one of CPU_DEFAULT, CPU_NESTED_VIRT, CPU_SNAPSHOT_RESTORE, GPU_DEFAULT`,
      );
    runtimeClassSelection[m[1] as string] = m[2] ?? "";
  }
  const secretStores = parseSecretStores(env.str("HANGAR_SECRET_STORES", ""));
  if (typeof secretStores === "string") throw new ConfigError(`HANGAR_SECRET_STORES: ${secretStores}`);
  const kubeStore = secretStores.find((s) => s.kind === "kubernetes");
  if (kubeStore && runtime !== "kubernetes")
    throw new ConfigError(
      `HANGAR_SECRET_STORES: store "${kubeStore.name}" reads Kubernetes Secrets, which needs HANGAR_RUNTIME=kubernetes (use name=dir:/path/{tenant} with the local runtime)`,
    );
  const isRoot = process.getuid?.() === 0;
  const dataDir = path.resolve(env.str("HANGAR_DATA_DIR", isRoot ? "/var/lib/hangar" : path.join(os.homedir(), ".local/share/hangar")));
  return { runtime: runtime as "local" | "kubernetes", runtimeClassSelection, secretStores, dataDir };
}

/** The runner this process is (the Kubernetes runtime's default runner too) and the organization it serves. */
export function readRunner(env: Env) {
  const runnerId = env.str(
    "HANGAR_RUNNER_ID",
    `local-${os
      .hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")}`,
  );
  const runnerGroupId = env.str("HANGAR_RUNNER_GROUP_ID", "local");
  return { runnerId, runnerGroupId, organizationId: env.str("HANGAR_ORGANIZATION_ID", "hangar") };
}
