/**
 * The start path: a record becomes a running pod — a warm pool pod claimed, or a pod made cold (its
 * Secrets and Services with it), waited for until the reconciler settles it, exec probed, files placed.
 */
import type * as k8s from "@kubernetes/client-node";
import type { StartSecrets } from "../../../core/secrets.js";
import type { SandboxRecord } from "../../../core/types.js";
import type { ExitInfo, StartedSandbox } from "../../types.js";
import type { createEnvSecrets } from "../stores/env-secrets.js";
import { type createForkVolumes, mountFailure } from "../fork/volumes.js";
import { isConflict, isForbidden, podCreateError, retryWhile } from "../kube-errors.js";
import { NETINIT_CONTAINER, podName, type PodOptions } from "../pod/spec.js";
import { observePod, type PodView } from "../pod/state.js";
import { encodeRecord } from "../../record-codec.js";
import { createServices } from "../routes/services.js";
import type { KubeRuntimeOptions } from "./options.js";
import { placeFiles, type PlaceFilesOptions } from "./place-files.js";
import { coldPod, type PodPlanOptions } from "./pod-plan.js";
import { emit, type KubeState, type Tracked, untrack } from "./state.js";
import { claimWarm, poolOf, type WarmClaimOptions } from "./warm-claim.js";

export interface StartOptions extends Pick<KubeRuntimeOptions, "kubeConfig" | "namespace" | "runners" | "publicGateway" | "publicTls"> {
  core: k8s.CoreV1Api;
  state: KubeState;
  plan: PodPlanOptions;
  place: PlaceFilesOptions;
  warm: WarmClaimOptions;
  envSecrets: ReturnType<typeof createEnvSecrets>;
  fork?: ReturnType<typeof createForkVolumes>;
  agents?: { open(pod: string, shell?: boolean): Promise<unknown> };
  probe(pod: string, container?: string, stop?: () => boolean): Promise<boolean>;
  /** One try of the shell probe: true/false as probe answers, undefined when exec does not work yet. */
  probeOnce?(pod: string): Promise<boolean | undefined>;
  deletePod(name: string, why: string): Promise<void>;
  finish(t: Tracked, e: Omit<ExitInfo, "endedAtMs">): void;
}

/** A start whose restored volumes the node plugin cloned says so: no tar restore follows. */
export async function start(o: StartOptions, record: SandboxRecord, secrets?: StartSecrets): Promise<StartedSandbox> {
  const csi = o.fork?.csiVolumes(record.spec) ?? {};
  const started = await startPod(o, record, secrets, csi);
  return Object.keys(csi).length ? { ...started, restored: Object.keys(csi) } : started;
}

async function startPod(
  o: StartOptions,
  record: SandboxRecord,
  secrets: StartSecrets | undefined,
  csiVolumes: NonNullable<PodOptions["csiVolumes"]>,
): Promise<StartedSandbox> {
  const { id, spec } = record;
  const runner = o.runners.find((r) => r.runnerId === record.runnerId) ?? o.runners[0];
  const text = encodeRecord(record);
  const t: Tracked = {
    id,
    pod: podName(id),
    runnerId: runner?.runnerId ?? record.runnerId,
    spec,
    gvisor: record.gvisor,
    own: true,
    shell: false,
    exited: false,
    started: false,
    recordText: text,
  };
  o.state.tracked.set(id, t);
  const match = poolOf(o.warm, record, runner);
  if (match && "pool" in match) {
    const claimed = await claimWarm(o.warm, t, match, record, text, secrets?.env);
    if (claimed) return claimed;
  }
  // Why it starts cold, in its status from now on (and in the note it runs with).
  t.coldWhy = match && ("why" in match ? match.why : noIdlePod(match, !!Object.keys(secrets?.env ?? {}).length));
  if (t.coldWhy) emit(o.state, { t: "progress", id, reason: `cold start: ${t.coldWhy}` });
  const pod = coldPod(o.plan, { record, text, runner, secrets, csiVolumes });
  const { made, settled } = await createPod(o, t, pod, secrets);
  // Owned by the pod just made (on a 409 the replica that made it makes them).
  if (made && spec.services?.length) {
    const err = await createServices(o.kubeConfig, o.namespace, id, spec.services, made, {
      ...(o.publicGateway ? { http: o.publicGateway } : {}),
      ...(o.publicTls ? { tls: o.publicTls } : {}),
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    if (err) {
      await o.deletePod(t.pod, "its Service could not be made");
      throw err;
    }
  }
  return running(o, t, await settled, Object.keys(csiVolumes).length > 0);
}

/**
 * Makes the pod (and its Secrets first): the pod made, or undefined when another replica made it
 * (409: adopted); `settled` resolves when the reconciler sees it past starting.
 */
async function createPod(
  o: StartOptions,
  t: Tracked,
  pod: k8s.V1Pod,
  secrets: StartSecrets | undefined,
): Promise<{ made?: k8s.V1Pod; settled: Promise<PodView> }> {
  const id = t.id;
  const secretNames = secrets ? await o.envSecrets.create(id, secrets) : [];
  const settled = new Promise<PodView>((resolve) => {
    t.settle = resolve;
    if (o.probeOnce) t.early = () => void earlyExec(o, t, resolve);
  });
  // A denial is retried for ~4 s (an apiserver that just restarted denies until its RBAC caches
  // fill); an unreachable apiserver is answered UNAVAILABLE at once, and the caller retries.
  const created = retryWhile(() => o.core.createNamespacedPod({ namespace: o.namespace, body: pod }), isForbidden, 5);
  t.created = created;
  try {
    const made = await created;
    emit(o.state, { t: "stored", id });
    if (secretNames.length) void o.envSecrets.own(id, secretNames, made);
    return { made, settled };
  } catch (e) {
    // 409: another replica already created this sandbox's pod (same request_id): adopt it.
    if (!isConflict(e)) {
      untrack(o.state, id);
      if (secretNames.length) void o.envSecrets.drop(id, secretNames);
      throw podCreateError(e);
    }
    emit(o.state, { t: "stored", id });
    const existing = o.place.getPod(podName(id));
    if (existing) o.place.onPod(existing, false);
    return { settled };
  }
}

/** The pod is past starting: failed (deleted, saying why), exited at once, or running (probed, files placed). */
async function running(o: StartOptions, t: Tracked, view: PodView, cloned: boolean): Promise<StartedSandbox> {
  if (view.t === "start-failed") {
    if (view.initContainer === NETINIT_CONTAINER) o.state.netinitFailures++;
    // A volume the node plugin would not publish: say why (the kubelet's FailedMount event).
    const mount = cloned ? await mountFailure(o.core, o.namespace, t.pod) : undefined;
    await o.deletePod(t.pod, "its sandbox failed to start");
    throw new Error(mount ? `${view.reason}: ${mount}` : view.reason);
  }
  const exitedAtOnce = (v: Extract<PodView, { t: "exited" }>) => {
    t.started = true;
    // After the controller has seen start() resolve (RUNNING), the exit follows.
    setTimeout(
      () => o.finish(t, { exitCode: v.exitCode, reason: v.reason, endedBy: v.endedBy, ...(v.ranAtMs ? { ranAtMs: v.ranAtMs } : {}) }),
      0,
    );
    return { imageNote: `pod ${t.pod}: exited at once`, startedAtMs: o.place.now() };
  };
  if (view.t === "exited") return exitedAtOnce(view);
  // RUNNING means exec works: probe it, and learn whether the image has a shell. A main process
  // that exits while it is probed (seen running, gone by the exec) exited at once too: its exit
  // code is the answer, not a probe that cannot reach a stopped container.
  const exitedNow = () => {
    const v = t.lastPod ? observePod(t.lastPod, o.place.now(), o.plan.startupTimeoutMs) : undefined;
    return v?.t === "exited" ? v : undefined;
  };
  t.shell = t.earlyShell ?? (await o.probe(t.pod, undefined, () => !!exitedNow()));
  const gone = exitedNow();
  if (gone) return exitedAtOnce(gone);
  void o.agents?.open(t.pod, t.shell); // shell-less too: netinit's copy makes its commands killable (ADR 0032)
  return placeFiles(o.place, t, `kubernetes: pod ${o.namespace}/${t.pod} on node ${t.lastPod?.spec?.nodeName ?? "?"}`);
}

/** How often, and how many times, a start tries exec before the pod's status says main runs. */
export const EARLY_EXEC_EVERY_MS = 100;
export const EARLY_EXEC_TRIES = 20;

/**
 * Tries the shell probe while main is being started (the reconciler saw mayExecEarly): the first
 * answer settles the start as running, before the kubelet's next relist reports it (ADR 0041). A
 * start settled meanwhile (the status came, or the pod failed) ends the tries.
 */
async function earlyExec(o: StartOptions, t: Tracked, resolve: (v: PodView) => void): Promise<void> {
  for (let i = 0; i < EARLY_EXEC_TRIES && t.settle === resolve; i++) {
    const shell = await o.probeOnce!(t.pod).catch(() => undefined);
    if (t.settle !== resolve) return;
    if (shell !== undefined) {
      t.settle = undefined;
      t.earlyShell = shell;
      resolve({ t: "running" });
      return;
    }
    await new Promise((r) => setTimeout(r, EARLY_EXEC_EVERY_MS));
  }
}

/** Why a sandbox its pool could serve started cold: no pod was idle — or none whose image has /bin/sh, which claim-time secrets and a working directory need. */
export function noIdlePod(match: { pool: { image: string }; workingDir?: string }, secrets: boolean): string {
  const sh = match.workingDir !== undefined || secrets;
  return `its warm pool (image ${match.pool.image}) had no idle pod${sh ? " whose image has /bin/sh (secrets and a working directory applied at claim need it)" : ""}`;
}
