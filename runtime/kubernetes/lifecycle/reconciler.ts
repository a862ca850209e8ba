/**
 * The pod reconciler: every pod event (and a tick each second) is matched to its sandbox — adopted
 * when this replica did not start it, its record changes reported, a start settled, a takeover of an
 * abandoned start, an exit reported. Decisions are podStep's (pure); `now` is injected, so it runs on
 * a fake clock.
 */
import { pullReason, type PullProgress } from "../../../core/pull-progress.js";
import type * as k8s from "@kubernetes/client-node";
import { KILLED_EXIT_CODE } from "../../../core/exit-code.js";
import type { SandboxRecord } from "../../../core/types.js";
import type { ExitInfo, StartedSandbox } from "../../types.js";
import { SANDBOX_ID, TENANT } from "../pod/labels.js";
import { podName } from "../pod/spec.js";
import { mayExecEarly, observePod, type PodView } from "../pod/state.js";
import { podStep } from "../pod/step.js";
import { decodeRecord, readRecord, unreadableRecord } from "../../record-codec.js";
import { SECRET_ENV_FILE } from "../exec/claim-wrap.js";
import { RECORD_ANNOTATION, RECORD_FINALIZER } from "../pod/keys.js";
import { CLAIMED_LABEL, EXEC_ANNOTATION } from "../pool/warm-pool.js";
import { emit, type KubeState, type Tracked } from "./state.js";
import { isCellPod } from "../pool/reuse.js";
import { claimedEnv } from "./warm-claim.js";

export interface ReconcilerOptions {
  state: KubeState;
  namespace: string;
  startupTimeoutMs: number;
  now: () => number;
  log: { warn(o: object, m: string): void };
  deletePod(name: string, why: string): Promise<void>;
  stop(id: string, graceMs: number): Promise<void>;
  agents?: { open(pod: string, shell?: boolean): Promise<unknown>; drop(pod: string): void };
  /** Whether the node holds the image (undefined: not known). */
  hasImage(node: string, image: string): boolean | undefined;
  /** How far the image's pull on the node is, where a node reporter tells (ADR 0038). */
  pullProgress?(node: string, image: string): PullProgress | undefined;
  /** Whether exec works on the pod with a shell. */
  probe(pod: string): Promise<boolean>;
  /** Places the mounted files; the sandbox then counts as started. */
  placeFiles(t: Tracked, note: string): Promise<StartedSandbox>;
}

export const idOf = (p: k8s.V1Pod) => p.metadata?.labels?.[SANDBOX_ID];

const createdMs = (o: ReconcilerOptions, p: k8s.V1Pod) => {
  const ms = new Date(p.metadata?.creationTimestamp ?? o.now()).getTime();
  return Number.isFinite(ms) ? ms : o.now();
};

/** The record of a pod this replica does not track, or undefined when it is not this replica's to track. */
function adoptedRecord(o: ReconcilerOptions, id: string, p: k8s.V1Pod): SandboxRecord | undefined {
  const read = readRecord(p.metadata?.annotations?.[RECORD_ANNOTATION]);
  if (read.ok) return read.record;
  if (read.newer) {
    // A newer replica's (a rolling upgrade): it is theirs to run; this one neither reports nor stops it.
    if (!o.state.newerSeen.has(id))
      o.log.warn({ pod: p.metadata?.name, sandbox: id, why: read.why }, "a sandbox pod carries a record from a newer Hangar: left to it");
    o.state.newerSeen.add(id);
    return undefined;
  }
  // A record this Hangar cannot read (corrupt, or written by another version): surfaced as a
  // FAILED sandbox and its pod stopped; retention then releases the finalizer. Never dropped.
  const name = p.metadata?.name ?? podName(id);
  const rec = unreadableRecord(
    { name, id, tenantLabel: p.metadata?.labels?.[TENANT], createdMs: new Date(p.metadata?.creationTimestamp ?? o.now()).getTime() },
    read.why,
    o.now(),
  );
  o.log.warn({ pod: name, sandbox: id, why: read.why }, "a sandbox pod's record could not be read: reported FAILED, pod stopped");
  void o.deletePod(name, "its record could not be read");
  return rec;
}

/** A claimed pool pod made without the sandbox's working directory: it was applied at claim, and is for every command. */
const claimedWorkingDir = (p: k8s.V1Pod, wd: string | undefined) =>
  wd && p.spec?.containers?.find((c) => c.name === "main")?.workingDir !== wd ? { workingDir: wd } : {};

/** A pod with a record that this process did not start: track it so exec, exits and the reaper work on it. */
function adopt(o: ReconcilerOptions, id: string, p: k8s.V1Pod): Tracked | undefined {
  // Without the finalizer the record was released (retention ended): do not bring it back.
  if (!o.state.open || !p.metadata?.finalizers?.includes(RECORD_FINALIZER)) return undefined;
  const rec = adoptedRecord(o, id, p);
  if (!rec) return undefined;
  const claimed = p.metadata?.labels?.[CLAIMED_LABEL] === "true";
  const t: Tracked = {
    id,
    pod: p.metadata?.name ?? podName(id),
    baseEnv: claimed ? claimedEnv(rec, o.state.proxyAddress) : undefined,
    ...(claimed ? claimedWorkingDir(p, rec.spec.workingDir) : {}),
    ...(claimed && rec.spec.secrets?.length ? { secretEnvFile: SECRET_ENV_FILE } : {}),
    runnerId: rec.runnerId,
    spec: rec.spec,
    gvisor: rec.gvisor,
    own: false,
    shell: false,
    exited: false,
    started: false,
    ...(isCellPod(p) ? { cell: true } : {}),
  };
  o.state.tracked.set(id, t);
  emit(o.state, { t: "record", record: rec });
  t.recordText = p.metadata?.annotations?.[RECORD_ANNOTATION];
  t.recordState = rec.state;
  return t;
}

/** What the pod's annotations say that changed elsewhere: its record, and that another replica started it. */
function noteAnnotations(o: ReconcilerOptions, t: Tracked, p: k8s.V1Pod) {
  const text = p.metadata?.annotations?.[RECORD_ANNOTATION];
  if (text !== t.recordText) {
    t.recordText = text;
    const rec = decodeRecord(text);
    t.recordState = rec?.state;
    if (rec && o.state.open) emit(o.state, { t: "record", record: rec });
  }
  const execMode = p.metadata?.annotations?.[EXEC_ANNOTATION];
  if (!t.own && !t.started && execMode) {
    t.started = true;
    t.shell = execMode === "sh";
  }
}

/** A start waiting on its pod: its progress reported, and settled once the pod is past starting. */
function settleStart(o: ReconcilerOptions, t: Tracked, p: k8s.V1Pod, view: PodView) {
  if (t.settle && view.t === "starting") {
    // Scheduled, and its node does not hold the image: the kubelet is pulling it (PREPARING).
    const node = p.spec?.nodeName;
    const pulling =
      !!node &&
      !p.status?.containerStatuses?.some((c) => c.name === "main" && (c.state?.running || c.imageID)) &&
      o.hasImage(node, t.spec.image) === false;
    const pull = pulling && node ? o.pullProgress?.(node, t.spec.image) : undefined;
    const now = pull ? `${pullReason(pull)} (node ${node})` : pulling ? `pulling image ${t.spec.image} onto node ${node}` : view.reason;
    const reason = t.coldWhy ? `${now}; cold start: ${t.coldWhy}` : now;
    if (reason !== t.progress) {
      t.progress = reason;
      if (t.own) emit(o.state, { t: "progress", id: t.id, reason, preparing: pulling, ...(pull ? { pull } : {}) });
    }
  }
  // Main is being started (netinit done): exec may work before the kubelet reports it (ADR 0041).
  if (
    t.settle &&
    t.early &&
    view.t === "starting" &&
    mayExecEarly(p, t.spec.services?.length ?? 0) &&
    o.hasImage(p.spec?.nodeName ?? "", t.spec.image) !== false
  ) {
    const early = t.early;
    t.early = undefined;
    early();
  }
  if (t.settle && view.t !== "starting") {
    const settle = t.settle;
    t.settle = undefined;
    settle(view);
  }
}

function onPod(o: ReconcilerOptions, p: k8s.V1Pod, deleted: boolean) {
  const id = idOf(p);
  if (!id) return;
  const t = o.state.tracked.get(id) ?? (deleted ? undefined : adopt(o, id, p));
  if (!t) return;
  t.lastPod = p;
  noteAnnotations(o, t, p);
  const nowMs = o.now();
  const view = observePod(p, nowMs, o.startupTimeoutMs);
  settleStart(o, t, p, view);
  if (!t.own && !t.exited && !deleted && view.t === "running" && t.recordState === "CREATING") o.state.waitingStarts.add(id);
  else o.state.waitingStarts.delete(id);
  const step = podStep(
    {
      own: t.own,
      started: t.started,
      exited: t.exited,
      takingOver: !!t.takingOver,
      recordState: t.recordState,
      creatingSeenMs: t.creatingSeenMs,
      exitSeenMs: t.exitSeenMs,
      podCreatedMs: createdMs(o, p),
      waitingStarts: o.state.waitingStarts.size,
    },
    view,
    deleted,
    nowMs,
    o.startupTimeoutMs,
  );
  if (step.t === "none") {
    t.creatingSeenMs = step.creatingSeenMs ?? t.creatingSeenMs;
    t.exitSeenMs = step.exitSeenMs ?? t.exitSeenMs;
  } else if (step.t === "take-over") {
    t.creatingSeenMs = step.creatingSeenMs;
    void takeOver(o, t);
  } else {
    finish(o, t, step.exit);
    if (step.deletePod) void o.deletePod(t.pod, "its start was abandoned");
  }
}

/** Finishes the start of an adopted sandbox whose starting replica is gone: RUNNING, or FAILED saying why. */
async function takeOver(o: ReconcilerOptions, t: Tracked) {
  t.takingOver = true;
  o.log.warn({ sandbox_id: t.id, pod: t.pod }, "a sandbox is running but its record still says CREATING: finishing its start here");
  try {
    if (!t.started) {
      t.shell = await o.probe(t.pod);
      void o.agents?.open(t.pod, t.shell);
    }
    const started = await o.placeFiles(
      t,
      `kubernetes: pod ${o.namespace}/${t.pod} on node ${t.lastPod?.spec?.nodeName ?? "?"} (start finished by another replica)`,
    );
    emit(o.state, { t: "started", id: t.id, started });
  } catch (e) {
    if ((e as { code?: unknown }).code === "UNAVAILABLE") {
      // No answer from the pod (the apiserver or kubelet away): try again on a later look.
      o.log.warn({ sandbox_id: t.id, err: (e as Error).message }, "could not finish the sandbox's start yet; trying again");
      t.takingOver = false;
      t.creatingSeenMs = o.now();
      return;
    }
    finish(o, t, { exitCode: KILLED_EXIT_CODE, reason: "start could not be finished", startFailure: (e as Error).message });
    void o.deletePod(t.pod, "its start could not be finished");
  }
}

/** The main process ended: report it. The pod stays (terminated, holding no node resources) as the record until retention ends. */
function finish(o: ReconcilerOptions, t: Tracked, e: Omit<ExitInfo, "endedAtMs">) {
  if (t.exited) return;
  t.exited = true;
  // A reusable pod's channel serves its next sandbox too (its commands run in that one's cell).
  if (!t.cell) o.agents?.drop(t.pod);
  const exit: ExitInfo = { ...e, endedAtMs: o.now() };
  emit(o.state, { t: "exit", id: t.id, exit });
  // The primary ended: its sidecars end with it (the pod stays, a record, until retention ends).
  if (t.spec.sidecars?.length && !e.endedBy) void o.stop(t.id, 0).catch(() => undefined);
}

/** The pod is gone: a start waiting on it fails. */
function onDeleted(o: ReconcilerOptions, p: k8s.V1Pod) {
  onPod(o, p, true);
  if (p.metadata?.name) o.agents?.drop(p.metadata.name);
  const id = idOf(p);
  const t = id ? o.state.tracked.get(id) : undefined;
  if (t?.settle) {
    const settle = t.settle;
    t.settle = undefined;
    settle({ t: "start-failed", reason: "the pod was deleted while starting" });
  }
}

/** A periodic look at starting pods, so the startup timeout fires without a watch event. */
function tick(o: ReconcilerOptions) {
  for (const t of o.state.tracked.values())
    if ((t.settle || !t.started || (t.creatingSeenMs !== undefined && !t.takingOver)) && t.lastPod) onPod(o, t.lastPod, false);
}

export function createReconciler(o: ReconcilerOptions) {
  return {
    onPod: (p: k8s.V1Pod, deleted: boolean) => onPod(o, p, deleted),
    onDeleted: (p: k8s.V1Pod) => onDeleted(o, p),
    finish: (t: Tracked, e: Omit<ExitInfo, "endedAtMs">) => finish(o, t, e),
    tick: () => tick(o),
  };
}

export type Reconciler = ReturnType<typeof createReconciler>;
