/**
 * A sandbox pod as the console describes it: the status of each container (init containers first)
 * and the pod's events, newest last. One events list call per look, for that pod only.
 */
import type * as k8s from "@kubernetes/client-node";
import type { SandboxDescription } from "../../types.js";

const ms = (d: Date | string | undefined) => (d ? new Date(d).getTime() : undefined);

function containerOf(c: k8s.V1ContainerStatus): SandboxDescription["containers"][number] {
  const s = c.state;
  const state = s?.running ? "running" : s?.terminated ? "terminated" : s?.waiting ? "waiting" : "unknown";
  const reason = s?.terminated
    ? `${s.terminated.reason ?? ""} exit ${s.terminated.exitCode}`.trim()
    : (s?.waiting?.reason ?? (c.ready ? "ready" : ""));
  const startedAtMs = ms(s?.running?.startedAt ?? s?.terminated?.startedAt);
  return { name: c.name, image: c.image, state, reason, restarts: c.restartCount, ...(startedAtMs ? { startedAtMs } : {}) };
}

/** Pure: the description of a pod and its events. */
export function describePod(pod: k8s.V1Pod, events: k8s.CoreV1Event[]): SandboxDescription {
  const st = pod.status;
  return {
    containers: [...(st?.initContainerStatuses ?? []), ...(st?.containerStatuses ?? [])].map(containerOf),
    events: events
      .map((e) => ({
        atMs: ms(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp) ?? 0,
        type: e.type ?? "",
        reason: e.reason ?? "",
        message: (e.message ?? "").slice(0, 2000),
        count: e.count ?? 1,
      }))
      .sort((a, b) => a.atMs - b.atMs),
  };
}

export async function podDescription(core: k8s.CoreV1Api, namespace: string, pod: k8s.V1Pod | undefined, name: string) {
  if (!pod) return undefined;
  const events = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.kind=Pod,involvedObject.name=${name}` });
  return describePod(pod, events.items);
}
