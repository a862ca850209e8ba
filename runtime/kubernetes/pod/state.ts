/** What a pod's status means for its sandbox: a pure function of (pod, now), table-tested. */
import type { V1Container, V1Pod, V1PodSpec } from "@kubernetes/client-node";
import { KILLED_EXIT_CODE } from "../../../core/exit-code.js";

export type PodView =
  | { t: "starting"; reason: string }
  | { t: "running" }
  /** initContainer: the init container (or sidecar) whose failure it is, when it is one's. */
  | { t: "start-failed"; reason: string; initContainer?: string }
  | { t: "exited"; exitCode: number; reason: string; endedBy?: string; ranAtMs?: number };

/** Waiting reasons that will not fix themselves. */
const FATAL_WAITING = new Set([
  "ErrImagePull",
  "ImagePullBackOff",
  "ErrImageNeverPull",
  "InvalidImageName",
  "CreateContainerConfigError",
  "CreateContainerError",
  "RunContainerError",
  "CrashLoopBackOff",
]);

/** The kubelet's eviction (its disk cap, ADR 0028, or node pressure), in its own words. */
const evicted = (pod: V1Pod): string | undefined =>
  pod.status?.reason === "Evicted" ? `evicted by the kubelet: ${(pod.status.message ?? "").trim().slice(0, 300)}`.trim() : undefined;

/** The pod's sidecars: init containers that keep running. */
const sidecarNames = (pod: V1Pod) =>
  new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === "Always").map((c) => c.name));

/**
 * An init container (Hangar's netinit) that failed or cannot start: the sandbox never ran. A
 * sidecar (an init container that keeps running) counts only until the primary has started:
 * the kubelet restarts it after that, and the sandbox follows its primary.
 */
function initContainerFailure(pod: V1Pod, primaryRunning: boolean): PodView | undefined {
  const sidecars = sidecarNames(pod);
  for (const ic of pod.status?.initContainerStatuses ?? []) {
    if (sidecars.has(ic.name) && primaryRunning) continue;
    const it = ic.state?.terminated;
    const probeFailed =
      sidecars.has(ic.name) && ic.started !== true && !!pod.spec?.initContainers?.find((c) => c.name === ic.name)?.startupProbe;
    if (it && it.exitCode !== 0 && probeFailed)
      return {
        t: "start-failed",
        initContainer: ic.name,
        reason: `sidecar ${ic.name}: its startup probe did not pass (the kubelet ended it: ${it.reason ?? "exit"} ${it.exitCode})`,
      };
    if (it && it.exitCode !== 0)
      return {
        t: "start-failed",
        initContainer: ic.name,
        reason: `${sidecars.has(ic.name) ? "sidecar" : "init container"} ${ic.name} failed (exit ${it.exitCode}${it.message ? `: ${it.message.trim()}` : it.reason ? `: ${it.reason}` : ""})`,
      };
    const iw = ic.state?.waiting;
    if (iw?.reason && FATAL_WAITING.has(iw.reason))
      return { t: "start-failed", initContainer: ic.name, reason: `init container ${ic.name}: ${iw.reason}: ${iw.message ?? ""}`.trim() };
  }
  return undefined;
}

export function observePod(pod: V1Pod, nowMs: number, startupTimeoutMs: number): PodView {
  const cs = pod.status?.containerStatuses?.find((c) => c.name === "main");
  const probed = !!pod.spec?.containers?.find((c) => c.name === "main")?.startupProbe;
  const term = cs?.state?.terminated;
  // Killed by the kubelet before its startup probe passed: the sandbox never started.
  if (term && probed && cs?.started !== true && !pod.metadata?.deletionTimestamp && pod.status?.reason !== "DeadlineExceeded")
    return {
      t: "start-failed",
      reason: `the startup probe did not pass (the kubelet ended the container: ${term.reason ?? "exit"} ${term.exitCode})`,
    };
  if (term) {
    const neverRan = !cs?.lastState?.running && term.reason === "StartError";
    if (neverRan || term.reason === "ContainerCannotRun")
      return { t: "start-failed", reason: `${term.reason}: ${term.message ?? ""}`.trim() };
    const ev = evicted(pod);
    const why = ev ?? term.reason ?? `exit code ${term.exitCode}`;
    const ran = term.startedAt ? new Date(term.startedAt).getTime() : NaN;
    return {
      t: "exited",
      exitCode: term.exitCode,
      reason: why,
      ...(ev ? { endedBy: ev } : pod.metadata?.deletionTimestamp ? { endedBy: "the pod was deleted" } : {}),
      ...(Number.isFinite(ran) && ran > 0 ? { ranAtMs: ran } : {}),
    };
  }
  const failedInit = initContainerFailure(pod, !!cs?.state?.running);
  if (failedInit) return failedInit;
  if (pod.status?.phase === "Failed" || pod.status?.phase === "Succeeded") {
    const ev = evicted(pod);
    const why =
      pod.status.reason === "DeadlineExceeded"
        ? "max lifetime (activeDeadlineSeconds) reached"
        : (ev ?? pod.status.reason ?? pod.status.phase);
    return {
      t: "exited",
      exitCode: pod.status.phase === "Succeeded" ? 0 : KILLED_EXIT_CODE,
      reason: why,
      ...(pod.status.reason === "DeadlineExceeded" || ev ? { endedBy: why } : {}),
    };
  }
  // Deleted before a node ran it: no kubelet will ever report on it.
  if (pod.metadata?.deletionTimestamp && !pod.spec?.nodeName)
    return { t: "exited", exitCode: KILLED_EXIT_CODE, reason: "the pod was deleted before it started", endedBy: "the pod was deleted" };
  if (cs?.state?.running && !(probed && cs.started !== true)) return { t: "running" };
  const waiting = cs?.state?.waiting;
  if (waiting?.reason && FATAL_WAITING.has(waiting.reason))
    return { t: "start-failed", reason: `${waiting.reason}: ${waiting.message ?? ""}`.trim() };
  const createdRaw = new Date(pod.metadata?.creationTimestamp ?? nowMs).getTime();
  const created = Number.isFinite(createdRaw) ? createdRaw : nowMs;
  const unschedulable = pod.status?.conditions?.find((c) => c.type === "PodScheduled" && c.status === "False");
  const pendingSidecar = cs?.state?.running
    ? undefined
    : pod.status?.initContainerStatuses?.find((ic) => sidecarNames(pod).has(ic.name) && ic.started !== true);
  const why = unschedulable
    ? `unschedulable: ${unschedulable.message ?? unschedulable.reason ?? ""}`
    : cs?.state?.running
      ? "waiting for the startup probe to pass"
      : pendingSidecar
        ? `waiting for sidecar ${pendingSidecar.name} to start${pod.spec?.initContainers?.find((c) => c.name === pendingSidecar.name)?.startupProbe ? " (its startup probe)" : ""}`
        : (waiting?.reason ?? pod.status?.phase ?? "Pending");
  if (nowMs - created > startupTimeoutMs)
    return { t: "start-failed", reason: `not running after ${Math.round(startupTimeoutMs / 1000)}s (${why})` };
  return { t: "starting", reason: why };
}

/** CPU and memory alone, of quantities or a container's resources (other keys dropped). */
export const cpuMemory = (q?: { cpu?: string; memory?: string }) => ({
  ...(q?.cpu ? { cpu: q.cpu } : {}),
  ...(q?.memory ? { memory: q.memory } : {}),
});

/**
 * What the informer keeps of a sandbox pod: only the parts Hangar reads (observePod, podStep, the
 * deadline, the start note, node and user-namespace facts), changed in place because the informer's
 * cache holds this very object. At 10,000 sandboxes the whole pods (managedFields, every
 * container's env, mounts and security context, volumes, tolerations) were most of a replica's heap.
 */
export function slimPod(p: V1Pod): V1Pod {
  if (p.metadata?.managedFields) delete p.metadata.managedFields;
  const s = p.spec;
  if (!s) return p;
  const keep = (c: V1Container): V1Container => ({
    name: c.name,
    image: c.image,
    ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}),
    ...(c.startupProbe ? { startupProbe: c.startupProbe } : {}),
    // CPU and memory: a sized pool's claim picks a pod its sandbox's limits can be resized to (ADR 0043).
    ...(c.resources ? { resources: { requests: cpuMemory(c.resources.requests), limits: cpuMemory(c.resources.limits) } } : {}),
  });
  const slim: V1PodSpec = { containers: (s.containers ?? []).map(keep) };
  if (s.initContainers) slim.initContainers = s.initContainers.map(keep);
  if (s.nodeName !== undefined) slim.nodeName = s.nodeName;
  if (s.hostUsers !== undefined) slim.hostUsers = s.hostUsers;
  if (s.activeDeadlineSeconds !== undefined) slim.activeDeadlineSeconds = s.activeDeadlineSeconds;
  p.spec = slim;
  return p;
}

/**
 * Whether exec may already work in a starting pod although its status does not say main runs
 * (pure, table-tested; ADR 0041): scheduled, its address known, every init container (netinit) exited 0, main neither
 * pulling nor failed, and nothing else gates it (no startup probe, no sidecars). The kubelet starts
 * main in the same sync that wrote this status, but reports it running only after its next relist
 * (up to 1 s later); an exec reaches the runtime at once.
 */
export function mayExecEarly(pod: V1Pod, servicePorts = 0): boolean {
  // Not with service ports: their Service's endpoints wait for the kubelet's Ready condition, and a
  // RUNNING sandbox's ports must answer through them.
  if (servicePorts > 0) return false;
  // The pod's address too: the direct link and the egress proxy know a sandbox by it once it runs.
  if (!pod.spec?.nodeName || !pod.status?.podIP || pod.metadata?.deletionTimestamp) return false;
  const inits = pod.spec.initContainers ?? [];
  if (inits.some((c) => c.restartPolicy === "Always")) return false;
  if (pod.spec.containers?.find((c) => c.name === "main")?.startupProbe) return false;
  const done = (name: string) => pod.status?.initContainerStatuses?.find((s) => s.name === name)?.state?.terminated?.exitCode === 0;
  if (!inits.every((c) => done(c.name))) return false;
  const cs = pod.status?.containerStatuses?.find((c) => c.name === "main");
  if (cs?.state?.running || cs?.state?.terminated) return false;
  const waiting = cs?.state?.waiting?.reason;
  return waiting === undefined || waiting === "ContainerCreating" || waiting === "PodInitializing";
}
