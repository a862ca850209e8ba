/**
 * User namespaces for sandbox pods (`hostUsers: false`): whether this cluster runs them, found by a
 * probe pod that prints its own uid_map (hangar-netinit uidmap). The verdict is a pure function of
 * the probe pod's status, table-tested; HANGAR_KUBE_USER_NAMESPACES picks what to do with it.
 */
import type { V1Pod } from "@kubernetes/client-node";

export type UsernsMode = "auto" | "required" | "off";
/**
 * `unsupported`: the cluster said no (the node refused the pod, hostUsers was ignored, the probe
 * failed). `unknown`: it said nothing about user namespaces (the probe timed out with no refusal,
 * its image could not be pulled, the apiserver did not answer): never a reason to run sandboxes
 * without them (ADR 0047).
 */
export type UsernsVerdict =
  { t: "pending" } | { t: "supported"; uidMap: string } | { t: "unsupported"; reason: string } | { t: "unknown"; reason: string };

/** Waiting reasons that are about the probe's image, not about user namespaces. */
const IMAGE_REASONS = new Set(["ErrImagePull", "ImagePullBackOff", "ErrImageNeverPull", "InvalidImageName"]);

/** A uid_map line that maps uid 0 to host uid 0 is the host's own user namespace. */
export function isHostMapping(uidMap: string): boolean {
  return uidMap.split("\n").some((l) => {
    const [inside, outside] = l.trim().split(/\s+/);
    return inside === "0" && outside === "0";
  });
}

export function usernsVerdict(pod: V1Pod, nowMs: number, timeoutMs: number): UsernsVerdict {
  const cs = pod.status?.containerStatuses?.[0];
  const term = cs?.state?.terminated;
  if (term) {
    const map = (term.message ?? "").trim();
    if (term.exitCode !== 0)
      return { t: "unsupported", reason: `the probe pod failed (exit ${term.exitCode}: ${term.reason ?? ""} ${map}`.trim() + ")" };
    if (!map) return { t: "unsupported", reason: "the probe pod reported no uid_map" };
    if (isHostMapping(map))
      return {
        t: "unsupported",
        reason: `hostUsers: false was ignored (the probe ran in the host's user namespace: uid_map ${map.replace(/\s+/g, " ")})`,
      };
    return { t: "supported", uidMap: map.replace(/\s+/g, " ") };
  }
  const waiting = cs?.state?.waiting;
  if (waiting?.reason && IMAGE_REASONS.has(waiting.reason))
    return { t: "unknown", reason: `the probe's image could not be run: ${`${waiting.reason}: ${waiting.message ?? ""}`.trim()}` };
  if (waiting?.reason && waiting.reason !== "ContainerCreating" && waiting.reason !== "PodInitializing") {
    return { t: "unsupported", reason: `${waiting.reason}: ${waiting.message ?? ""}`.trim() };
  }
  // The kubelet refuses the pod sandbox before any container exists ("runtime does not support user namespaces").
  const failedSandbox = pod.status?.conditions?.find((c) => c.type === "PodReadyToStartContainers" && c.status === "False" && c.message);
  if (pod.status?.phase === "Failed")
    return { t: "unsupported", reason: pod.status.message ?? pod.status.reason ?? "the probe pod failed" };
  const created = new Date(pod.metadata?.creationTimestamp ?? nowMs).getTime();
  if (nowMs - created > timeoutMs) {
    const reason = `the probe pod did not finish in ${Math.round(timeoutMs / 1000)}s${failedSandbox ? ` (${failedSandbox.message})` : ""}`;
    // Only a refusal that names user namespaces is a no; a slow or faulty cluster is not.
    return /user namespace/i.test(failedSandbox?.message ?? "") ? { t: "unsupported", reason } : { t: "unknown", reason };
  }
  return { t: "pending" };
}

/**
 * What a replica does with the probe's verdict (pure, table-tested): only the cluster's no turns user
 * namespaces off; a probe that learnt nothing keeps them on (ADR 0047). `message` is for the log.
 */
export function usernsDecision(v: UsernsVerdict): { on: boolean; proven: boolean; note: string; message: string } {
  if (v.t === "supported") {
    const note = `user namespaces work (the probe's uid_map: ${v.uidMap})`;
    return { on: true, proven: true, note, message: "sandbox pods run in user namespaces" };
  }
  if (v.t === "unknown") {
    const note = `user namespaces not proven (${v.reason}); sandbox pods keep hostUsers: false, a node that cannot run them refuses each pod`;
    return { on: true, proven: false, note, message: `sandbox pods run in user namespaces: ${note}` };
  }
  const note = `no user namespace: ${v.t === "unsupported" ? v.reason : "probe pending"}`;
  return {
    on: false,
    proven: true,
    note,
    message: `sandbox pods run without user namespaces (sandbox root is the node's root, without capabilities): ${note}`,
  };
}

/** The kubelet's refusal of a user-namespaced pod sandbox, from the probe pod's events. */
export function refusedBy(events: { reason?: string; message?: string }[]): string | undefined {
  const e = events.find((x) => x.reason === "FailedCreatePodSandBox" && /user namespace/i.test(x.message ?? ""));
  return e ? `the node refused it: ${e.message}` : undefined;
}

export function probePod(name: string, namespace: string, image: string, path: string): V1Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace, labels: { "app.kubernetes.io/managed-by": "hangar-probe" } },
    spec: {
      hostUsers: false,
      restartPolicy: "Never",
      automountServiceAccountToken: false,
      enableServiceLinks: false,
      terminationGracePeriodSeconds: 0,
      securityContext: { seccompProfile: { type: "RuntimeDefault" } },
      containers: [
        {
          name: "probe",
          image,
          imagePullPolicy: "IfNotPresent",
          command: [path, "uidmap"],
          resources: { requests: { cpu: "10m", memory: "16Mi" }, limits: { cpu: "100m", memory: "32Mi" } },
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] }, readOnlyRootFilesystem: true },
        },
      ],
    },
  };
}
