/**
 * The warm branch of a start: a pod of the sandbox's pool (already running, exec proven on it) is
 * claimed instead of making one. Without files to place, the claim itself stores the record as
 * RUNNING (one apiserver write from idle pod to running sandbox).
 */
import type * as k8s from "@kubernetes/client-node";
import type { SandboxRecord } from "../../../core/types.js";
import { within } from "../../../core/within.js";
import type { StartedSandbox } from "../../types.js";
import { encodeRecord } from "../../record-codec.js";
import { claimPatch, EXEC_ANNOTATION, mainResourcesOf, poolMatch, type WarmPoolConfig } from "../pool/warm-pool.js";
import { egressNeed } from "../pool/config.js";
import { hostnamesOf } from "../egress/policy.js";
import { proxyEnv } from "../pod/spec.js";
import type { KubeRunner } from "./options.js";
import { placeFiles, type PlaceFilesOptions, startedNote } from "./place-files.js";
import { emit, type KubeState, RETURN_WAIT_MS, type Tracked, waitForReturn } from "./state.js";
import { isCellPod } from "../pool/reuse.js";
import { SECRET_ENV_FILE } from "../exec/claim-wrap.js";
import { cellVolumesOf } from "../pool/cell-volumes.js";
import type { EgressAtClaim } from "./egress-at-claim.js";
import { cgroupWant, type CgroupWant, type MainResources, sameResources } from "../pool/caps.js";

export interface WarmClaimOptions {
  namespace: string;
  deadlineMarginSeconds: number;
  pools: WarmPoolConfig[];
  /** netinit enforces egress: a pool pod's rules are fixed at its start (none), so only a sandbox with none fits. */
  egressFixedAtStart: boolean;
  state: KubeState;
  place: PlaceFilesOptions;
  /** Pool pods are reused (ADR 0040): a claim makes the sandbox's cell with its scratch volumes (ADR 0042). */
  cellVolumes?: boolean;
  agents?: {
    open(pod: string, shell?: boolean): Promise<unknown>;
    reset?(pod: string, volumes?: string): Promise<unknown>;
    awaitLimits?(pod: string, want: CgroupWant): Promise<{ waitedMs: number }>;
  };
  /** A `+egress` pool's claim (ADR 0044): the sandbox's egress rules loaded into the pod before it runs. */
  egressAtClaim?: Pick<EgressAtClaim, "claim">;
  /** A sized pool's claim (ADR 0043): the pod's main container resized in place (its `resize` subresource), as of a resourceVersion. */
  resize?: (pod: string, resources: MainResources, resourceVersion?: string) => Promise<k8s.V1Pod>;
}

/**
 * The pool a record's sandbox may be claimed from, or why it starts cold (undefined: no pools at
 * all, nothing to say).
 */
export function poolOf(
  o: WarmClaimOptions,
  record: SandboxRecord,
  runner: KubeRunner | undefined,
): { pool: WarmPoolConfig } | { why: string } | undefined {
  if (!o.state.warm) return undefined;
  // A pool serves one runner: its pods carry that runner's node selector (HANGAR_KUBE_WARM_POOLS @runner).
  return poolMatch(record.spec, o.pools, egressNeed(record.effectiveEgress ?? [], o.egressFixedAtStart), runner?.nodeSelector, {
    cellVolumes: !!o.cellVolumes,
  });
}

/**
 * What a claimed pod's commands get on top of the sandbox's env: HTTPS_PROXY when it has hostname
 * grants (a cold pod has it in its container env; its own env wins), so the proxy serves it.
 */
export function claimedEnv(
  record: Pick<SandboxRecord, "effectiveEgress" | "spec">,
  proxyAddress: string | undefined,
): Record<string, string> {
  const hostnames = hostnamesOf({ egress: record.effectiveEgress ?? [] });
  return { ...(hostnames.length && proxyAddress ? proxyEnv({ address: proxyAddress }) : {}), ...record.spec.env };
}

/** The merge patch that claims pod `p` for the record (RUNNING already when there are no files to place nor a directory to make). */
function claimFor(o: WarmClaimOptions, record: SandboxRecord, text: string, p: k8s.V1Pod, nowMs: number, more: boolean) {
  const spec = record.spec;
  const shell = p.metadata?.annotations?.[EXEC_ANNOTATION] === "sh";
  const where = `kubernetes: warm pod ${o.namespace}/${p.metadata?.name ?? "?"} on node ${p.spec?.nodeName ?? "?"}`;
  const running: StartedSandbox | undefined =
    spec.files.length || more
      ? undefined
      : { imageNote: startedNote(o.place, where, p, !!record.gvisor, shell), startedAtMs: nowMs, stored: true };
  const recordText = running
    ? encodeRecord({ ...record, state: "RUNNING", stateReason: running.imageNote, imageNote: running.imageNote, startedAtMs: nowMs })
    : text;
  const egress = (record.effectiveEgress ?? []).length > 0;
  const hostnames = o.state.proxyAddress ? hostnamesOf({ egress: record.effectiveEgress ?? [] }) : [];
  const deadlineSeconds = record.effectiveLifetimeSeconds + o.deadlineMarginSeconds;
  const claim = {
    id: record.id,
    spec,
    tenant: record.tenant,
    recordText,
    egress,
    deadlineSeconds,
    ...(hostnames.length ? { hostnames } : {}),
  };
  return { running, patch: claimPatch(p, claim, nowMs) };
}

/** Claims a pod of the pool for the sandbox: its start, or undefined when no pod could be claimed (start cold). */
export async function claimWarm(
  o: WarmClaimOptions,
  t: Tracked,
  match: { pool: WarmPoolConfig; workingDir?: string; volumes?: true; resources?: MainResources },
  record: SandboxRecord,
  text: string,
  secretEnv?: Record<string, string>,
): Promise<StartedSandbox | undefined> {
  const warm = o.state.warm;
  if (!warm) return undefined;
  const { pool, workingDir, volumes, resources } = match;
  // A sized pool's pod not yet at the sandbox's limits is resized before its claim patch (a resize
  // right after a label change waits for the kubelet's sync of that change: ~0.7 s measured, against
  // ~20 ms alone) and confirmed before the sandbox is RUNNING.
  const resized = new Set<string>();
  const resizes = (p?: k8s.V1Pod) => !!resources && !sameResources(mainResourcesOf(p), resources);
  const prepare =
    resources &&
    (async (p: k8s.V1Pod) => {
      if (!resizes(p)) return p;
      if (!o.resize || !o.agents?.awaitLimits) throw new Error("a sized pool needs reused pods and their exec agent");
      const name = p.metadata?.name ?? "";
      const after = await o.resize(name, resources, p.metadata?.resourceVersion);
      resized.add(name);
      return after;
    });
  const secrets = Object.keys(secretEnv ?? {}).length > 0;
  let running: StartedSandbox | undefined;
  // The candidates as the claim saw them: the claimed one stands in while the watch relists (a 410
  // during a claim left getPod empty once, and the sandbox was taken for shell-less: chaos suite).
  const candidates = new Map<string, k8s.V1Pod>();
  const patch = (p: k8s.V1Pod) => {
    candidates.set(p.metadata?.name ?? "", p);
    const more = !!workingDir || secrets || !!volumes || !!pool.shape?.egressRules || resized.has(p.metadata?.name ?? "");
    const c = claimFor(o, record, text, p, o.place.now(), more);
    running = c.running;
    return c.patch;
  };
  // A working directory or secrets applied at claim need /bin/sh in the pod (claim-wrap.ts).
  const shell = workingDir !== undefined || secrets;
  const how = { shell, ...(resources && prepare ? { resources, prepare } : {}) };
  let claimedPod = await warm.claim(pool, record.tenant, patch, how);
  // A reusable pod on its way back is worth a short wait: a cold start takes seconds (ADR 0040).
  // Every return wakes the waiting claims; one of them gets the pod, the others wait on, within the bound.
  const until = o.place.now() + RETURN_WAIT_MS;
  while (!claimedPod && o.place.now() < until && (await waitForReturn(o.state, o.place.now())))
    claimedPod = await warm.claim(pool, record.tenant, patch, { ...how, again: true });
  if (!claimedPod) return undefined;
  emit(o.state, { t: "stored", id: record.id });
  t.pod = claimedPod;
  t.baseEnv = claimedEnv(record, o.state.proxyAddress);
  if (workingDir) t.workingDir = workingDir;
  if (secrets) t.secretEnvFile = SECRET_ENV_FILE;
  const pod = o.place.getPod(claimedPod) ?? candidates.get(claimedPod);
  t.cell = isCellPod(pod);
  t.shell = pod?.metadata?.annotations?.[EXEC_ANNOTATION] === "sh";
  // Its egress rules (ADR 0044) first: their load flushes the pod's connection tracking, so no link
  // to the pod's agent may open before it (the link's packets would then be judged as new).
  if (pool.shape?.egressRules) {
    if (!o.egressAtClaim) throw new Error(`pool pod ${t.pod}'s egress rules cannot be set here`);
    await o.egressAtClaim.claim(t.pod, record);
  }
  void o.agents?.open(t.pod, t.shell);
  // Scratch volumes: the cell the sandbox runs in is made again with them, before anything is placed in it.
  if (volumes) {
    if (!t.cell || !o.agents?.reset) throw new Error(`pool pod ${t.pod} has no cell to make the sandbox's scratch volumes in`);
    await o.agents.reset(t.pod, JSON.stringify(cellVolumesOf(record.spec)));
  }
  if (resources && resized.has(claimedPod)) await confirmLimits(o, t.pod, resources);
  if (running) {
    t.started = true;
    return running;
  }
  return placeFiles(o.place, t, `kubernetes: warm pod ${o.namespace}/${claimedPod} on node ${pod?.spec?.nodeName ?? "?"}`, secretEnv);
}

/**
 * The claimed pod's new limits confirmed by its exec agent from the pod's own cgroup (the kubelet
 * applies a resize in tens of milliseconds, and reports it in its status up to seconds later): no
 * command of the sandbox runs before its limits hold.
 */
async function confirmLimits(o: WarmClaimOptions, pod: string, resources: MainResources): Promise<void> {
  if (!o.agents?.awaitLimits) throw new Error(`pool pod ${pod}'s limits cannot be confirmed here (a sized pool needs reused pods)`);
  // The agent answers within its own 5 s bound; this one is for an agent that never answers (an older one).
  await within(
    o.agents.awaitLimits(pod, cgroupWant(resources.limits)),
    LIMITS_WAIT_MS,
    () => new Error(`pool pod ${pod}'s agent did not confirm its new limits within ${LIMITS_WAIT_MS} ms`),
  );
}

const LIMITS_WAIT_MS = 10_000;
