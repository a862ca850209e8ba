/**
 * The Kubernetes runtime: each sandbox is a pod (labels = ownership + tags), watched through
 * an informer whose cache answers every state question without an apiserver request; exec,
 * files and logs go through the apiserver (exec websocket v5, pod logs).
 *
 * This file only assembles the rooms (lifecycle/): the pod watch and its reconciler, the durable
 * records, the start path, readiness and runners, over one explicit shared state (lifecycle/state.ts).
 */
import * as k8s from "@kubernetes/client-node";
import { createHash } from "node:crypto";
import { errors } from "../../core/errors.js";
import type { ExecOptions, ExecProcess, LogChunk, LogOptions, Runtime, RuntimeEvent } from "../types.js";
import { createAgentLinks } from "./exec/agent-link.js";
import { createExecPath } from "./exec/path.js";
import { DEFAULT_GPU_CONFIG } from "./nodes/capacity.js";
import { createPullWatch } from "./nodes/pull-watch.js";
import { createNodeView } from "./nodes/view.js";
import { DEFAULT_EGRESS_CONFIG } from "./egress/policy.js";
import { createEnvSecrets } from "./stores/env-secrets.js";
import { createConfigMapTemplateStore } from "./stores/template-configmaps.js";
import { createClaimVolumeRegistry } from "./stores/volume-claims.js";
import { createForkVolumes } from "./fork/volumes.js";
import { podDescription } from "./stores/pod-describe.js";
import { podLogs } from "./stores/pod-logs.js";
import { poolAgents } from "./kube-agents.js";
import { createResize } from "./pool/resize.js";
import { createEgressAtClaim } from "./lifecycle/egress-at-claim.js";
import { CountedKubeConfig } from "./kube-calls.js";
import { podsWithoutRecord } from "./pod/without-record.js";
import type { KubeRuntimeOptions } from "./lifecycle/options.js";
import { createKubeState, type KubeState, nameOf } from "./lifecycle/state.js";
import { createPodDeletes } from "./lifecycle/pod-deletes.js";
import { createPodWatch } from "./lifecycle/pod-watch.js";
import { createReconciler } from "./lifecycle/reconciler.js";
import { createRecords } from "./lifecycle/records.js";
import { placeFiles, type PlaceFilesOptions } from "./lifecycle/place-files.js";
import type { PodPlanOptions } from "./lifecycle/pod-plan.js";
import { start, type StartOptions } from "./lifecycle/start.js";
import { createReadiness } from "./lifecycle/ready.js";
import { runners } from "./lifecycle/runners.js";
import { createCells } from "./lifecycle/cells.js";
import { createEndedRecords } from "./stores/ended-records.js";
import { isCellPod } from "./pool/reuse.js";

async function* noLogs(): AsyncIterable<LogChunk> {}

/** The main container's id: a new container is a new log (offsets restart). */
function logSession(pod: k8s.V1Pod | undefined): string | undefined {
  const cid = pod?.status?.containerStatuses?.find((c) => c.name === "main")?.containerID;
  return cid ? createHash("sha256").update(cid).digest("hex").slice(0, 12) : undefined;
}

export type { KubeRunner, KubeRuntimeOptions } from "./lifecycle/options.js";

/** The egress enforcement configured: netinit needs its image. */
function egressOf(o: KubeRuntimeOptions) {
  const egress = o.egress ?? DEFAULT_EGRESS_CONFIG;
  const netinitImage = egress.enforcement === "netinit" ? egress.netinitImage : undefined;
  if (egress.enforcement === "netinit" && !netinitImage)
    throw new Error("egress enforcement netinit needs the image holding hangar-netinit (HANGAR_KUBE_NETINIT_IMAGE)");
  return { egress, netinitImage };
}

/** What pods are planned with (pod-plan.ts): the runtime's options, its egress, state and node view. */
const planOf = (o: KubeRuntimeOptions, state: KubeState, nodes: ReturnType<typeof createNodeView>): PodPlanOptions => ({
  ...o,
  ...egressOf(o),
  gpu: o.gpu ?? DEFAULT_GPU_CONFIG,
  state,
  nodes,
});

/** Exec: the agent links (installed with plain exec, which needs no agent: built in that order) and the exec path. */
function execRooms(
  o: KubeRuntimeOptions,
  podIp: (pod: string) => string | undefined,
  stop: (id: string) => Promise<void>,
  cellAgent: (pod: string) => string | undefined,
) {
  const run = (pod: string, argv: string[], input?: Buffer) => execPath.run(pod, argv, input);
  const direct = o.agentDirectPorts ? { ports: o.agentDirectPorts, podIp } : undefined;
  const agents = o.execAgent
    ? createAgentLinks({ kc: o.kubeConfig, namespace: o.namespace, binary: o.execAgent, run, log: o.log, ...(direct ? { direct } : {}) })
    : undefined;
  // A command nothing in its pod can kill ends its sandbox (ADR 0032): never left running unseen.
  const lastResort = async (t: { id: string }, why: string) => {
    o.log.warn({ sandbox_id: t.id, why }, "ending the sandbox: the only way to kill its command");
    await stop(t.id);
  };
  const execPath = createExecPath({ kubeConfig: o.kubeConfig, namespace: o.namespace, agents, lastResort, cellAgent });
  return { run, agents, execPath };
}

/** The watch, its reconciler and the records over one shared state; the deletes and exec they use. */
function watchRooms(o: KubeRuntimeOptions, core: k8s.CoreV1Api, nodes: ReturnType<typeof createNodeView>) {
  const now = Date.now;
  const state = createKubeState();
  const watch = createPodWatch({ kubeConfig: o.kubeConfig, core, namespace: o.namespace, state, log: o.log });
  const deletes = createPodDeletes({ core, namespace: o.namespace, log: o.log });
  const stop = (id: string, graceMs: number) => {
    const t = state.tracked.get(id);
    return t?.cell ? cells.stop(t, graceMs) : deletes.stopPod(nameOf(state, id), graceMs);
  };
  const { run, agents, execPath } = execRooms(
    o,
    (pod) => watch.get(pod)?.status?.podIP,
    (id) => stop(id, 0),
    (pod) => (o.execAgent && isCellPod(watch.get(pod)) ? o.execAgent.mounted : undefined),
  );
  const place: PlaceFilesOptions = {
    state,
    userNamespaces: o.userNamespaces,
    run,
    getPod: watch.get,
    onPod: (p, deleted) => reconciler.onPod(p, deleted),
    now,
  };
  const reconciler = createReconciler({
    state,
    namespace: o.namespace,
    startupTimeoutMs: o.startupTimeoutMs,
    now,
    log: o.log,
    deletePod: deletes.deletePod,
    stop,
    agents,
    hasImage: nodes.hasImage,
    ...(o.pullProgressPort
      ? { pullProgress: createPullWatch({ port: o.pullProgressPort, addressOf: nodes.internalIp, now }).progress }
      : {}),
    probe: (pod) => execPath.probe(pod),
    placeFiles: (t, note) => placeFiles(place, t, note),
  });
  const ended = createEndedRecords({
    kubeConfig: o.kubeConfig,
    core,
    namespace: o.namespace,
    log: o.log,
    onRecord: (id, text) => records.ended(id, text),
    closing: () => state.closing,
  });
  const cells = createCells({
    core,
    egressAtClaim: createEgressAtClaim({ plan: planOf(o, state, nodes), run: execPath.run, closeDirect: (p) => agents?.closeDirect(p) }),
    namespace: o.namespace,
    watch,
    ...(agents ? { agents } : {}),
    ended,
    finish: reconciler.finish,
    deletePod: deletes.deletePod,
    stopPod: deletes.stopPod,
    track: deletes.track,
    fresh: state.fresh,
    state,
    returned: (name) => state.warm?.returned(name),
    log: o.log,
  });
  const records = createRecords({
    core,
    namespace: o.namespace,
    deadlineMarginSeconds: o.deadlineMarginSeconds,
    state,
    watch,
    onPod: reconciler.onPod,
    track: deletes.track,
    log: o.log,
    cells: () => cells,
    // The records of sandboxes whose reused pod went back to its pool (kept even once reuse is turned off).
    startEnded: () =>
      ended.start().catch((e: unknown) => o.log.warn({ err: e }, "could not list the ended sandboxes of reused pods; retrying")),
  });
  watch.route({ onPod: reconciler.onPod, onDeleted: reconciler.onDeleted, onAdded: records.added });
  // A periodic look at starting pods, so the startup timeout fires without a watch event.
  const ticker = setInterval(reconciler.tick, 1000).unref();
  return { state, watch, deletes, stop, agents, execPath, place, reconciler, records, ended, ticker };
}

type WatchRooms = ReturnType<typeof watchRooms>;

/** The start path and readiness, over the watch rooms. */
function startRooms(o: KubeRuntimeOptions, core: k8s.CoreV1Api, nodes: ReturnType<typeof createNodeView>, w: WatchRooms) {
  const { state, place, agents, execPath } = w;
  const plan = planOf(o, state, nodes);
  const envSecrets = createEnvSecrets({ core, namespace: o.namespace, log: o.log, hasPod: (id) => !!w.watch.get(nameOf(state, id)) });
  const fork = o.forkDriver ? createForkVolumes(o.forkDriver) : undefined;
  const pools = o.warmPools ?? [];
  const starts: StartOptions = {
    ...o,
    core,
    state,
    plan,
    place,
    warm: {
      namespace: o.namespace,
      deadlineMarginSeconds: o.deadlineMarginSeconds,
      pools,
      egressFixedAtStart: !!plan.netinitImage,
      egressAtClaim: createEgressAtClaim({ plan, run: execPath.run, closeDirect: (p) => agents?.closeDirect(p) }),
      cellVolumes: !!o.poolReuse,
      state,
      place,
      agents,
      resize: createResize(core, o.namespace),
    },
    envSecrets,
    fork,
    agents,
    probe: execPath.probe,
    ...(o.earlyExec ? { probeOnce: execPath.probeOnce } : {}),
    deletePod: w.deletes.deletePod,
    finish: w.reconciler.finish,
  };
  const ready = createReadiness({
    ...o,
    core,
    state,
    watch: w.watch,
    egress: plan.egress,
    netinitImage: plan.netinitImage,
    plan,
    envSecrets,
    nodes,
    probe: execPath.probe,
    agents,
  });
  return { starts, ready, fork, egress: plan.egress, netinitImage: plan.netinitImage };
}

export function createKubernetesRuntime(o: KubeRuntimeOptions): Runtime & { ready(): Promise<void> } {
  poolAgents(o.kubeConfig);
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const connectedAtMs = Date.now();
  const nodes = createNodeView({
    kubeConfig: o.kubeConfig,
    runners: o.runners,
    gpu: o.gpu ?? DEFAULT_GPU_CONFIG,
    fallbackCapacity: o.fallbackCapacity,
    runtimeClassName: o.runtimeClassName,
    refreshMs: o.nodeRefreshMs ?? 30_000,
  });
  const w = watchRooms(o, core, nodes);
  const { state, watch, records, agents, execPath } = w;
  const { starts, ready, fork, egress, netinitImage } = startRooms(o, core, nodes, w);
  async function close(): Promise<void> {
    state.closing = true;
    records.close();
    clearInterval(w.ticker);
    nodes.close();
    state.warm?.close();
    agents?.close();
    await ready.closeProxy();
    await Promise.race([Promise.allSettled([...w.deletes.pending(), records.idle()]), new Promise((r) => setTimeout(r, 10_000).unref())]);
    await watch.stop();
    await w.ended.stop();
  }
  return {
    name: "kubernetes",
    records: records.records,
    templates: createConfigMapTemplateStore(o.kubeConfig, o.namespace),
    volumes: createClaimVolumeRegistry(o.kubeConfig, o.namespace),
    ready: ready.ready,
    runners: () => runners({ ...o, state, nodes, egress, netinitImage, connectedAtMs }),
    start: (record, secrets) => start(starts, record, secrets),
    ...(fork ? { layers: fork.layers } : {}),
    subscribe: (l: (e: RuntimeEvent) => void) => {
      state.listeners.add(l);
      return () => void state.listeners.delete(l);
    },
    stop: w.stop,
    exec: async (id: string, opts: ExecOptions): Promise<ExecProcess> => {
      const t = state.tracked.get(id);
      if (!t || t.exited) throw errors.notRunning(id, "exited");
      return execPath.exec(t, opts);
    },
    // A sandbox in a cell has no main process of its own: the pod's log is its supervisor's, never shown as the sandbox's.
    logs: (id: string, opts: LogOptions): AsyncIterable<LogChunk> =>
      state.tracked.get(id)?.cell ? noLogs() : podLogs(o.kubeConfig, o.namespace, nameOf(state, id), opts),
    logSession: (id) => logSession(watch.get(nameOf(state, id))),
    remove: records.remove,
    close,
    watchStats: watch.stats,
    execStats: execPath.stats,
    poolStats: () => state.warm?.stats() ?? [],
    describe: (id) => podDescription(core, o.namespace, watch.get(nameOf(state, id)), nameOf(state, id)),
    netinitStats: () => ({ failures: state.netinitFailures }),
    podStats: () => ({ withoutRecord: state.open ? podsWithoutRecord(watch.list(), (id) => state.tracked.has(id)) : 0 }),
    ...(o.kubeConfig instanceof CountedKubeConfig ? { apiStats: () => (o.kubeConfig as CountedKubeConfig).stats() } : {}),
    ...(agents ? { agentStats: () => ({ ...agents.stats() }) } : {}),
  };
}
