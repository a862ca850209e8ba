/**
 * What pod a start makes, from what admission decided and stored on the record (runner, runtime
 * class, gVisor, egress grants, lifetime): nothing here decides a policy again.
 */
import type * as k8s from "@kubernetes/client-node";
import type { StartSecrets } from "../../../core/secrets.js";
import {
  DEFAULT_MAIN_ARGV,
  type EgressGrant,
  gpuAsk,
  NODE_DEFAULT_RUNTIME_CLASS,
  type SandboxRecord,
  type SandboxSpec,
} from "../../../core/types.js";
import { type EgressConfig, hostnamesOf, netinitPolicy } from "../egress/policy.js";
import { type GpuConfig, gpuAffinity } from "../nodes/capacity.js";
import { buildPod, EGRESS_LABEL, type PodOptions } from "../pod/spec.js";
import { POOL_LABEL, type WarmPoolConfig } from "../pool/warm-pool.js";
import { CELL_LABEL } from "../pod/keys.js";
import { idleResources } from "../pool/caps.js";
import type { NetSidecar } from "../pod/net-sidecar.js";
import type { KubeRunner, KubeRuntimeOptions } from "./options.js";
import type { KubeState } from "./state.js";

export type PodPlanOptions = Pick<
  KubeRuntimeOptions,
  | "namespace"
  | "startupTimeoutMs"
  | "deadlineMarginSeconds"
  | "runtimeClassName"
  | "tolerations"
  | "ephemeralStorageBytes"
  | "execAgent"
  | "agentDirectPorts"
  | "agentImagePath"
  | "poolReuse"
> & {
  egress: EgressConfig;
  /** The image holding hangar-netinit when egress is enforced by netinit. */
  netinitImage?: string;
  gpu: GpuConfig;
  state: KubeState;
  nodes: { addresses(): string[]; nodes(runnerId: string): k8s.V1Node[] };
};

/** The decided egress: the grants in force ([] = none) and whether the sandbox may get out at all. */
export const decidedGrants = (r: Pick<SandboxRecord, "effectiveEgress">): EgressGrant[] => r.effectiveEgress ?? [];

/** The runtime class a record runs under: undefined when the node's default handler runs it. */
export const runtimeClassOf = (r: Pick<SandboxRecord, "effectiveRuntimeClass">): string | undefined =>
  r.effectiveRuntimeClass === NODE_DEFAULT_RUNTIME_CLASS ? undefined : r.effectiveRuntimeClass;

/** netinit's part of a pod: none without netinit enforcement, and none under gVisor (no pod network). */
export function netinitFor(
  p: PodPlanOptions,
  spec: Pick<SandboxSpec, "services" | "denyIngress">,
  grants: EgressGrant[],
  gvisor: boolean,
  viaProxy = false,
): PodOptions["netinit"] {
  if (!p.netinitImage || gvisor) return undefined;
  const agentPorts = p.execAgent ? p.agentDirectPorts : undefined;
  return {
    image: p.netinitImage,
    path: p.egress.netinitPath,
    policy: netinitPolicy(spec, grants, p.egress, p.nodes.addresses(), p.state.proxyAddress, agentPorts, viaProxy),
    ...(p.execAgent && p.agentImagePath ? { agent: p.agentImagePath } : {}),
  };
}

export interface ColdStart {
  record: SandboxRecord;
  text: string;
  runner?: KubeRunner;
  secrets?: StartSecrets;
  csiVolumes: NonNullable<PodOptions["csiVolumes"]>;
}

/** The pod of a cold start. */
export function coldPod(p: PodPlanOptions, c: ColdStart): k8s.V1Pod {
  const { record, runner, secrets, csiVolumes } = c;
  const spec = record.spec;
  const grants = decidedGrants(record);
  const gvisor = !!record.gvisor;
  const hostnames = hostnamesOf({ egress: grants });
  const ask = gpuAsk(spec);
  return buildPod(record.id, spec, {
    namespace: p.namespace,
    gpu: ask
      ? {
          resource: p.gpu.resource,
          count: ask.count,
          affinity: gpuAffinity(ask, p.nodes.nodes(runner?.runnerId ?? record.runnerId), p.gpu),
        }
      : undefined,
    // Counted from the pod's start, before the image pull and netinit: the start may take up to the
    // startup timeout, so that much more, until the sandbox runs and this is tightened (tightenedDeadline).
    activeDeadlineSeconds: record.effectiveLifetimeSeconds + Math.ceil(p.startupTimeoutMs / 1000) + p.deadlineMarginSeconds,
    runtimeClassName: runtimeClassOf(record),
    tolerations: p.tolerations,
    ephemeralStorageBytes: p.ephemeralStorageBytes,
    ...(Object.keys(csiVolumes).length ? { csiVolumes } : {}),
    nodeSelector: runner && Object.keys(runner.nodeSelector).length ? runner.nodeSelector : undefined,
    egress: grants.length > 0,
    netinit: netinitFor(p, spec, grants, gvisor),
    // runsc cannot join a pod user namespace (its gofer fails); gVisor's sentry runs in namespaces of its own.
    hostUsers: !p.state.userns.on || gvisor,
    proxy: hostnames.length && p.state.proxyAddress ? { address: p.state.proxyAddress, hostnames } : undefined,
    secretEnv: secrets?.env ? Object.keys(secrets.env) : undefined,
    pullSecret: !!secrets?.pullConfig,
    record: { tenant: record.tenant, text: c.text },
  });
}

/**
 * What a reusable pool pod needs (ADR 0040), or why this runtime cannot make one: its supervisor
 * holds capabilities that are namespaced only in a pod user namespace, and runs netinit's copy of the agent.
 */
export function cellOf(p: PodPlanOptions): { agent: string } | { refused: string } | undefined {
  if (!p.poolReuse) return undefined;
  if (!p.state.userns.on) return { refused: `pool pods are reused only in user namespaces (${p.state.userns.note})` };
  const netinit = netinitFor(p, {}, [], false);
  if (!netinit?.agent || !p.execAgent) return { refused: "pool pods are reused only with netinit and its copy of the exec agent" };
  return { agent: p.execAgent.mounted };
}

/**
 * An idle pod of a warm pool: started with no egress (deny), claimed later by a sandbox that allows
 * none — or, in a `+https` pool, one whose grants are all hostnames: its rules reach Hangar's egress
 * proxy and nothing else, and the proxy allows what the claiming sandbox's annotation names (ADR 0042).
 */
export function idlePod(p: PodPlanOptions, pool: WarmPoolConfig, id: string, labels: Record<string, string>): k8s.V1Pod {
  const shape = pool.shape ?? { requests: {}, limits: {} };
  const cell = cellOf(p);
  if (cell && "refused" in cell) throw new Error(cell.refused);
  if (shape.https && !(p.netinitImage && p.state.proxyAddress))
    throw new Error("a +https pool's pods need netinit enforcement and Hangar's egress proxy (HANGAR_KUBE_EGRESS_PROXY_LISTEN)");
  const net = shape.egressRules ? netSidecarOf(p) : undefined;
  if (shape.egressRules && !net) throw new Error("a +egress pool's pods need netinit enforcement");
  const pod = buildPod(
    id,
    {
      image: pool.image,
      argv: [...DEFAULT_MAIN_ARGV],
      env: {},
      files: [],
      // A sized pool's pod starts at its CPU cap and the memory floor; a claim resizes it (ADR 0043).
      ...(shape.caps ? idleResources(shape.caps) : { requests: shape.requests, limits: shape.limits }),
      workingDir: shape.workingDir,
      tags: [],
      maxLifetimeSeconds: 0,
      runnerIds: [],
      annotations: {},
      volumes: [],
    },
    {
      namespace: p.namespace,
      runtimeClassName: p.runtimeClassName,
      tolerations: p.tolerations,
      nodeSelector: pool.nodeSelector,
      egress: false,
      netinit: netinitFor(p, {}, [], false, !!shape.https),
      hostUsers: !p.state.userns.on,
      ephemeralStorageBytes: p.ephemeralStorageBytes,
      ...(cell ? { cell } : {}),
      ...(net ? { netSidecar: net } : {}),
    },
  );
  return {
    ...pod,
    metadata: {
      namespace: p.namespace,
      generateName: `warm-${labels[POOL_LABEL]}-`,
      labels: { ...labels, [EGRESS_LABEL]: "deny", ...(cell ? { [CELL_LABEL]: "true" } : {}) },
    },
  };
}

/** The hangar-net sidecar of a `+egress` pool's pods (ADR 0044): netinit's image, `hold`. */
export const netSidecarOf = (p: PodPlanOptions): NetSidecar | undefined =>
  p.netinitImage ? { image: p.netinitImage, path: p.egress.netinitPath } : undefined;

/** The policy a claim loads into a `+egress` pod: exactly what a cold pod of the sandbox starts with. */
export const claimEgressPolicy = (p: PodPlanOptions, record: SandboxRecord) =>
  netinitFor(p, record.spec, decidedGrants(record), false)?.policy;

/** The policy a return loads back: the idle pod's (no egress). */
export const idleEgressPolicy = (p: PodPlanOptions) => netinitFor(p, {}, [], false)?.policy;
