/** What each runner (a node pool) offers: its capacity less what the tracked sandboxes on it ask, and what it can do. */
import { cpuMillicores, parseQuantity } from "../../../core/quantity.js";
import { gpuAsk, type RunnerInfo } from "../../../core/types.js";
import type { EgressConfig } from "../egress/policy.js";
import type { createNodeView } from "../nodes/view.js";
import type { KubeRunner, KubeRuntimeOptions } from "./options.js";
import type { KubeState } from "./state.js";

export interface RunnersOptions extends Pick<
  KubeRuntimeOptions,
  "namespace" | "runtimeClassName" | "clusterDomain" | "publicGateway" | "publicTls" | "organizationId"
> {
  runners: KubeRunner[];
  state: KubeState;
  nodes: Pick<ReturnType<typeof createNodeView>, "capacity" | "runtimeClasses">;
  egress: EgressConfig;
  netinitImage?: string;
  connectedAtMs: number;
}

/** What the tracked sandboxes on a runner use. One pass, no copies: at 10,000 sandboxes this runs on every create. */
function usedOn(s: KubeState, runnerId: string) {
  let running = 0,
    cpu = 0,
    memory = 0,
    gpus = 0;
  for (const t of s.tracked.values()) {
    if (t.exited || t.runnerId !== runnerId) continue;
    const a = (t.asks ??= {
      cpu: cpuMillicores(t.spec.requests.cpu ?? "") ?? 0,
      memory: parseQuantity(t.spec.requests.memory ?? "") ?? 0,
      gpus: gpuAsk(t.spec)?.count ?? 0,
    });
    running++;
    cpu += a.cpu;
    memory += a.memory;
    gpus += a.gpus;
  }
  return { running, cpu, memory, gpus };
}

/** What a runner can do beyond its capacity: classes, services, public routes, egress grants. */
function features(o: RunnersOptions, runnerId: string) {
  return {
    runtimeClasses: o.nodes.runtimeClasses(runnerId),
    ...(o.runtimeClassName ? { defaultRuntimeClass: o.runtimeClassName } : {}),
    pullCredentials: true,
    multiContainer: true,
    serviceDomain: `${o.namespace}.svc.${o.clusterDomain ?? "cluster.local"}`,
    ...(o.publicGateway ? { publicUrl: o.publicGateway.url } : {}),
    ...(o.publicTls ? { publicTls: o.publicTls.address } : {}),
    ...(o.publicGateway?.authFilter ? { publicShareTokens: true as const } : {}),
    ...(o.netinitImage
      ? {
          egress: {
            privateCidrs: o.egress.privateCidrs,
            grantableCidrs: o.egress.grantableCidrs,
            hostnames: o.state.proxyAddress !== undefined,
          },
        }
      : {}),
    ...(o.egress.gvisorRuntimeClasses.length ? { gvisorRuntimeClasses: o.egress.gvisorRuntimeClasses } : {}),
  };
}

export function runners(o: RunnersOptions): RunnerInfo[] {
  return o.runners.map((r) => {
    const used = usedOn(o.state, r.runnerId);
    const cap = o.nodes.capacity(r.runnerId);
    return {
      runnerId: r.runnerId,
      runnerGroupId: r.runnerGroupId,
      organizationId: o.organizationId,
      architectures: [process.arch === "x64" ? "amd64" : process.arch],
      healthy: true,
      connectedAtMs: o.connectedAtMs,
      maxCpuMillicores: cap.cpuMillicores,
      maxMemoryBytes: cap.memoryBytes,
      availableCpuMillicores: Math.max(0, cap.cpuMillicores - used.cpu),
      availableMemoryBytes: Math.max(0, cap.memoryBytes - used.memory),
      runningSandboxes: used.running,
      ...(cap.gpus ? { gpus: { ...cap.gpus, available: Math.max(0, cap.gpus.total - used.gpus) } } : {}),
      ...features(o, r.runnerId),
    };
  });
}
