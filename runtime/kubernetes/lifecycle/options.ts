/** What a Kubernetes runtime is configured with (cmd/ assembles it from the environment). */
import type * as k8s from "@kubernetes/client-node";
import type { AgentBinary } from "../exec/agent-link.js";
import type { DirectPorts } from "../exec/agent-direct.js";
import type { EgressConfig } from "../egress/policy.js";
import type { GpuConfig } from "../nodes/capacity.js";
import type { PublicGateway, PublicTlsGateway } from "../routes/public.js";
import type { UsernsMode } from "../pod/userns.js";
import type { WarmPoolConfig } from "../pool/warm-pool.js";

export interface KubeRunner {
  runnerId: string;
  runnerGroupId: string;
  nodeSelector: Record<string, string>;
}

export interface KubeRuntimeOptions {
  kubeConfig: k8s.KubeConfig;
  namespace: string;
  startupTimeoutMs: number;
  /** Extra seconds beyond the sandbox lifetime before Kubernetes' own activeDeadlineSeconds ends the pod. */
  deadlineMarginSeconds: number;
  /** User namespaces for sandbox pods (userns.ts): auto = probe and use them where they work; default off. */
  userNamespaces?: UsernsMode;
  /** How egress is enforced (egress/policy.ts, ADR 0012); default: the chart's NetworkPolicies only. */
  egress?: EgressConfig;
  runtimeClassName?: string;
  /** The CSI driver of hangar-forkcsi (fork/volumes.ts, ADR 0029): restored volumes are copy-on-write clones; unset = tar -x in the sandbox. */
  forkDriver?: string;
  /** A sandbox pod's own disk past which the kubelet evicts it (pod/spec.ts ephemeralStorageLimit, ADR 0028); undefined: no cap. */
  ephemeralStorageBytes?: number;
  /** Tolerations on every sandbox pod (tainted GPU pools); the same shape as the Kubernetes field. */
  tolerations?: k8s.V1Toleration[];
  /** The cluster's DNS domain (HANGAR_KUBE_CLUSTER_DOMAIN): service addresses end in <namespace>.svc.<domain>. */
  clusterDomain?: string;
  /** PUBLIC services: the Gateway that publishes them (HANGAR_PUBLIC_GATEWAY, HANGAR_PUBLIC_URL); absent = refused. */
  publicGateway?: PublicGateway;
  /** TLS passthrough endpoints: the Gateway TLS listener and SNI names (HANGAR_PUBLIC_TLS_GATEWAY, HANGAR_PUBLIC_TLS_ADDRESS); absent = refused. */
  publicTls?: PublicTlsGateway;
  /** Secret stores are configured: sandboxes may carry secrets (their own Secret, env-secrets.ts). */
  secrets?: boolean;
  /** Pre-started pods per image (warm-pool.ts); none = every create is cold. */
  warmPools?: WarmPoolConfig[];
  /**
   * Pool pods serve one sandbox after another (ADR 0040): each sandbox runs in a fresh cell of
   * hangar-agent's supervisor, and its pod goes back to its pool when it ends. Needs user namespaces,
   * netinit and the exec agent's copy from netinit.
   */
  poolReuse?: boolean;
  /**
   * A cold start tries exec as soon as the pod's status shows netinit done and main being started,
   * instead of waiting for the kubelet to report main running (up to one PLEG relist, 1 s; ADR 0041). Not for a
   * sandbox with service ports (their endpoints follow the kubelet's Ready condition); log reads refused
   * before the report ("waiting to start") are asked again (stores/pod-logs.ts).
   */
  earlyExec?: boolean;
  /** The persistent exec path (ADR 0008): commands go through hangar-agent over one exec per pod. Unset = plain exec. */
  execAgent?: AgentBinary;
  /** With execAgent: the ports its direct link (ADR 0022) may listen on; unset = the exec channel only. */
  agentDirectPorts?: DirectPorts;
  /** With execAgent and netinit: hangar-agent's path in the netinit image, which netinit copies into each pod (ADR 0023); unset = through exec stdin. */
  agentImagePath?: string;
  /** Reported capacity per runner when the identity may not list nodes (namespace-scoped). */
  fallbackCapacity: { cpuMillicores: number; memoryBytes: number };
  /** Runners: each a node selector (a node pool; {} = any node). The first is the default. */
  runners: KubeRunner[];
  /** GPUs on the nodes: the extended resource and the model and memory labels (nodes/capacity.ts). */
  gpu?: GpuConfig;
  /** How often the nodes' capacity and GPU labels are read again (ms). */
  nodeRefreshMs?: number;
  /** The port of each node's hangar-pullwatch (ADR 0038): PREPARING shows the pull's bytes and layers; undefined: not asked. */
  pullProgressPort?: number;
  organizationId: string;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}
