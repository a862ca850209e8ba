/**
 * A `+egress` pool pod's hangar-net sidecar (ADR 0044): netinit's image running `hold`, a native
 * sidecar with NET_ADMIN in the pod's network namespace and nothing else, so that Hangar can exec
 * `apply <policy>` into it to set a claimed sandbox's egress rules (and the idle pod's again at its
 * return). It runs no code that reads anything a sandbox controls; its state volume (the pod's
 * resolv.conf as before the sandbox started) is mounted by no other container.
 */
import type { V1Container, V1Volume } from "@kubernetes/client-node";

export const NET_SIDECAR = "hangar-net";

/**
 * What hangar-netinit and the hangar-net sidecar both run with: root in the pod's user namespace,
 * NET_ADMIN over its network namespace and nothing else, a read-only root, small fixed resources.
 */
export const NET_ADMIN_ONLY = {
  resources: { requests: { cpu: "10m", memory: "16Mi" }, limits: { cpu: "200m", memory: "64Mi" } },
  securityContext: {
    runAsUser: 0,
    runAsNonRoot: false,
    allowPrivilegeEscalation: false,
    privileged: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ["ALL"], add: ["NET_ADMIN"] },
    seccompProfile: { type: "RuntimeDefault" },
  },
} satisfies Pick<V1Container, "resources" | "securityContext">;
const STATE_VOLUME = "hangar-net";
const STATE_DIR = "/run/hangar-net";

export interface NetSidecar {
  image: string;
  /** netinit's path in its image. */
  path: string;
}

/** The argv Hangar execs in the sidecar to load a policy (claim: the sandbox's; return: the idle pod's). */
export const applyArgv = (s: NetSidecar, policy: unknown): string[] => [s.path, "apply", JSON.stringify(policy)];

export function netSidecarContainer(s: NetSidecar): V1Container {
  return {
    name: NET_SIDECAR,
    image: s.image,
    imagePullPolicy: "IfNotPresent",
    restartPolicy: "Always",
    command: [s.path, "hold"],
    env: [
      { name: "HANGAR_NET_STATE_DIR", value: STATE_DIR },
      { name: "HANGAR_NODE_IP", valueFrom: { fieldRef: { fieldPath: "status.hostIP" } } },
    ],
    volumeMounts: [{ name: STATE_VOLUME, mountPath: STATE_DIR }],
    ...NET_ADMIN_ONLY,
  };
}

export const netSidecarVolume = (): V1Volume => ({ name: STATE_VOLUME, emptyDir: { medium: "Memory", sizeLimit: "1Mi" } });

/** Whether a pod (as the informer keeps it: container names) has the sidecar. */
export const hasNetSidecar = (pod?: { spec?: { initContainers?: { name: string }[] } }) =>
  !!pod?.spec?.initContainers?.some((c) => c.name === NET_SIDECAR);
