/** Hangar's domain model: what the controller and the runtimes speak (no proto, no k8s types). */
import type { StartupProbe } from "./probe.js";
import type { PublicTlsBase, PublicUrlBase } from "./public-url.js";
import type { PullProgress } from "./pull-progress.js";
import type { PullCredentials, SecretRef } from "./secrets.js";

export type LiveState = "PENDING" | "CREATING" | "RUNNING" | "TERMINATING";
export type TerminalState = "COMPLETED" | "FAILED";
export type State = LiveState | TerminalState;

/** The main process of a sandbox that names none: stays up, exits 0 promptly on SIGTERM. */
export const DEFAULT_MAIN_ARGV: readonly string[] = ["/bin/sh", "-c", 'trap "exit 0" TERM INT; sleep infinity & wait'];

export const TERMINAL_STATES: readonly State[] = ["COMPLETED", "FAILED"];
export const isTerminal = (s: State): s is TerminalState => s === "COMPLETED" || s === "FAILED";

export interface Quantities {
  cpu?: string;
  memory?: string;
  gpuCount?: number;
  /** A GPU model as users name it ("H100", "A100-80GB"): matched against the nodes' model labels. */
  gpuType?: string;
  /** Least memory per GPU, in GB. */
  gpuMemoryGb?: number;
}

/** What a sandbox asks of GPUs: the larger count of requests and limits, with its type and memory. */
export interface GpuAsk {
  count: number;
  type?: string;
  memoryGb?: number;
}

export function gpuAsk(spec: { requests: Quantities; limits: Quantities }): GpuAsk | undefined {
  const count = Math.max(spec.requests.gpuCount ?? 0, spec.limits.gpuCount ?? 0);
  if (count <= 0) return undefined;
  const type = spec.limits.gpuType ?? spec.requests.gpuType;
  const memoryGb = spec.limits.gpuMemoryGb ?? spec.requests.gpuMemoryGb;
  return { count, ...(type ? { type } : {}), ...(memoryGb ? { memoryGb } : {}) };
}

/** The GPUs of a runner's nodes. A sandbox's GPUs all come from one node. */
export interface RunnerGpus {
  /** The most GPUs one node of the runner has (allocatable). */
  perNodeMax: number;
  /** GPUs allocatable on all its nodes, and those no live sandbox of this Hangar asked for. */
  total: number;
  available: number;
  /** GPU models (the nodes' model-label values), and the most memory per GPU (GB) among them. */
  types: string[];
  maxMemoryGb?: number;
}

export interface ScratchVolume {
  name: string;
  mountPath: string;
  /** Kubernetes quantity string as given, e.g. "1Gi"; undefined = no explicit size. */
  size?: string;
  /** This mount is read-only (the volume may be writable through another mount). */
  readOnly?: boolean;
  /** A directory inside the volume mounted instead of its root (relative, no ".."); created when missing. */
  subPath?: string;
  /** A registered volume (core/volumes.ts) by id, instead of a scratch one; `source` is filled in for the caller's tenant at create. */
  registered?: { id: string; at: string; source?: { claimName: string; namespace: string } | { hostPath: string } };
  /**
   * Filled from this snapshot (core/snapshots.ts) before the sandbox is RUNNING; set on one writable
   * mount of the volume's root. `layer`: the runtime's unpacked copy of it (Runtime.layers), mounted
   * copy-on-write instead.
   */
  restore?: { snapshotId: string; at: string; layer?: string };
}

export interface SandboxSpec {
  image: string;
  /** argv of the main process (container command followed by args). */
  argv: string[];
  env: Record<string, string>;
  workingDir?: string;
  files: { path: string; content: Buffer }[];
  requests: Quantities;
  limits: Quantities;
  tags: string[];
  /** 0 = use the deployment default. */
  maxLifetimeSeconds: number;
  runnerIds: string[];
  /** undefined = deployment default (deny), as the brief asks. */
  denyEgress?: boolean;
  /** Egress grants (NetworkOptions.egress): only what they name is reachable, never more than the operator allows. */
  egress?: EgressGrant[];
  denyIngress?: boolean;
  annotations: Record<string, string>;
  volumes: ScratchVolume[];
  /** A Kubernetes RuntimeClass the sandbox asked for (gvisor, kata); unset = the runner's default. */
  runtimeClass?: string;
  /** Secrets the main process and every exec get as environment variables: references only, never values (core/secrets.ts). */
  secrets?: SecretRef[];
  /** Credentials for the image's registry, from a secret store (a reference, never the value). */
  imagePull?: PullCredentials;
  /** A command that must succeed before the sandbox counts as RUNNING (core/probe.ts). */
  startupProbe?: StartupProbe;
  /** The primary container's name as the caller gave it (undefined: "main"). */
  primaryName?: string;
  /** Containers beside the primary (Kubernetes): same volumes and network; the primary's exit ends the sandbox. */
  sidecars?: SidecarSpec[];
  /** PRIVATE service ports: reachable inside the cluster at an address Get returns (a Service per sandbox). */
  services?: ServicePort[];
  /** Names that resolve to 127.0.0.1 inside the sandbox (a Compose file's service names; Kubernetes hostAliases). */
  hostAliases?: string[];
  /** argv are arguments to the image's ENTRYPOINT (none: the image's CMD), as a Compose service's `command` alone is. */
  imageEntrypoint?: boolean;
  /** Made from a Compose file (CreateSandboxFromFile, control PLATFORM): the file's sha256, so a request_id replayed with other bytes is refused. */
  compose?: { digest: string };
}

export interface SidecarSpec {
  name: string;
  image: string;
  argv: string[];
  env: Record<string, string>;
  workingDir?: string;
  requests: Quantities;
  limits: Quantities;
  volumes: ScratchVolume[];
  /** A command that must succeed before the next container (and at last the primary) starts. */
  startupProbe?: StartupProbe;
  /** argv are arguments to the image's ENTRYPOINT (none: the image's CMD), as a Compose service's `command` alone is. */
  imageEntrypoint?: boolean;
}

/** The container a command, file or log call names: undefined for the primary, else a sidecar's name. */
export function containerTarget(
  spec: Pick<SandboxSpec, "primaryName" | "sidecars">,
  name: string | undefined,
): { sidecar?: string } | undefined {
  if (!name || name === (spec.primaryName ?? "main")) return {};
  return spec.sidecars?.some((s) => s.name === name) ? { sidecar: name } : undefined;
}

export interface ServicePort {
  port: number;
  name?: string;
  protocol: "TCP" | "UDP" | "SCTP";
  /** PUBLIC: also published through the operator's Gateway (HTTP, TCP ports only); absent = PRIVATE. */
  public?: true;
  /** PUBLIC as a TLS passthrough endpoint (a TLSRoute by SNI) instead of HTTP; only with `public`. */
  tls?: true;
  /** PUBLIC as an HTTPS endpoint (the SDK's EndpointKind.HTTPS): its URL is https, the Gateway terminates TLS. */
  https?: true;
  /** An HTTPS endpoint whose requests need the sandbox's share token (EndpointAuth.SHARE_TOKEN); only with `https`. */
  shareToken?: true;
}

export interface SandboxRecord {
  id: string;
  tenant: string;
  requestId?: string;
  spec: SandboxSpec;
  /** The API layer's verbatim copy of what the caller sent, echoed back unchanged. */
  echo: unknown;
  state: State;
  stateReason: string;
  createdAtMs: number;
  startedAtMs?: number;
  endedAtMs?: number;
  exitCode?: number;
  runnerId: string;
  runnerGroupId: string;
  effectiveLifetimeSeconds: number;
  /** How the runtime realised the image (e.g. "host root filesystem, read-only lower layer"). */
  imageNote: string;
  /** Sandbox.display_name as sent: a name for people. */
  displayName?: string;
  /** The runtime class the sandbox runs under: the one asked for, the runner's default, or "<node-default>". */
  effectiveRuntimeClass?: string;
  /** The egress grants in force (echoed as effective_egress); [] = none. Decided at admission. */
  effectiveEgress?: EgressGrant[];
  /** Runs under a gVisor runtime class of its runner (its own kernel, no pod network). Decided at admission. */
  gvisor?: boolean;
  /** CREATING while the image is pulled onto the node: shown as PREPARING (HANGAR_REPORT_PREPARING). */
  preparing?: boolean;
  /** While PREPARING: how far the image's pull is (bytes and layers), where the runtime measures it. */
  pull?: PullProgress;
  /** Where each service port is reached in the cluster ("host:port"), by "port/protocol". */
  serviceUrls?: Record<string, string>;
  stop?: { requestedAtMs: number; graceMs: number; why: "deleted" | "expired" | "purged" };
  /**
   * When a DeleteSandbox was accepted. From then on the sandbox is gone for every RPC except
   * Get and List, which keep showing its terminal record (the SDK's stop() polls Get after the
   * delete) until retention ends. Stored, so every replica and a restart agree.
   */
  deletedAtMs?: number;
}

/** One egress grant: a range (minus exceptions) or "any" (everything but what the operator keeps internal), optionally on some ports. */
export interface EgressGrant {
  to: { cidr: string; except: string[] } | "any" | { hostname: string };
  /** Empty: every port and protocol. */
  ports: { protocol: "TCP" | "UDP" | "SCTP"; port: number; endPort?: number }[];
}

/** What a runner can enforce of per-sandbox egress grants; absent = grants are refused there. */
export interface RunnerEgress {
  /** Ranges grants reach only where grantableCidrs opens them (cluster-internal space). */
  privateCidrs: string[];
  grantableCidrs: string[];
  /** Hostname grants (https_hostname) go through Hangar's egress proxy; false: none is configured. */
  hostnames: boolean;
}

export interface RunnerInfo {
  runnerId: string;
  runnerGroupId: string;
  organizationId: string;
  architectures: string[];
  healthy: boolean;
  connectedAtMs: number;
  maxCpuMillicores: number;
  maxMemoryBytes: number;
  availableCpuMillicores: number;
  availableMemoryBytes: number;
  runningSandboxes: number;
  /** Absent: the runner has no GPUs. */
  gpus?: RunnerGpus;
  /** Runtime classes a sandbox may ask for on this runner (none: runtime_class is refused). */
  runtimeClasses: string[];
  /** The runtime class sandboxes get when they ask for none; undefined = the node's default. */
  defaultRuntimeClass?: string;
  /** Per-sandbox egress grants this runner enforces; absent = refused. */
  egress?: RunnerEgress;
  /** PRIVATE services: the DNS suffix their addresses end in ("<namespace>.svc.cluster.local"); absent = services refused. */
  serviceDomain?: string;
  /** PUBLIC services: where the operator's Gateway publishes them (HANGAR_PUBLIC_URL); absent = PUBLIC refused. */
  publicUrl?: PublicUrlBase;
  /** TLS passthrough endpoints: the SNI names the operator's Gateway routes (HANGAR_PUBLIC_TLS_ADDRESS); absent = refused (CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED). */
  publicTls?: PublicTlsBase;
  /** HTTPS share-token endpoints: the Gateway asks Hangar about each request (HANGAR_PUBLIC_AUTH_FILTER); absent = refused (CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED). */
  publicShareTokens?: true;
  /** Sandboxes with more than one container (SandboxSpec.sidecars), host aliases, and images run by their own ENTRYPOINT (Compose); absent = refused. */
  multiContainer?: boolean;
  /** Images can be pulled with per-sandbox registry credentials (image_pull_credentials); absent = refused. */
  pullCredentials?: boolean;
  /** Runtime classes running gVisor with no network at all (runsc network=none): no egress there. */
  gvisorRuntimeClasses?: string[];
}

/** What Get reports as the effective runtime class when the node's default handler runs the sandbox. */
export const NODE_DEFAULT_RUNTIME_CLASS = "<node-default>";

/** A service port's key in SandboxRecord.serviceUrls. */
export const serviceKey = (s: Pick<ServicePort, "port" | "protocol">) => `${s.port}/${s.protocol}`;
/** The in-cluster address of a sandbox's service port: its Service's DNS name (runtime/kubernetes/services.ts names it). */
export const serviceUrl = (id: string, domain: string, port: number) => `sbx-${id}.${domain}:${port}`;
