/** Sandbox spec -> Pod (pure, table-tested). */
import { NET_ADMIN_ONLY, type NetSidecar, netSidecarContainer, netSidecarVolume } from "./net-sidecar.js";
import type {
  V1Container,
  V1CSIVolumeSource,
  V1Volume,
  V1NodeSelectorTerm,
  V1OwnerReference,
  V1Pod,
  V1Toleration,
} from "@kubernetes/client-node";
import type { StartupProbe } from "../../../core/probe.js";
import { parseQuantity } from "../../../core/quantity.js";
import type { Quantities, SandboxSpec, SidecarSpec } from "../../../core/types.js";
import { AGENT_MOUNT_PATH } from "../../../core/volumes.js";
import type { NetinitPolicy } from "../egress/policy.js";
import { sandboxLabels, TAGS_ANNOTATION } from "./labels.js";
import { envFromSecret, pullSecretName } from "./secret-refs.js";
import { EGRESS_LABEL, HOSTS_ANNOTATION, RECORD_ANNOTATION, RECORD_FINALIZER } from "./keys.js";
export { EGRESS_LABEL };

/** The owner reference that makes Kubernetes delete an object with the sandbox's pod (its Service, policy, routes). */
export const ownedByPod = (pod: V1Pod): V1OwnerReference[] => [
  { apiVersion: "v1", kind: "Pod", name: pod.metadata?.name ?? "", uid: pod.metadata?.uid ?? "" },
];

export interface PodOptions {
  namespace: string;
  /** Seconds until Kubernetes itself ends the pod (lifetime + a margin): holds even when Hangar is down. */
  activeDeadlineSeconds?: number;
  runtimeClassName?: string;
  tolerations?: V1Toleration[];
  nodeSelector?: Record<string, string>;
  /** The sandbox may get out (admission decided it: record.effectiveEgress is not empty); false = egress denied. */
  egress: boolean;
  /** GPUs: the extended resource (requests = limits: GPUs are not shared) and the node affinity for model and memory. */
  gpu?: { resource: string; count: number; affinity?: V1NodeSelectorTerm[] };
  /** false: the pod runs in its own user namespace (sandbox root is not the node's root); unset/true: the host's. */
  hostUsers?: boolean;
  /** Hostname grants: the pod's annotation (what the egress proxy allows it) and HTTPS_PROXY in its env. */
  proxy?: { address: string; hostnames: string[] };
  /** Hangar's egress enforcement (ADR 0012): an init container loads this policy into the pod's network namespace. */
  netinit?: {
    image: string;
    path: string;
    policy: NetinitPolicy;
    /** hangar-agent's path in that image: netinit copies it into an emptyDir the sandbox's container mounts read-only at AGENT_MOUNT_PATH (ADR 0023). */
    agent?: string;
  };
  /** Env vars read from the sandbox's own Secret (secret-store.ts envSecret): its secrets, by name only. */
  secretEnv?: string[];
  /** The image is pulled with the sandbox's own pull Secret (secret-store.ts pullSecret), every time. */
  pullSecret?: boolean;
  /**
   * The pod's own disk past which the kubelet evicts it (ADR 0028): its containers' writable layers
   * and logs and its unsized scratch volumes; each sized scratch volume adds its size. Undefined: no cap.
   */
  ephemeralStorageBytes?: number;
  /** Scratch volumes restored copy-on-write (fork/volumes.ts, ADR 0029): by volume name, the node plugin's inline CSI volume instead of an emptyDir. */
  csiVolumes?: Record<string, V1CSIVolumeSource>;
  /**
   * A reusable pool pod (ADR 0040): the main container runs hangar-agent's supervisor (`agent`: its
   * path in the agent volume), which holds the capabilities it needs to make cells (namespaced:
   * the pod has its own user namespace) and drops them for everything a sandbox runs.
   */
  cell?: { agent: string };
  /** The sandbox record (record-codec), stored on the pod and kept by a finalizer until retention ends. */
  record?: { tenant: string; text: string };
  /** A `+egress` pool pod (ADR 0044): the hangar-net sidecar, whose rules are set at each claim. */
  netSidecar?: NetSidecar;
}

/** Capabilities a normal image needs to run as root (file ownership, setuid for su/apt, signals, low ports). */
export const KEPT_CAPABILITIES = ["CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID", "NET_BIND_SERVICE"];

export const podName = (id: string) => `sbx-${id}`;
/** Where a reusable pod's supervisor keeps its cells (an emptyDir; never inside a cell). */
export const CELL_DIR = "/.hangar-cell";
const CELL_VOLUME = "hangar-cell";
/** What the supervisor of a reusable pod adds to KEPT_CAPABILITIES (in the pod's user namespace only): mounts, chroot, cutting the bounding set. */
export const CELL_CAPABILITIES = ["SYS_ADMIN", "SYS_CHROOT", "SETPCAP"];
export const NETINIT_CONTAINER = "hangar-netinit";
/** The emptyDir hangar-netinit copies the exec agent into (ADR 0023); sandbox volumes are all named vol-*. */
export const AGENT_VOLUME = "hangar-agent";
const AGENT_COPY_DIR = "/hangar-agent";

/**
 * The init container that loads the egress policy: NET_ADMIN in the pod's network namespace and
 * nothing else, exits before the sandbox's container starts (which never holds NET_ADMIN, so it
 * cannot undo the rules); a failure fails the pod, so a sandbox never starts open.
 */
export function netinitContainer(n: NonNullable<PodOptions["netinit"]>) {
  return {
    name: NETINIT_CONTAINER,
    image: n.image,
    imagePullPolicy: "IfNotPresent",
    command: [n.path],
    env: [
      { name: "HANGAR_NETINIT_POLICY", value: JSON.stringify(n.policy) },
      { name: "HANGAR_NODE_IP", valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
      ...(n.agent
        ? [
            { name: "HANGAR_NETINIT_AGENT", value: n.agent },
            { name: "HANGAR_NETINIT_AGENT_DIR", value: AGENT_COPY_DIR },
          ]
        : []),
    ],
    ...(n.agent ? { volumeMounts: [{ name: AGENT_VOLUME, mountPath: AGENT_COPY_DIR }] } : {}),
    ...NET_ADMIN_ONLY,
  };
}

function resources(q: Quantities, gpu: PodOptions["gpu"]): Record<string, string> {
  const r: Record<string, string> = {};
  if (q.cpu) r.cpu = q.cpu;
  if (q.memory) r.memory = q.memory;
  if (gpu) r[gpu.resource] = String(gpu.count);
  return r;
}

/** The caller's annotations without Hangar's own keys (the API refuses them; this holds for any caller). */
export const ownAnnotationsOut = (a: Record<string, string>) =>
  Object.fromEntries(Object.entries(a).filter(([k]) => !/(^|\.)hangar\.dev\//.test(k)));

/** HTTPS_PROXY (both spellings) for a sandbox with hostname grants; its own env wins. */
export const proxyEnv = (p: Pick<NonNullable<PodOptions["proxy"]>, "address"> | undefined): Record<string, string> =>
  p ? { HTTPS_PROXY: `http://${p.address}`, https_proxy: `http://${p.address}` } : {};

const startupProbe = (p: StartupProbe) => ({
  exec: { command: [...p.exec] },
  periodSeconds: p.periodSeconds,
  timeoutSeconds: p.timeoutSeconds,
  failureThreshold: p.failureThreshold,
  initialDelaySeconds: p.initialDelaySeconds,
});

function sidecarContainer(s: SidecarSpec): V1Container {
  return {
    name: s.name,
    image: s.image,
    imagePullPolicy: "IfNotPresent",
    restartPolicy: "Always",
    command: s.imageEntrypoint || !s.argv.length ? undefined : [s.argv[0] as string],
    args: s.imageEntrypoint ? [...s.argv] : s.argv.slice(1),
    env: Object.entries(s.env).map(([name, value]) => ({ name, value })),
    workingDir: s.workingDir,
    ...(s.startupProbe ? { startupProbe: startupProbe(s.startupProbe) } : {}),
    resources: { requests: resources(s.requests, undefined), limits: resources(s.limits, undefined) },
    securityContext: {
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ["ALL"], add: KEPT_CAPABILITIES },
      seccompProfile: { type: "RuntimeDefault" },
    },
    volumeMounts: s.volumes.map((v) => ({ name: `vol-${v.name}`, mountPath: v.mountPath, ...(v.readOnly ? { readOnly: true } : {}) })),
  };
}

/**
 * The main container's ephemeral-storage limit: the base allowance plus every sized scratch volume
 * on the node's ephemeral storage (so a volume gets its whole size); a volume of the fork plugin
 * (`onOwnDisk`) has its own file system of its size and adds nothing. The request stays 0, so
 * scheduling is as without the cap.
 */
export function ephemeralStorageLimit(spec: SandboxSpec, baseBytes: number | undefined, onOwnDisk: string[] = []): string | undefined {
  if (baseBytes === undefined) return undefined;
  const scratch = new Map(
    [...spec.volumes, ...(spec.sidecars ?? []).flatMap((s) => s.volumes)]
      .filter((v) => !v.registered && !onOwnDisk.includes(v.name))
      .map((v) => [v.name, v]),
  );
  const volumes = [...scratch.values()].reduce((n, v) => n + (v.size ? Math.ceil(parseQuantity(v.size) ?? 0) : 0), 0);
  return String(Math.ceil(baseBytes) + volumes);
}

/** The sandbox's own container: its command, env, resources (with the disk cap) and mounts, confined. */
function mainContainer(id: string, spec: SandboxSpec, o: PodOptions): V1Container {
  const [command, ...args] = spec.argv;
  const requests = resources(spec.requests, o.gpu);
  const limits = resources(spec.limits, o.gpu);
  const disk = ephemeralStorageLimit(spec, o.ephemeralStorageBytes, Object.keys(o.csiVolumes ?? {}));
  if (disk) {
    limits["ephemeral-storage"] = disk;
    requests["ephemeral-storage"] = "0";
  }
  return {
    name: "main",
    image: spec.image,
    // With credentials the registry is asked every time, so they are checked for this sandbox
    // (an image already on the node would otherwise run without them).
    imagePullPolicy: o.pullSecret ? "Always" : "IfNotPresent",
    command: o.cell ? [o.cell.agent, "supervise"] : command === undefined || spec.imageEntrypoint ? undefined : [command],
    args: o.cell ? [] : spec.imageEntrypoint ? [...spec.argv] : args,
    env: [
      ...Object.entries({ ...proxyEnv(o.proxy), ...spec.env, ...(o.cell ? { HANGAR_CELL_DIR: CELL_DIR } : {}) }).map(([name, value]) => ({
        name,
        value,
      })),
      ...envFromSecret(id, o.secretEnv ?? []),
    ],
    workingDir: spec.workingDir,
    ...(spec.startupProbe ? { startupProbe: startupProbe(spec.startupProbe) } : {}),
    resources: { requests, limits },
    securityContext: {
      allowPrivilegeEscalation: false,
      privileged: false,
      capabilities: { drop: ["ALL"], add: o.cell ? [...KEPT_CAPABILITIES, ...CELL_CAPABILITIES] : KEPT_CAPABILITIES },
      seccompProfile: { type: "RuntimeDefault" },
    },
    volumeMounts: [
      ...(o.cell ? [{ name: CELL_VOLUME, mountPath: CELL_DIR }] : []),
      ...spec.volumes.map((v) => ({
        name: `vol-${v.name}`,
        mountPath: v.mountPath,
        ...(v.readOnly ? { readOnly: true } : {}),
        ...(v.subPath ? { subPath: v.subPath } : {}),
      })),
      // Read-only: the sandbox runs the agent and can never change what Hangar's commands run through.
      ...(o.netinit?.agent ? [{ name: AGENT_VOLUME, mountPath: AGENT_MOUNT_PATH, readOnly: true }] : []),
    ],
  };
}

/** The pod's volumes: the agent's, then each volume once (scratch, a clone of the node plugin, or a registered claim). */
function podVolumes(spec: SandboxSpec, o: PodOptions): V1Volume[] {
  return [
    ...(o.netinit?.agent ? [{ name: AGENT_VOLUME, emptyDir: { sizeLimit: "32Mi" } }] : []),
    ...(o.cell ? [{ name: CELL_VOLUME, emptyDir: {} }] : []),
    ...(o.netSidecar ? [netSidecarVolume()] : []),
    ...[...new Map([...spec.volumes, ...(spec.sidecars ?? []).flatMap((s) => s.volumes)].map((v) => [v.name, v])).values()].map((v) => {
      const src = v.registered?.source;
      const csi = o.csiVolumes?.[v.name];
      if (!v.registered && csi) return { name: `vol-${v.name}`, csi };
      if (!v.registered) return { name: `vol-${v.name}`, emptyDir: v.size ? { sizeLimit: v.size } : {} };
      if (!src || !("claimName" in src)) throw new Error(`registered volume ${v.registered.id} has no claim to mount`);
      // Read-only at the claim too when no mount of it writes (a read-only registration is refused a writer at create).
      const writes = spec.volumes.some((m) => m.name === v.name && !m.readOnly);
      return { name: `vol-${v.name}`, persistentVolumeClaim: { claimName: src.claimName, ...(writes ? {} : { readOnly: true }) } };
    }),
  ];
}

export function buildPod(id: string, spec: SandboxSpec, o: PodOptions): V1Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: {
      name: podName(id),
      namespace: o.namespace,
      labels: { ...sandboxLabels(id, spec.tags, o.record?.tenant), [EGRESS_LABEL]: o.egress ? "allow" : "deny" },
      annotations: {
        ...ownAnnotationsOut(spec.annotations),
        [TAGS_ANNOTATION]: JSON.stringify(spec.tags),
        ...(o.record ? { [RECORD_ANNOTATION]: o.record.text } : {}),
        ...(o.proxy ? { [HOSTS_ANNOTATION]: JSON.stringify(o.proxy.hostnames) } : {}),
      },
      finalizers: o.record ? [RECORD_FINALIZER] : undefined,
    },
    spec: {
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 10,
      activeDeadlineSeconds: o.activeDeadlineSeconds,
      runtimeClassName: o.runtimeClassName,
      nodeSelector: o.nodeSelector,
      affinity: o.gpu?.affinity
        ? { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: o.gpu.affinity } } }
        : undefined,
      tolerations: o.tolerations?.length ? o.tolerations : undefined,
      imagePullSecrets: o.pullSecret ? [{ name: pullSecretName(id) }] : undefined,
      hostname: `sandbox-${id.slice(0, 8)}`,
      // The pod's pause process is pid 1, not the sandbox's command: a command that sets no
      // SIGTERM handler (sleep, a plain python) ends on a stop's SIGTERM as it would anywhere,
      // instead of ignoring it as a container's pid 1 does and holding every stop for its grace.
      shareProcessNamespace: true,
      ...(o.hostUsers === false ? { hostUsers: false } : {}),
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      hostAliases: spec.hostAliases?.length ? [{ ip: "127.0.0.1", hostnames: [...spec.hostAliases] }] : undefined,
      // Sidecars are native sidecars (init containers that keep running): the kubelet starts them in
      // order, each after the one before has started (and passed its startup probe), and the primary
      // last; they end when the primary ends. Same confinement as the primary, sharing its volumes,
      // network and process namespace.
      initContainers:
        o.netinit || spec.sidecars?.length
          ? [
              ...(o.netinit ? [netinitContainer(o.netinit)] : []),
              ...(o.netinit && o.netSidecar ? [netSidecarContainer(o.netSidecar)] : []),
              ...(spec.sidecars ?? []).map(sidecarContainer),
            ]
          : undefined,
      containers: [mainContainer(id, spec, o)],
      volumes: podVolumes(spec, o),
    },
  };
}
