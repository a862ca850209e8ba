/**
 * The Kubernetes runtime's settings (HANGAR_KUBE_*, HANGAR_NAMESPACE, KUBECONFIG): the cluster and
 * the pods' basics here, and through the sub-readers the exec agent, egress, public routes and node
 * placement. Read whichever runtime is chosen, so that a bad value is refused either way; what
 * only matters on Kubernetes (a kubeconfig, the netinit image, the agent's binary) is checked there.
 */
import { parseQuantity } from "../core/quantity.js";
import { parseWarmPools, type WarmPoolEntry } from "../runtime/kubernetes/pool/config.js";
import { ConfigError, type Env } from "./config-env.js";
import { readKubeAgent } from "./config-kube-agent.js";
import { readKubeEgress } from "./config-kube-egress.js";
import { readKubeNodes } from "./config-kube-nodes.js";
import { readPublic } from "./config-kube-public.js";

function readUserNamespaces(env: Env) {
  const userNamespaces = env.str("HANGAR_KUBE_USER_NAMESPACES", "auto");
  if (!["auto", "required", "off"].includes(userNamespaces))
    throw new ConfigError(
      `HANGAR_KUBE_USER_NAMESPACES=${userNamespaces}: expected auto (use them where the cluster runs them), required (refuse to start without them) or off`,
    );
  return userNamespaces as "auto" | "required" | "off";
}

function readClusterDomain(env: Env) {
  const d = env.str("HANGAR_KUBE_CLUSTER_DOMAIN", "cluster.local");
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(d))
    throw new ConfigError(`HANGAR_KUBE_CLUSTER_DOMAIN=${d}: expected a DNS domain such as cluster.local`);
  return d;
}

function readForkDriver(env: Env) {
  const d = env.str("HANGAR_KUBE_FORK_DRIVER", "");
  if (d && !/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/.test(d))
    throw new ConfigError(`HANGAR_KUBE_FORK_DRIVER=${d}: a CSI driver name (fork.csi.hangar.dev), or empty`);
  return d || undefined;
}

function readEphemeralStorage(env: Env) {
  const q = env.str("HANGAR_KUBE_EPHEMERAL_STORAGE", "10Gi");
  const n = parseQuantity(q);
  if (n === undefined || n < 0)
    throw new ConfigError(`HANGAR_KUBE_EPHEMERAL_STORAGE=${q}: expected a Kubernetes quantity (10Gi), or 0 for no cap`);
  if (n > 0 && n < 64 * 1024 ** 2)
    throw new ConfigError(
      `HANGAR_KUBE_EPHEMERAL_STORAGE=${q}: below 64Mi a sandbox's own logs and writes would get it evicted; 0 turns the cap off`,
    );
  return n === 0 ? undefined : Math.ceil(n);
}

/** A template pool names a shared template, so it needs the shared templates file. */
function readWarmPools(env: Env, sharedTemplatesFile: string | undefined) {
  try {
    const pools = parseWarmPools(env.str("HANGAR_KUBE_WARM_POOLS", ""));
    const t = pools.find((p): p is Extract<WarmPoolEntry, { template: string }> => "template" in p);
    if (t && !sharedTemplatesFile)
      throw new Error(`template:${t.template} names a shared template, and HANGAR_SHARED_TEMPLATES_FILE is not set`);
    return pools;
  } catch (e) {
    throw new ConfigError(`HANGAR_KUBE_WARM_POOLS: ${(e as Error).message}`);
  }
}

export function readKube(
  env: Env,
  at: { kubernetes: boolean; installDir: string; sharedTemplatesFile: string | undefined; runnerId: string; runnerGroupId: string },
) {
  if (at.kubernetes && !env.raw("KUBECONFIG") && !env.raw("KUBERNETES_SERVICE_HOST")) {
    throw new ConfigError("HANGAR_RUNTIME=kubernetes: set KUBECONFIG, or run inside a cluster (in-cluster service account)");
  }
  const userNamespaces = readUserNamespaces(env);
  const egress = readKubeEgress(env, at.kubernetes);
  const agent = readKubeAgent(env, at);
  const publicRoutes = readPublic(env, at.kubernetes);
  return {
    kubeconfig: env.str("KUBECONFIG", "") || undefined,
    namespace: env.str("HANGAR_NAMESPACE", "default"),
    clusterDomain: readClusterDomain(env),
    ...publicRoutes,
    startupTimeoutSeconds: env.int("HANGAR_STARTUP_TIMEOUT_SECONDS", 120, 5, 3600),
    deadlineMarginSeconds: env.int("HANGAR_KUBE_DEADLINE_MARGIN_SECONDS", 2, 0, 86400),
    runtimeClassName: env.str("HANGAR_KUBE_RUNTIME_CLASS", "") || undefined,
    forkDriver: readForkDriver(env),
    ephemeralStorageBytes: readEphemeralStorage(env),
    ...readKubeNodes(env, at),
    userNamespaces,
    egress,
    ...agent,
    warmPools: readWarmPools(env, at.sharedTemplatesFile),
    poolReuse: readPoolReuse(env, agent),
    earlyExec: env.bool("HANGAR_KUBE_EARLY_EXEC", true),
  };
}

/** Reused pool pods (ADR 0040) run the exec agent's supervisor from netinit's copy: both must be on. */
function readPoolReuse(env: Env, agent: { execAgentBinary?: string; agentImagePath?: string }): boolean {
  const on = env.bool("HANGAR_KUBE_POOL_REUSE", false);
  if (on && !agent.execAgentBinary)
    throw new ConfigError("HANGAR_KUBE_POOL_REUSE=true: reused pool pods run the exec agent; set HANGAR_KUBE_EXEC_AGENT=true");
  return on;
}
