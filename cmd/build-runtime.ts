/** The runtime the configuration chose, and the secret stores (HANGAR_SECRET_STORES) read through it. */
import type pino from "pino";
import { resolverOf, type SecretRef, type SecretResolver } from "../core/secrets.js";
import type { WarmPoolConfig } from "../runtime/kubernetes/pool/config.js";
import type { Runtime } from "../runtime/types.js";
import { buildKubeRuntime } from "./build-kube-runtime.js";
import { buildLocalRuntime } from "./build-local-runtime.js";
import type { Config } from "./config.js";

export async function buildRuntime(
  cfg: Config,
  log: pino.Logger,
  warmPools: WarmPoolConfig[],
  installDir: string,
): Promise<{ runtime: Runtime; kube?: { core: unknown } }> {
  if (cfg.runtime === "kubernetes") return buildKubeRuntime(cfg, log, warmPools);
  return { runtime: buildLocalRuntime(cfg, log, installDir) };
}

/** The secret stores: directories read here; Kubernetes Secrets through the runtime's client. */
export async function buildSecrets(cfg: Config, kube?: { core: unknown }): Promise<SecretResolver | undefined> {
  if (!cfg.secretStores.length) return undefined;
  const { readDirSecret } = await import("../runtime/local/secret-dir.js");
  const readKube = kube ? (await import("../runtime/kubernetes/stores/secret-store.js")).readKubeSecret : undefined;
  return resolverOf(
    cfg.secretStores.map((config) => ({
      config,
      get: (place: string, ref: SecretRef) =>
        config.kind === "dir" ? readDirSecret(place, ref) : readKube!(kube!.core as never, place, ref),
    })),
  );
}
