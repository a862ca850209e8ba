/**
 * The Kubernetes runtime: each sandbox is a pod (labels = ownership + tags), watched through
 * an informer whose cache answers every state question without an apiserver request; exec,
 * files and logs go through the apiserver (exec websocket v5, pod logs).
 */
import * as k8s from "@kubernetes/client-node";
import { createHash, randomUUID } from "node:crypto";
import { errors } from "../../core/errors.js";
import { cpuMillicores, parseQuantity } from "../../core/quantity.js";
import { DEFAULT_MAIN_ARGV, gpuAsk, type RunnerInfo, type SandboxRecord, type SandboxSpec } from "../../core/types.js";
import type {
  DurableRecords,
  ExecOptions,
  ExecProcess,
  ExitInfo,
  LogChunk,
  LogOptions,
  Runtime,
  RuntimeEvent,
  StartedSandbox,
  WatchStats,
} from "../types.js";
import { type AgentBinary, createAgentLinks } from "./exec/agent-link.js";
import type { DirectPorts } from "./exec/agent-direct.js";
import { createExecPath } from "./exec/path.js";
import { detailOf, isConflict, isForbidden, isNotFound, isTransient, podCreateError, retryWhile } from "./kube-errors.js";
import { MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID, TENANT } from "./labels.js";
import { DEFAULT_GPU_CONFIG, type GpuConfig, gpuAffinity } from "./node-capacity.js";
import { createNodeView } from "./node-view.js";
import { allowsEgress, DEFAULT_EGRESS_CONFIG, type EgressConfig, hostnamesOf, netinitPolicy, neverRanges } from "./egress-policy.js";
import { createIdLookup, ID_SETTLE_MS } from "./id-lookup.js";
import { apiserverAddresses, HOSTS_ANNOTATION, ownAddresses, startEgressProxy } from "./egress-proxy.js";
import type { StartSecrets } from "../../core/secrets.js";
import { createEnvSecrets } from "./env-secrets.js";
import { createServices } from "./services.js";
import type { PublicGateway, PublicTlsGateway } from "./public-routes.js";
import { createConfigMapTemplateStore } from "./template-configmaps.js";
import { createClaimVolumeRegistry } from "./volume-claims.js";
import { createForkVolumes, mountFailure } from "./fork-volumes.js";
import { buildPod, EGRESS_LABEL, podName, type PodOptions } from "./pod-spec.js";
import { podLogs } from "./pod-logs.js";
import { tightenedDeadline } from "./deadline.js";
import { observePod, type PodView, slimPod } from "./pod-state.js";
import { podStep } from "./pod-step.js";
import { decodeRecord, encodeRecord, readRecord, RECORD_ANNOTATION, RECORD_FINALIZER, unreadableRecord } from "./record-codec.js";
import { createRecordStore } from "./record-store.js";
import { poolAgents } from "./kube-agents.js";
import { probeUserNamespaces, type UsernsMode } from "./userns.js";
import { CLAIMED_LABEL, claimPatch, createWarmPools, EXEC_ANNOTATION, POOL_LABEL, poolFor, type WarmPoolConfig } from "./warm-pool.js";
import { KILLED_EXIT_CODE } from "../../core/exit-code.js";

export interface KubeRunner {
  runnerId: string;
  runnerGroupId: string;
  nodeSelector: Record<string, string>;
}

export interface KubeRuntimeOptions {
  kubeConfig: k8s.KubeConfig;
  namespace: string;
  startupTimeoutMs: number;
  /** Extra seconds beyond the sandbox lifetime before Kubernetes' own activeDeadlineSeconds ends the pod. */
  deadlineMarginSeconds: number;
  defaultLifetimeSeconds: number;
  defaultDenyEgress: boolean;
  /** User namespaces for sandbox pods (userns.ts): auto = probe and use them where they work; default off. */
  userNamespaces?: UsernsMode;
  /** How egress is enforced (egress-policy.ts, ADR 0012); default: the chart's NetworkPolicies only. */
  egress?: EgressConfig;
  runtimeClassName?: string;
  /** The CSI driver of hangar-forkcsi (fork-volumes.ts, ADR 0029): restored volumes are copy-on-write clones; unset = tar -x in the sandbox. */
  forkDriver?: string;
  /** A sandbox pod's own disk past which the kubelet evicts it (pod-spec.ts ephemeralStorageLimit, ADR 0028); undefined: no cap. */
  ephemeralStorageBytes?: number;
  /** Tolerations on every sandbox pod (tainted GPU pools); the same shape as the Kubernetes field. */
  tolerations?: k8s.V1Toleration[];
  /** The cluster's DNS domain (HANGAR_KUBE_CLUSTER_DOMAIN): service addresses end in <namespace>.svc.<domain>. */
  clusterDomain?: string;
  /** PUBLIC services: the Gateway that publishes them (HANGAR_PUBLIC_GATEWAY, HANGAR_PUBLIC_URL); absent = refused. */
  publicGateway?: PublicGateway;
  /** TLS passthrough endpoints: the Gateway TLS listener and SNI names (HANGAR_PUBLIC_TLS_GATEWAY, HANGAR_PUBLIC_TLS_ADDRESS); absent = refused. */
  publicTls?: PublicTlsGateway;
  /** Secret stores are configured: sandboxes may carry secrets (their own Secret, env-secrets.ts). */
  secrets?: boolean;
  /** Pre-started pods per image (warm-pool.ts); none = every create is cold. */
  warmPools?: WarmPoolConfig[];
  /** The persistent exec path (ADR 0008): commands go through hangar-agent over one exec per pod. Unset = plain exec. */
  execAgent?: AgentBinary;
  /** With execAgent: the ports its direct link (ADR 0022) may listen on; unset = the exec channel only. */
  agentDirectPorts?: DirectPorts;
  /** With execAgent and netinit: hangar-agent's path in the netinit image, which netinit copies into each pod (ADR 0023); unset = through exec stdin. */
  agentImagePath?: string;
  /** Reported capacity per runner when the identity may not list nodes (namespace-scoped). */
  fallbackCapacity: { cpuMillicores: number; memoryBytes: number };
  /** Runners: each a node selector (a node pool; {} = any node). The first is the default. */
  runners: KubeRunner[];
  /** GPUs on the nodes: the extended resource and the model and memory labels (node-capacity.ts). */
  gpu?: GpuConfig;
  /** How often the nodes' capacity and GPU labels are read again (ms). */
  nodeRefreshMs?: number;
  organizationId: string;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

interface Tracked {
  id: string;
  /** The last reason reported while starting (RuntimeEvents.onProgress). */
  progress?: string;
  /** The pod's name: sbx-<id> when created cold, the pool pod's name when claimed warm. */
  pod: string;
  /** Env applied to every exec: the spec's env when the pod was claimed from a pool. */
  baseEnv?: Record<string, string>;
  runnerId: string;
  spec: SandboxSpec;
  /** This replica's start() is in charge (until it returns); else adopted: another replica's, or from before a restart. */
  own: boolean;
  shell: boolean;
  exited: boolean;
  started: boolean;
  settle?: (v: PodView) => void;
  lastPod?: k8s.V1Pod;
  /** The record annotation last seen on the pod, to notice changes made elsewhere. */
  recordText?: string;
  /** Settles when the pod was created (writes of the record wait for it). */
  created?: Promise<unknown>;
  /** When this replica first saw the pod of an adopted, not yet started sandbox exited. */
  exitSeenMs?: number;
  /** When this replica first saw an adopted sandbox's pod running while its record said CREATING. */
  creatingSeenMs?: number;
  /** The state in that record. */
  recordState?: string;
  takingOver?: boolean;
  /** What the sandbox asks of its runner (parsed once: runners() sums it on every create). */
  asks?: { cpu: number; memory: number; gpus: number };
}

export function createKubernetesRuntime(o: KubeRuntimeOptions): Runtime & { ready(): Promise<void> } {
  poolAgents(o.kubeConfig);
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const tracked = new Map<string, Tracked>();
  const selector = `${MANAGED_BY}=${MANAGED_BY_VALUE}`;
  const connectedAtMs = Date.now();
  const gpuConfig = o.gpu ?? DEFAULT_GPU_CONFIG;
  const nodes = createNodeView({
    kubeConfig: o.kubeConfig,
    runners: o.runners,
    gpu: gpuConfig,
    fallbackCapacity: o.fallbackCapacity,
    runtimeClassName: o.runtimeClassName,
    refreshMs: o.nodeRefreshMs ?? 30_000,
  });
  const egressConfig = o.egress ?? DEFAULT_EGRESS_CONFIG;
  const netinitImage = egressConfig.enforcement === "netinit" ? egressConfig.netinitImage : undefined;
  if (egressConfig.enforcement === "netinit" && !netinitImage)
    throw new Error("egress enforcement netinit needs the image holding hangar-netinit (HANGAR_KUBE_NETINIT_IMAGE)");
  /** Whether sandbox pods run with hostUsers: false, and what each sandbox's status says about it. */
  let userns = { on: false, note: "user namespaces off (HANGAR_KUBE_USER_NAMESPACES=off)" };
  /** The ip:port sandboxes with hostname grants dial (the proxy's, once it listens). */
  let proxyAddress: string | undefined;
  let proxy: Awaited<ReturnType<typeof startEgressProxy>> | undefined;
  const netinitFor = (spec: Pick<SandboxSpec, "denyEgress" | "egress" | "runtimeClass">): PodOptions["netinit"] =>
    netinitImage && !(spec.runtimeClass && egressConfig.gvisorRuntimeClasses.includes(spec.runtimeClass))
      ? {
          image: netinitImage,
          path: egressConfig.netinitPath,
          policy: netinitPolicy(
            spec,
            o.defaultDenyEgress,
            egressConfig,
            nodes.addresses(),
            proxyAddress,
            o.execAgent ? o.agentDirectPorts : undefined,
          ),
          ...(o.execAgent && o.agentImagePath ? { agent: o.agentImagePath } : {}),
        }
      : undefined;
  /** The hostname grants of the sandbox pod with this IP (the proxy's only way to know a caller). */
  const grantsOf = (ip: string): string[] | undefined => {
    for (const p of informer.list(o.namespace)) {
      if (p.status?.podIP !== ip || ["Succeeded", "Failed"].includes(p.status?.phase ?? "")) continue;
      const text = p.metadata?.annotations?.[HOSTS_ANNOTATION];
      try {
        const v: unknown = text ? JSON.parse(text) : undefined;
        return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
  let closing = false;
  /** The controller's side of the event stream (subscribe), and whether records are being delivered (records.open). */
  const listeners = new Set<(e: RuntimeEvent) => void>();
  const emit = (e: RuntimeEvent) => {
    for (const l of listeners) l(e);
  };
  let open = false;
  const nameOf = (id: string) => tracked.get(id)?.pod ?? podName(id);
  const store = createRecordStore(core, o.namespace, nameOf, o.log);
  let warm: ReturnType<typeof createWarmPools> | undefined;
  // The agent links install with plain exec (run), which needs no agent: built in that order.
  const run = (pod: string, argv: string[], input?: Buffer) => execPath.run(pod, argv, input);
  const direct = o.agentDirectPorts
    ? { ports: o.agentDirectPorts, podIp: (pod: string) => informer.get(pod, o.namespace)?.status?.podIP }
    : undefined;
  const agents = o.execAgent
    ? createAgentLinks({ kc: o.kubeConfig, namespace: o.namespace, binary: o.execAgent, run, log: o.log, ...(direct ? { direct } : {}) })
    : undefined;
  // A command nothing in its pod can kill ends its sandbox (ADR 0032): never left running unseen.
  const lastResort = async (t: { id: string }, why: string) => {
    o.log.warn({ sandbox_id: t.id, why }, "ending the sandbox: the only way to kill its command");
    await stop(t.id, 0);
  };
  const execPath = createExecPath({ kubeConfig: o.kubeConfig, namespace: o.namespace, agents, lastResort });
  const probe = execPath.probe;
  // Deletes still in flight: close() waits for them so a stop accepted just before shutdown is not lost.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  /**
   * Deletes a pod at once (grace 0) that must not keep running: the pod of a start that failed, of
   * an unreadable record, of an orphaned start. Asked again while the apiserver cannot answer
   * (the chaos suite restarts it); 404 means done; a refusal is logged.
   */
  const deletePod = (name: string, why: string): Promise<void> =>
    track(
      (async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            await core.deleteNamespacedPod({ name, namespace: o.namespace, gracePeriodSeconds: 0 });
            return;
          } catch (e) {
            if (isNotFound(e)) return;
            if (!isTransient(e) || attempt >= 10) {
              o.log.warn({ pod: name, err: detailOf(e) }, `could not delete the pod (${why})`);
              return;
            }
            await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 4000)).unref());
          }
        }
      })(),
    );

  const envSecrets = createEnvSecrets({
    core,
    namespace: o.namespace,
    log: o.log,
    hasPod: (id) => !!informer.get(nameOf(id), o.namespace),
  });

  const informer = k8s.makeInformer(
    o.kubeConfig,
    `/api/v1/namespaces/${o.namespace}/pods`,
    () => core.listNamespacedPod({ namespace: o.namespace, labelSelector: selector }),
    selector,
  );
  const idOf = (p: k8s.V1Pod) => p.metadata?.labels?.[SANDBOX_ID];
  const createdMs = (p: k8s.V1Pod) => {
    const ms = new Date(p.metadata?.creationTimestamp ?? Date.now()).getTime();
    return Number.isFinite(ms) ? ms : Date.now();
  };
  /** Other replicas' starts seen waiting (pod running, record CREATING): the takeover's patience grows with them. */
  const waitingStarts = new Set<string>();
  /** A pod with a record that this process did not start: track it so exec, exits and the reaper work on it. */
  const newerSeen = new Set<string>();
  const adopt = (id: string, p: k8s.V1Pod): Tracked | undefined => {
    const text = p.metadata?.annotations?.[RECORD_ANNOTATION];
    // Without the finalizer the record was released (retention ended): do not bring it back.
    if (!open || !p.metadata?.finalizers?.includes(RECORD_FINALIZER)) return undefined;
    const read = readRecord(text);
    let rec: SandboxRecord;
    if (read.ok) rec = read.record;
    else if (read.newer) {
      // A newer replica's (a rolling upgrade): it is theirs to run; this one neither reports nor stops it.
      if (!newerSeen.has(id))
        o.log.warn({ pod: p.metadata?.name, sandbox: id, why: read.why }, "a sandbox pod carries a record from a newer Hangar: left to it");
      newerSeen.add(id);
      return undefined;
    } else {
      // A record this Hangar cannot read (corrupt, or written by another version): surfaced as a
      // FAILED sandbox and its pod stopped; retention then releases the finalizer. Never dropped.
      const name = p.metadata?.name ?? podName(id);
      rec = unreadableRecord(
        { name, id, tenantLabel: p.metadata?.labels?.[TENANT], createdMs: new Date(p.metadata?.creationTimestamp ?? Date.now()).getTime() },
        read.why,
        Date.now(),
      );
      o.log.warn({ pod: name, sandbox: id, why: read.why }, "a sandbox pod's record could not be read: reported FAILED, pod stopped");
      void deletePod(name, "its record could not be read");
    }
    const claimed = p.metadata?.labels?.[CLAIMED_LABEL] === "true";
    const t: Tracked = {
      id,
      pod: p.metadata?.name ?? podName(id),
      baseEnv: claimed ? rec.spec.env : undefined,
      runnerId: rec.runnerId,
      spec: rec.spec,
      own: false,
      shell: false,
      exited: false,
      started: false,
    };
    tracked.set(id, t);
    emit({ t: "record", record: rec });
    t.recordText = text;
    t.recordState = rec.state;
    return t;
  };
  const onPod = (p: k8s.V1Pod, deleted: boolean) => {
    const id = idOf(p);
    if (!id) return;
    const t = tracked.get(id) ?? (deleted ? undefined : adopt(id, p));
    if (!t) return;
    t.lastPod = p;
    const text = p.metadata?.annotations?.[RECORD_ANNOTATION];
    if (text !== t.recordText) {
      t.recordText = text;
      const rec = decodeRecord(text);
      t.recordState = rec?.state;
      if (rec && open) emit({ t: "record", record: rec });
    }
    const execMode = p.metadata?.annotations?.[EXEC_ANNOTATION];
    if (!t.own && !t.started && execMode) {
      t.started = true;
      t.shell = execMode === "sh";
    }
    const view = observePod(p, Date.now(), o.startupTimeoutMs);
    if (t.settle && view.t === "starting") {
      // Scheduled, and its node does not hold the image: the kubelet is pulling it (PREPARING).
      const node = p.spec?.nodeName;
      const pulling =
        !!node &&
        !p.status?.containerStatuses?.some((c) => c.name === "main" && (c.state?.running || c.imageID)) &&
        nodes.hasImage(node, t.spec.image) === false;
      const reason = pulling ? `pulling image ${t.spec.image} onto node ${node}` : view.reason;
      if (reason !== t.progress) {
        t.progress = reason;
        if (t.own) emit({ t: "progress", id, reason, preparing: pulling });
      }
    }
    if (t.settle && view.t !== "starting") {
      const s = t.settle;
      t.settle = undefined;
      s(view);
    }
    if (!t.own && !t.exited && !deleted && view.t === "running" && t.recordState === "CREATING") waitingStarts.add(id);
    else waitingStarts.delete(id);
    const step = podStep(
      {
        own: t.own,
        started: t.started,
        exited: t.exited,
        takingOver: !!t.takingOver,
        recordState: t.recordState,
        creatingSeenMs: t.creatingSeenMs,
        exitSeenMs: t.exitSeenMs,
        podCreatedMs: createdMs(p),
        waitingStarts: waitingStarts.size,
      },
      view,
      deleted,
      Date.now(),
      o.startupTimeoutMs,
    );
    if (step.t === "none") {
      t.creatingSeenMs = step.creatingSeenMs ?? t.creatingSeenMs;
      t.exitSeenMs = step.exitSeenMs ?? t.exitSeenMs;
    } else if (step.t === "take-over") {
      t.creatingSeenMs = step.creatingSeenMs;
      void takeOver(t);
    } else {
      finish(t, step.exit);
      if (step.deletePod) void deletePod(t.pod, "its start was abandoned");
    }
  };
  /** Finishes the start of an adopted sandbox whose starting replica is gone: RUNNING, or FAILED saying why. */
  async function takeOver(t: Tracked) {
    t.takingOver = true;
    o.log.warn({ sandbox_id: t.id, pod: t.pod }, "a sandbox is running but its record still says CREATING: finishing its start here");
    try {
      if (!t.started) {
        t.shell = await probe(t.pod);
        void agents?.open(t.pod, t.shell);
      }
      const started = await placeFiles(
        t,
        `kubernetes: pod ${o.namespace}/${t.pod} on node ${t.lastPod?.spec?.nodeName ?? "?"} (start finished by another replica)`,
      );
      emit({ t: "started", id: t.id, started });
    } catch (e) {
      if ((e as { code?: unknown }).code === "UNAVAILABLE") {
        // No answer from the pod (the apiserver or kubelet away): try again on a later look.
        o.log.warn({ sandbox_id: t.id, err: (e as Error).message }, "could not finish the sandbox's start yet; trying again");
        t.takingOver = false;
        t.creatingSeenMs = Date.now();
        return;
      }
      finish(t, { exitCode: KILLED_EXIT_CODE, reason: "start could not be finished", startFailure: (e as Error).message });
      void deletePod(t.pod, "its start could not be finished");
    }
  }

  /** The main process ended: report it. The pod stays (terminated, holding no node resources) as the record until retention ends. */
  const finish = (t: Tracked, e: Omit<ExitInfo, "endedAtMs">) => {
    if (t.exited) return;
    t.exited = true;
    agents?.drop(t.pod);
    const exit: ExitInfo = { ...e, endedAtMs: Date.now() };
    emit({ t: "exit", id: t.id, exit });
    // The primary ended: its sidecars end with it (the pod stays, a record, until retention ends).
    if (t.spec.sidecars?.length && !e.endedBy) void stop(t.id, 0).catch(() => undefined);
  };
  // The informer keeps every pod it sees, and the object it keeps is the one handed here.
  informer.on("add", (p) => onPod(slimPod(p), false));
  informer.on("update", (p) => onPod(slimPod(p), false));
  informer.on("delete", (p) => {
    onPod(p, true);
    if (p.metadata?.name) agents?.drop(p.metadata.name);
    const id = idOf(p);
    const t = id ? tracked.get(id) : undefined;
    if (t?.settle) {
      const s = t.settle;
      t.settle = undefined;
      s({ t: "start-failed", reason: "the pod was deleted while starting" });
    }
  });
  // After the first list (ready()), a connect with no resource version is a full list again: the watch
  // expired (410 Gone, handled inside client-node's ListWatch); what changed meanwhile arrives as add/update/delete.
  const watch: WatchStats = { relists: 0 };
  let listedOnce = false;
  let watchUp = false;
  informer.on("connect", () => {
    watchUp = true;
    if (!listedOnce || (informer as unknown as { latestResourceVersion(): string }).latestResourceVersion()) return;
    watch.relists++;
    o.log.warn({ relists: watch.relists }, "pod watch expired (410 Gone): listing the sandbox pods again");
  });
  informer.on("error", (err: unknown) => {
    watchUp = false;
    if (closing) return;
    o.log.warn({ err }, "pod watch failed; restarting it in 1s");
    setTimeout(() => void informer.start().catch(() => undefined), 1000).unref();
  });
  // A periodic look at starting pods, so the startup timeout fires without a watch event.
  const ticker = setInterval(() => {
    for (const t of tracked.values())
      if ((t.settle || !t.started || (t.creatingSeenMs !== undefined && !t.takingOver)) && t.lastPod) onPod(t.lastPod, false);
  }, 1000);
  ticker.unref();

  /** Safe to call again after it failed (Hangar retries it while the apiserver is unreachable): each step runs once. */
  let watching = false;
  let usernsDecided = false;
  async function ready() {
    if (!watching) {
      // start() reports a failed first list as an error event, not a rejection: without a list
      // this replica would answer NOT_FOUND for sandboxes that exist. Not ready until it has one.
      await informer.start();
      if (!(informer as unknown as { latestResourceVersion(): string }).latestResourceVersion())
        throw new Error("could not list the sandbox pods (apiserver is unreachable?)");
      watching = true;
      listedOnce = true;
      if (o.secrets)
        void envSecrets
          .sweep()
          .then((n) => n && o.log.warn({ deleted: n }, "deleted sandbox Secrets whose pod never came"))
          .catch((e: unknown) => o.log.warn({ err: detailOf(e) }, "could not sweep sandbox Secrets"));
    }
    if (netinitImage && egressConfig.proxy && !proxy) {
      const pc = egressConfig.proxy;
      const control = await apiserverAddresses(o.kubeConfig);
      // Uncapped here (the cap on node addresses is for rules in every pod): nodes, their pod gateways, the apiserver, Hangar's own addresses.
      const policy = () => ({
        never: neverRanges(egressConfig, [], [...control, ...nodes.addresses(), ...nodes.gateways(), ...ownAddresses()]),
        private: egressConfig.privateCidrs,
        grantable: egressConfig.grantableCidrs,
      });
      proxy = await startEgressProxy({ listen: pc.listen, policy, grantsOf, pinned: pc.pinned, log: o.log }).catch((e: Error) => {
        throw new Error(`HANGAR_KUBE_EGRESS_PROXY_LISTEN=${pc.listen.host}:${pc.listen.port}: ${e.message}`);
      });
      proxyAddress = pc.address.replace(/:0$/, `:${proxy.port}`);
      o.log.info({ listen: `${pc.listen.host}:${proxy.port}`, address: proxyAddress }, "egress proxy for hostname grants listening");
    }
    // A sandbox pod already running with hostUsers: false proves it (a replica restarted on a busy
    // cluster serves in a second, instead of waiting for a probe pod the kubelet may be slow to run).
    const proof =
      (o.userNamespaces ?? "off") !== "off" && !usernsDecided
        ? informer.list(o.namespace).find((p) => p.spec?.hostUsers === false && p.status?.containerStatuses?.some((c) => c.state?.running))
        : undefined;
    if (proof) {
      userns = { on: true, note: `user namespaces work (pod ${proof.metadata?.name} runs with hostUsers: false)` };
      o.log.info({ userNamespaces: true, pod: proof.metadata?.name }, "sandbox pods run in user namespaces");
    } else if ((o.userNamespaces ?? "off") !== "off" && !usernsDecided) {
      const image = egressConfig.netinitImage;
      const v = image
        ? await probeUserNamespaces(core, o.namespace, image, egressConfig.netinitPath, 60_000, randomUUID().slice(0, 8))
        : { t: "unsupported" as const, reason: "no HANGAR_KUBE_NETINIT_IMAGE to probe with" };
      userns =
        v.t === "supported"
          ? { on: true, note: `user namespaces work (the probe's uid_map: ${v.uidMap})` }
          : { on: false, note: `no user namespace: ${v.t === "unsupported" ? v.reason : "probe pending"}` };
      if (!userns.on && o.userNamespaces === "required")
        throw new Error(`HANGAR_KUBE_USER_NAMESPACES=required, but this cluster does not run pods with hostUsers: false: ${userns.note}`);
      (userns.on ? o.log.info : o.log.warn).call(
        o.log,
        { userNamespaces: userns.on },
        userns.on
          ? "sandbox pods run in user namespaces"
          : `sandbox pods run without user namespaces (sandbox root is the node's root, without capabilities): ${userns.note}`,
      );
    }
    usernsDecided = true;
    if (o.warmPools?.length && !warm) {
      warm = createWarmPools({
        core,
        namespace: o.namespace,
        pools: o.warmPools,
        log: o.log,
        pods: () => [...informer.list(o.namespace)],
        probe: async (pod) => {
          const sh = await probe(pod);
          // A pool pod gets its agent (and this replica's channel to it) before it counts as idle.
          if (sh) await agents?.open(pod);
          return sh ? "sh" : "plain";
        },
        idlePod: (pool, labels) => {
          const shape = pool.shape ?? { requests: {}, limits: {} };
          const pod = buildPod(
            randomUUID(),
            {
              image: pool.image,
              argv: [...DEFAULT_MAIN_ARGV],
              env: {},
              files: [],
              requests: shape.requests,
              limits: shape.limits,
              workingDir: shape.workingDir,
              tags: [],
              maxLifetimeSeconds: 0,
              runnerIds: [],
              annotations: {},
              volumes: [],
            },
            {
              namespace: o.namespace,
              runtimeClassName: o.runtimeClassName,
              tolerations: o.tolerations,
              nodeSelector: pool.nodeSelector,
              defaultDenyEgress: true,
              netinit: netinitFor({ denyEgress: true }),
              hostUsers: !userns.on,
              ephemeralStorageBytes: o.ephemeralStorageBytes,
            },
          );
          return {
            ...pod,
            metadata: {
              namespace: o.namespace,
              generateName: `warm-${labels[POOL_LABEL]}-`,
              labels: { ...labels, [EGRESS_LABEL]: "deny" },
            },
          };
        },
      });
      void warm.refillOnce();
    }
    await nodes.refresh();
  }

  const fork = o.forkDriver ? createForkVolumes(o.forkDriver) : undefined;
  /** A start whose restored volumes the node plugin cloned says so: no tar restore follows. */
  async function startRestoring(record: SandboxRecord, secrets?: StartSecrets): Promise<StartedSandbox> {
    const csi = fork?.csiVolumes(record.spec) ?? {};
    const started = await start(record.id, record.spec, record.runnerId, record, secrets, csi);
    return Object.keys(csi).length ? { ...started, restored: Object.keys(csi) } : started;
  }

  async function start(
    id: string,
    spec: SandboxSpec,
    runnerId: string,
    record?: SandboxRecord,
    secrets?: StartSecrets,
    csiVolumes: PodOptions["csiVolumes"] = {},
  ): Promise<StartedSandbox> {
    const runner = o.runners.find((r) => r.runnerId === runnerId) ?? o.runners[0];
    const text = record ? encodeRecord(record) : undefined;
    const t: Tracked = {
      id,
      pod: podName(id),
      runnerId: runner?.runnerId ?? runnerId,
      spec,
      own: true,
      shell: false,
      exited: false,
      started: false,
      recordText: text,
    };
    tracked.set(id, t);
    const lifetime = spec.maxLifetimeSeconds > 0 ? spec.maxLifetimeSeconds : o.defaultLifetimeSeconds;
    // Pool pods were started with no egress; under netinit their rules are fixed, so only a sandbox with none fits.
    const egress = allowsEgress(spec, o.defaultDenyEgress);
    // A pool serves one runner: its pods carry that runner's node selector (HANGAR_KUBE_WARM_POOLS @runner).
    const pool = warm && record && text ? poolFor(spec, o.warmPools ?? [], !!netinitImage && egress, runner?.nodeSelector) : undefined;
    if (warm && pool && record && text) {
      // A pool pod already runs and exec was proven on it: without files to place, the claim itself
      // stores the record as RUNNING (one apiserver write from idle pod to running sandbox).
      let running: StartedSandbox | undefined;
      const claimedPod = await warm.claim(pool, (p) => {
        const nowMs = Date.now();
        const shell = p.metadata?.annotations?.[EXEC_ANNOTATION] === "sh";
        running = spec.files.length
          ? undefined
          : {
              imageNote: startedNote(
                `kubernetes: warm pod ${o.namespace}/${p.metadata?.name ?? "?"} on node ${p.spec?.nodeName ?? "?"}`,
                p,
                spec,
                shell,
              ),
              startedAtMs: nowMs,
              stored: true,
            };
        const recordText = running
          ? encodeRecord({ ...record, state: "RUNNING", stateReason: running.imageNote, imageNote: running.imageNote, startedAtMs: nowMs })
          : text;
        return claimPatch(
          p,
          { id, spec, tenant: record.tenant, recordText, egress, deadlineSeconds: lifetime + o.deadlineMarginSeconds },
          nowMs,
        );
      });
      if (claimedPod) {
        emit({ t: "stored", id });
        t.pod = claimedPod;
        t.baseEnv = spec.env;
        const pod = informer.get(claimedPod, o.namespace);
        t.shell = pod?.metadata?.annotations?.[EXEC_ANNOTATION] === "sh";
        void agents?.open(t.pod, t.shell);
        if (running) {
          t.started = true;
          return running;
        }
        return placeFiles(t, `kubernetes: warm pod ${o.namespace}/${claimedPod} on node ${pod?.spec?.nodeName ?? "?"}`);
      }
    }
    const ask = gpuAsk(spec);
    const pod = buildPod(id, spec, {
      namespace: o.namespace,
      gpu: ask
        ? { resource: gpuConfig.resource, count: ask.count, affinity: gpuAffinity(ask, nodes.nodes(t.runnerId), gpuConfig) }
        : undefined,
      // Counted from the pod's start, before the image pull and netinit: the start may take up to the
      // startup timeout, so that much more, until the sandbox runs and this is tightened (tightenedDeadline).
      activeDeadlineSeconds: lifetime + Math.ceil(o.startupTimeoutMs / 1000) + o.deadlineMarginSeconds,
      runtimeClassName: spec.runtimeClass ?? o.runtimeClassName,
      tolerations: o.tolerations,
      ephemeralStorageBytes: o.ephemeralStorageBytes,
      ...(Object.keys(csiVolumes).length ? { csiVolumes } : {}),
      nodeSelector: runner && Object.keys(runner.nodeSelector).length ? runner.nodeSelector : undefined,
      defaultDenyEgress: o.defaultDenyEgress,
      netinit: netinitFor(spec),
      // runsc cannot join a pod user namespace (its gofer fails); gVisor's sentry runs in namespaces of its own.
      hostUsers: !userns.on || (!!spec.runtimeClass && egressConfig.gvisorRuntimeClasses.includes(spec.runtimeClass)),
      proxy: hostnamesOf(spec).length && proxyAddress ? { address: proxyAddress, hostnames: hostnamesOf(spec) } : undefined,
      secretEnv: secrets?.env ? Object.keys(secrets.env) : undefined,
      pullSecret: !!secrets?.pullConfig,
      record: record && text ? { tenant: record.tenant, text } : undefined,
    });
    const secretNames = secrets ? await envSecrets.create(id, secrets) : [];
    const settled = new Promise<PodView>((resolve) => (t.settle = resolve));
    let madePod: k8s.V1Pod | undefined;
    // A denial is retried for ~4 s (an apiserver that just restarted denies until its RBAC caches
    // fill); an unreachable apiserver is answered UNAVAILABLE at once, and the caller retries.
    const created = retryWhile(() => core.createNamespacedPod({ namespace: o.namespace, body: pod }), isForbidden, 5);
    t.created = created;
    try {
      const made = await created;
      emit({ t: "stored", id });
      if (secretNames.length) void envSecrets.own(id, secretNames, made);
      madePod = made;
    } catch (e) {
      // 409: another replica already created this sandbox's pod (same request_id): adopt it.
      if (!isConflict(e)) {
        tracked.delete(id);
        waitingStarts.delete(id);
        if (secretNames.length) void envSecrets.drop(id, secretNames);
        throw podCreateError(e);
      }
      emit({ t: "stored", id });
      const existing = informer.get(podName(id), o.namespace);
      if (existing) onPod(existing, false);
    }
    // Owned by the pod just made (on a 409 the replica that made it makes them).
    if (madePod && spec.services?.length) {
      const err = await createServices(o.kubeConfig, o.namespace, id, spec.services, madePod, {
        ...(o.publicGateway ? { http: o.publicGateway } : {}),
        ...(o.publicTls ? { tls: o.publicTls } : {}),
      }).then(
        () => undefined,
        (e: Error) => e,
      );
      if (err) {
        await deletePod(t.pod, "its Service could not be made");
        throw err;
      }
    }
    const view = await settled;
    if (view.t === "start-failed") {
      // A volume the node plugin would not publish: say why (the kubelet's FailedMount event).
      const mount = Object.keys(csiVolumes).length ? await mountFailure(core, o.namespace, t.pod) : undefined;
      await deletePod(t.pod, "its sandbox failed to start");
      throw new Error(mount ? `${view.reason}: ${mount}` : view.reason);
    }
    const exitedAtOnce = (v: Extract<PodView, { t: "exited" }>) => {
      t.started = true;
      // After the controller has seen start() resolve (RUNNING), the exit follows.
      setTimeout(
        () => finish(t, { exitCode: v.exitCode, reason: v.reason, endedBy: v.endedBy, ...(v.ranAtMs ? { ranAtMs: v.ranAtMs } : {}) }),
        0,
      );
      return { imageNote: `pod ${t.pod}: exited at once`, startedAtMs: Date.now() };
    };
    if (view.t === "exited") return exitedAtOnce(view);
    // RUNNING means exec works: probe it, and learn whether the image has a shell. A main process
    // that exits while it is probed (seen running, gone by the exec) exited at once too: its exit
    // code is the answer, not a probe that cannot reach a stopped container.
    const exitedNow = () => {
      const v = t.lastPod ? observePod(t.lastPod, Date.now(), o.startupTimeoutMs) : undefined;
      return v?.t === "exited" ? v : undefined;
    };
    t.shell = await probe(t.pod, undefined, () => !!exitedNow());
    const gone = exitedNow();
    if (gone) return exitedAtOnce(gone);
    void agents?.open(t.pod, t.shell); // shell-less too: netinit's copy makes its commands killable (ADR 0032)
    return placeFiles(t, `kubernetes: pod ${o.namespace}/${t.pod} on node ${t.lastPod?.spec?.nodeName ?? "?"}`);
  }

  /** Writes the mounted files (through exec: needs sh), then the sandbox counts as started. */
  async function placeFiles(t: Tracked, note: string): Promise<StartedSandbox> {
    for (const f of t.spec.files) {
      if (!t.shell) throw new Error("the image has no /bin/sh, which mounted files need");
      const dir = f.path.replace(/\/[^/]*$/, "") || "/";
      const code = await run(
        t.pod,
        [
          "/bin/sh",
          "-c",
          'mkdir -p "$1" && t="$2.hangar-$$" && cat > "$t" && chmod 444 "$t" && mv -f "$t" "$2"',
          "hangar-mount",
          dir,
          f.path,
        ],
        f.content,
      );
      if (code !== 0) throw new Error(`could not place mounted file ${f.path}`);
    }
    t.started = true;
    if (t.lastPod) onPod(t.lastPod, false);
    return { imageNote: startedNote(note, t.lastPod ?? informer.get(t.pod, o.namespace), t.spec, t.shell), startedAtMs: Date.now() };
  }

  /** What a sandbox's status says about where and how it runs. */
  function startedNote(note: string, pod: k8s.V1Pod | undefined, spec: SandboxSpec, shell: boolean): string {
    const inUserns = pod?.spec?.hostUsers === false;
    const gvisor = !!spec.runtimeClass && egressConfig.gvisorRuntimeClasses.includes(spec.runtimeClass);
    const users = inUserns
      ? "; in a user namespace (hostUsers: false)"
      : gvisor
        ? "; gVisor (its own kernel and namespaces), no network"
        : (o.userNamespaces ?? "off") !== "off"
          ? `; ${userns.note}`
          : "";
    return `${note}${users}${shell ? "" : "; image has no /bin/sh: plain commands only"}`;
  }

  async function stop(id: string, graceMs: number): Promise<void> {
    await track(
      core.deleteNamespacedPod({ name: nameOf(id), namespace: o.namespace, gracePeriodSeconds: Math.ceil(graceMs / 1000) }).then(
        () => undefined,
        (e: { code?: number }) => {
          if (!isNotFound(e)) throw errors.unavailable(`could not delete the sandbox's pod: ${detailOf(e)}`, e);
        },
      ),
    );
  }

  async function exec(id: string, opts: ExecOptions): Promise<ExecProcess> {
    const t = tracked.get(id);
    if (!t || t.exited) throw errors.notRunning(id, "exited");
    return execPath.exec(t, opts);
  }

  const logs = (id: string, opts: LogOptions): AsyncIterable<LogChunk> => podLogs(o.kubeConfig, o.namespace, nameOf(id), opts);
  /** The main container's id: a new container is a new log (offsets restart). */
  const logSession = (id: string): string | undefined => {
    const cid = informer.get(nameOf(id), o.namespace)?.status?.containerStatuses?.find((c) => c.name === "main")?.containerID;
    return cid ? createHash("sha256").update(cid).digest("hex").slice(0, 12) : undefined;
  };

  async function remove(id: string): Promise<void> {
    await track(store.release(id));
    tracked.delete(id);
    waitingStarts.delete(id);
  }

  const seen = new Set<(id: string) => void>();
  const ids = createIdLookup({
    settleMs: ID_SETTLE_MS,
    windowMs: 50,
    maxBatch: 100,
    watching: () => watchUp && !!(informer as unknown as { latestResourceVersion(): string }).latestResourceVersion(),
    known: (id) => tracked.has(id),
    async list(batch) {
      const pods = await core.listNamespacedPod({ namespace: o.namespace, labelSelector: `${SANDBOX_ID} in (${batch.join(",")})` });
      for (const p of pods.items) {
        const id = idOf(p);
        if (id && !tracked.has(id)) onPod(p, false);
      }
    },
    onSeen: (f) => {
      seen.add(f);
      return () => seen.delete(f);
    },
  });
  informer.on("add", (p) => {
    const id = idOf(p);
    if (id) for (const f of [...seen]) f(id);
  });
  const records: DurableRecords = {
    async open() {
      open = true;
      for (const p of informer.list(o.namespace)) onPod(p, false);
    },
    async lookup(id) {
      if (open) await ids.lookup(id);
    },
    async save(r) {
      const t = tracked.get(r.id);
      const annotations: Record<string, string> = { [RECORD_ANNOTATION]: encodeRecord(r) };
      if (t?.started) annotations[EXEC_ANNOTATION] = t.shell ? "sh" : "plain";
      if (t) t.recordText = annotations[RECORD_ANNOTATION];
      // Once it runs, Kubernetes' own backstop is counted from the same start as Hangar's lifetime.
      const deadline =
        r.state === "RUNNING"
          ? tightenedDeadline(
              t?.lastPod ?? (t ? informer.get(t.pod, o.namespace) : undefined),
              r.startedAtMs,
              r.effectiveLifetimeSeconds,
              o.deadlineMarginSeconds,
            )
          : undefined;
      await track(store.write(r.id, annotations, t?.created, deadline ? { activeDeadlineSeconds: deadline } : undefined));
    },
  };

  function runners(): RunnerInfo[] {
    return o.runners.map((r) => {
      // One pass, no copies: at 10,000 sandboxes this runs on every create.
      let running = 0,
        usedCpu = 0,
        usedMem = 0,
        usedGpus = 0;
      for (const t of tracked.values()) {
        if (t.exited || t.runnerId !== r.runnerId) continue;
        const a = (t.asks ??= {
          cpu: cpuMillicores(t.spec.requests.cpu ?? "") ?? 0,
          memory: parseQuantity(t.spec.requests.memory ?? "") ?? 0,
          gpus: gpuAsk(t.spec)?.count ?? 0,
        });
        running++;
        usedCpu += a.cpu;
        usedMem += a.memory;
        usedGpus += a.gpus;
      }
      const cap = nodes.capacity(r.runnerId);
      return {
        runnerId: r.runnerId,
        runnerGroupId: r.runnerGroupId,
        organizationId: o.organizationId,
        architectures: [process.arch === "x64" ? "amd64" : process.arch],
        healthy: true,
        connectedAtMs,
        maxCpuMillicores: cap.cpuMillicores,
        maxMemoryBytes: cap.memoryBytes,
        availableCpuMillicores: Math.max(0, cap.cpuMillicores - usedCpu),
        availableMemoryBytes: Math.max(0, cap.memoryBytes - usedMem),
        runningSandboxes: running,
        ...(cap.gpus ? { gpus: { ...cap.gpus, available: Math.max(0, cap.gpus.total - usedGpus) } } : {}),
        runtimeClasses: nodes.runtimeClasses(r.runnerId),
        ...(o.runtimeClassName ? { defaultRuntimeClass: o.runtimeClassName } : {}),
        pullCredentials: true,
        multiContainer: true,
        serviceDomain: `${o.namespace}.svc.${o.clusterDomain ?? "cluster.local"}`,
        ...(o.publicGateway ? { publicUrl: o.publicGateway.url } : {}),
        ...(o.publicTls ? { publicTls: o.publicTls.address } : {}),
        ...(o.publicGateway?.authFilter ? { publicShareTokens: true as const } : {}),
        ...(netinitImage
          ? {
              egress: {
                privateCidrs: egressConfig.privateCidrs,
                grantableCidrs: egressConfig.grantableCidrs,
                hostnames: proxyAddress !== undefined,
              },
            }
          : {}),
        ...(egressConfig.gvisorRuntimeClasses.length ? { gvisorRuntimeClasses: egressConfig.gvisorRuntimeClasses } : {}),
      };
    });
  }

  async function close(): Promise<void> {
    closing = true;
    ids.close();
    clearInterval(ticker);
    nodes.close();
    warm?.close();
    agents?.close();
    await proxy?.close();
    await Promise.race([Promise.allSettled([...pending, store.idle()]), new Promise((r) => setTimeout(r, 10_000).unref())]);
    await informer.stop();
  }

  const subscribe = (l: (e: RuntimeEvent) => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  return {
    name: "kubernetes",
    records,
    templates: createConfigMapTemplateStore(o.kubeConfig, o.namespace),
    volumes: createClaimVolumeRegistry(o.kubeConfig, o.namespace),
    ready,
    runners,
    start: startRestoring,
    ...(fork ? { layers: fork.layers } : {}),
    subscribe,
    stop,
    exec,
    logs,
    logSession,
    remove,
    close,
    watchStats: () => ({ ...watch }),
    execStats: execPath.stats,
    ...(agents ? { agentStats: () => ({ ...agents.stats() }) } : {}),
  };
}
