/**
 * The Kubernetes runtime from the configuration, once it watches pods. Its modules and the
 * Kubernetes client are loaded only here: the client doubles Hangar's memory, and every process
 * the local runtime starts pays for the parent's size in fork().
 */
import { readFileSync } from "node:fs";
import type pino from "pino";
import type { WarmPoolConfig } from "../runtime/kubernetes/pool/config.js";
import type { Runtime } from "../runtime/types.js";
import type { Config } from "./config.js";
import { fail } from "./fail.js";

export async function buildKubeRuntime(
  cfg: Config,
  log: pino.Logger,
  warmPools: WarmPoolConfig[],
): Promise<{ runtime: Runtime; kube: { core: unknown } }> {
  const k8s = await import("@kubernetes/client-node");
  const { agentBinary } = await import("../runtime/kubernetes/exec/agent-link.js");
  const { createKubernetesRuntime } = await import("../runtime/kubernetes/kube-runtime.js");
  const { CountedKubeConfig } = await import("../runtime/kubernetes/kube-calls.js");
  const kc = new CountedKubeConfig(); // its API clients count their calls (hangar_kube_api_*)
  if (cfg.kube.kubeconfig) kc.loadFromFile(cfg.kube.kubeconfig);
  else kc.loadFromCluster();
  const rt = createKubernetesRuntime({
    kubeConfig: kc,
    namespace: cfg.kube.namespace,
    clusterDomain: cfg.kube.clusterDomain,
    ...(cfg.kube.publicGateway
      ? { publicGateway: { ...cfg.kube.publicGateway, ...(cfg.kube.shareTokens ? { authFilter: cfg.kube.shareTokens.authFilter } : {}) } }
      : {}),
    ...(cfg.kube.publicTls ? { publicTls: cfg.kube.publicTls } : {}),
    startupTimeoutMs: cfg.kube.startupTimeoutSeconds * 1000,
    deadlineMarginSeconds: cfg.kube.deadlineMarginSeconds,
    egress: cfg.kube.egress,
    userNamespaces: cfg.kube.userNamespaces,
    runtimeClassName: cfg.kube.runtimeClassName,
    ephemeralStorageBytes: cfg.kube.ephemeralStorageBytes,
    ...(cfg.kube.forkDriver ? { forkDriver: cfg.kube.forkDriver } : {}),
    tolerations: cfg.kube.tolerations,
    gpu: cfg.kube.gpu,
    nodeRefreshMs: cfg.kube.nodeRefreshMs,
    pullProgressPort: cfg.kube.pullProgressPort,
    warmPools,
    poolReuse: cfg.kube.poolReuse,
    earlyExec: cfg.kube.earlyExec,
    execAgent: cfg.kube.execAgentBinary ? agentBinary(readFileSync(cfg.kube.execAgentBinary)) : undefined,
    ...(cfg.kube.agentDirectPorts ? { agentDirectPorts: cfg.kube.agentDirectPorts } : {}),
    ...(cfg.kube.agentImagePath ? { agentImagePath: cfg.kube.agentImagePath } : {}),
    fallbackCapacity: { cpuMillicores: cfg.kube.capacityCpuMillicores, memoryBytes: cfg.kube.capacityMemoryBytes },
    runners: cfg.kube.runners,
    organizationId: cfg.organizationId,
    secrets: cfg.secretStores.length > 0,
    log: log.child({ component: "runtime" }),
  });
  await waitReady(rt, cfg, log);
  return { runtime: rt, kube: { core: kc.makeApiClient(k8s.CoreV1Api) } };
}

/**
 * An apiserver that is restarting or unreachable is waited for (a replica restarted during an
 * outage serves once it is back); a refusal (forbidden, no such namespace) ends Hangar at once.
 */
async function waitReady(rt: Runtime & { ready(): Promise<void> }, cfg: Config, log: pino.Logger): Promise<void> {
  const { isTransient } = await import("../runtime/kubernetes/kube-errors.js");
  for (let attempt = 0, t0 = Date.now(); ; attempt++) {
    try {
      await rt.ready();
      return;
    } catch (e) {
      const msg = (e as Error).message;
      if (!isTransient(e) || Date.now() - t0 > cfg.kube.startupTimeoutSeconds * 1000)
        fail(msg.startsWith("HANGAR_") ? msg : `HANGAR_RUNTIME=kubernetes: cannot watch pods in namespace ${cfg.kube.namespace}: ${msg}`);
      log.warn({ err: msg, attempt }, "the Kubernetes API is not answering; trying again");
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 4000)));
    }
  }
}
