/**
 * The Kubernetes runtime: each sandbox is a pod (labels = ownership + tags), watched through
 * an informer whose cache answers every state question without an apiserver request; exec,
 * files and logs go through the apiserver (exec websocket v5, pod logs).
 */
import * as k8s from "@kubernetes/client-node";
import { PassThrough } from "node:stream";
import { errors } from "../../core/errors.js";
import { cpuMillicores, parseQuantity } from "../../core/quantity.js";
import type { RunnerInfo, SandboxSpec } from "../../core/types.js";
import type { ExecOptions, ExecProcess, LogOptions, Runtime, RuntimeEvents, StartedSandbox } from "../types.js";
import { kubeExec } from "./kube-exec.js";
import { MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID } from "./labels.js";
import { buildPod, podName } from "./pod-spec.js";
import { observePod, type PodView } from "./pod-state.js";

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
  runtimeClassName?: string;
  /** Reported capacity per runner when the identity may not list nodes (namespace-scoped). */
  fallbackCapacity: { cpuMillicores: number; memoryBytes: number };
  /** Runners: each a node selector (a node pool; {} = any node). The first is the default. */
  runners: KubeRunner[];
  organizationId: string;
  log: { warn(o: object, m: string): void; info(o: object, m: string): void };
}

interface Tracked {
  id: string;
  runnerId: string;
  spec: SandboxSpec;
  events: RuntimeEvents;
  shell: boolean;
  exited: boolean;
  started: boolean;
  settle?: (v: PodView) => void;
  lastPod?: k8s.V1Pod;
}

export function createKubernetesRuntime(o: KubeRuntimeOptions): Runtime & { ready(): Promise<void> } {
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const tracked = new Map<string, Tracked>();
  const selector = `${MANAGED_BY}=${MANAGED_BY_VALUE}`;
  const connectedAtMs = Date.now();
  const capacity = new Map<string, { cpu: number; memory: number }>();
  let closing = false;
  // Deletes still in flight: close() waits for them so a stop accepted just before shutdown is not lost.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  const informer = k8s.makeInformer(
    o.kubeConfig,
    `/api/v1/namespaces/${o.namespace}/pods`,
    () => core.listNamespacedPod({ namespace: o.namespace, labelSelector: selector }),
    selector,
  );
  const idOf = (p: k8s.V1Pod) => p.metadata?.labels?.[SANDBOX_ID];
  const onPod = (p: k8s.V1Pod, deleted: boolean) => {
    const id = idOf(p);
    const t = id ? tracked.get(id) : undefined;
    if (!t) return;
    t.lastPod = p;
    const view = observePod(p, Date.now(), o.startupTimeoutMs);
    if (t.settle && view.t !== "starting") {
      const s = t.settle;
      t.settle = undefined;
      s(view);
    }
    if (!t.started || t.exited) return;
    if (view.t === "exited") finish(t, view.exitCode, view.reason);
    else if (deleted) finish(t, 137, "the pod was deleted");
  };
  const finish = (t: Tracked, exitCode: number, reason: string) => {
    if (t.exited) return;
    t.exited = true;
    t.events.onExit(t.id, { exitCode, reason, endedAtMs: Date.now() });
    // The record keeps state and exit code; the finished pod only holds node resources.
    void track(core.deleteNamespacedPod({ name: podName(t.id), namespace: o.namespace, gracePeriodSeconds: 0 }).catch(() => undefined));
  };
  informer.on("add", (p) => onPod(p, false));
  informer.on("update", (p) => onPod(p, false));
  informer.on("delete", (p) => {
    onPod(p, true);
    const id = idOf(p);
    const t = id ? tracked.get(id) : undefined;
    if (t?.settle) {
      const s = t.settle;
      t.settle = undefined;
      s({ t: "start-failed", reason: "the pod was deleted while starting" });
    }
  });
  informer.on("error", (err: unknown) => {
    if (closing) return;
    o.log.warn({ err }, "pod watch failed; restarting it in 1s");
    setTimeout(() => void informer.start().catch(() => undefined), 1000).unref();
  });
  // A periodic look at starting pods, so the startup timeout fires without a watch event.
  const ticker = setInterval(() => {
    for (const t of tracked.values()) if (t.settle && t.lastPod) onPod(t.lastPod, false);
  }, 1000);
  ticker.unref();

  async function ready() {
    await informer.start();
    let nodes: k8s.V1Node[] | undefined;
    try {
      nodes = (await core.listNode()).items;
    } catch {
      nodes = undefined; // a namespace-scoped identity cannot list nodes: report the configured capacity
    }
    for (const r of o.runners) {
      const mine = nodes?.filter((n) => Object.entries(r.nodeSelector).every(([k, v]) => n.metadata?.labels?.[k] === v));
      capacity.set(r.runnerId, mine
        ? { cpu: mine.reduce((a, n) => a + (cpuMillicores(n.status?.allocatable?.cpu ?? "0") ?? 0), 0), memory: mine.reduce((a, n) => a + (parseQuantity(n.status?.allocatable?.memory ?? "0") ?? 0), 0) }
        : { cpu: o.fallbackCapacity.cpuMillicores, memory: o.fallbackCapacity.memoryBytes });
    }
  }

  /** Runs a command to completion (stdin from `input`), discarding its output; returns its exit code. */
  async function run(id: string, argv: string[], input?: Buffer): Promise<number> {
    const p = await kubeExec({ kc: o.kubeConfig, namespace: o.namespace, pod: podName(id), argv, shell: false });
    if (input) await p.write(input);
    p.closeStdin();
    for await (const _ of p.output()) void _;
    return (await p.exited).exitCode;
  }

  async function start(id: string, spec: SandboxSpec, events: RuntimeEvents, runnerId: string): Promise<StartedSandbox> {
    const runner = o.runners.find((r) => r.runnerId === runnerId) ?? o.runners[0];
    const t: Tracked = { id, runnerId: runner?.runnerId ?? runnerId, spec, events, shell: false, exited: false, started: false };
    tracked.set(id, t);
    const lifetime = spec.maxLifetimeSeconds > 0 ? spec.maxLifetimeSeconds : o.defaultLifetimeSeconds;
    const pod = buildPod(id, spec, {
      namespace: o.namespace,
      activeDeadlineSeconds: lifetime + o.deadlineMarginSeconds,
      runtimeClassName: o.runtimeClassName,
      nodeSelector: runner && Object.keys(runner.nodeSelector).length ? runner.nodeSelector : undefined,
      defaultDenyEgress: o.defaultDenyEgress,
    });
    const settled = new Promise<PodView>((resolve) => (t.settle = resolve));
    try {
      await core.createNamespacedPod({ namespace: o.namespace, body: pod });
    } catch (e) {
      // 409: another replica already created this sandbox's pod (same request_id): adopt it.
      if ((e as { code?: number }).code !== 409) {
        tracked.delete(id);
        throw errors.unavailable(`could not create the pod: ${(e as { body?: string }).body ?? (e as Error).message}`, e);
      }
      const existing = informer.get(podName(id), o.namespace);
      if (existing) onPod(existing, false);
    }
    const view = await settled;
    if (view.t === "start-failed") {
      await core.deleteNamespacedPod({ name: podName(id), namespace: o.namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
      throw new Error(view.reason);
    }
    if (view.t === "exited") {
      t.started = true;
      // After the controller has seen start() resolve (RUNNING), the exit follows.
      setTimeout(() => finish(t, view.exitCode, view.reason), 0);
      return { imageNote: `pod ${podName(id)}: exited at once`, startedAtMs: Date.now() };
    }
    // RUNNING means exec works: probe it, and learn whether the image has a shell.
    try {
      t.shell = (await run(id, ["/bin/sh", "-c", "exit 0"])) === 0;
    } catch {
      t.shell = false;
    }
    for (const f of spec.files) {
      if (!t.shell) throw new Error("the image has no /bin/sh, which mounted files need");
      const dir = f.path.replace(/\/[^/]*$/, "") || "/";
      const code = await run(id, ["/bin/sh", "-c", 'mkdir -p "$1" && cat > "$2" && chmod 444 "$2"', "hangar-mount", dir, f.path], f.content);
      if (code !== 0) throw new Error(`could not place mounted file ${f.path}`);
    }
    t.started = true;
    if (t.lastPod) onPod(t.lastPod, false);
    return { imageNote: `kubernetes: pod ${o.namespace}/${podName(id)} on node ${t.lastPod?.spec?.nodeName ?? "?"}${t.shell ? "" : "; image has no /bin/sh: plain commands only"}`, startedAtMs: Date.now() };
  }

  async function stop(id: string, graceMs: number): Promise<void> {
    await track(
      core.deleteNamespacedPod({ name: podName(id), namespace: o.namespace, gracePeriodSeconds: Math.ceil(graceMs / 1000) }).then(
        () => undefined,
        (e: { code?: number }) => {
          if (e.code !== 404) throw errors.unavailable("could not delete the pod", e);
        },
      ),
    );
  }

  async function exec(id: string, opts: ExecOptions): Promise<ExecProcess> {
    const t = tracked.get(id);
    if (!t || t.exited) throw errors.notRunning(id, "exited");
    if (opts.env && Object.keys(opts.env).length && !t.shell) throw errors.invalidField("init.env", "the image has no /bin/sh, which per-command environment variables need");
    if (!t.shell && /^(\/bin\/|\/usr\/bin\/)?(sh|bash)$/.test(opts.argv[0] ?? "")) throw errors.noShell(`"${opts.argv[0]}"`);
    const argv = opts.env && Object.keys(opts.env).length ? ["env", ...Object.entries(opts.env).map(([k, v]) => `${k}=${v}`), ...opts.argv] : opts.argv;
    const p = await kubeExec({ kc: o.kubeConfig, namespace: o.namespace, pod: podName(id), argv, tty: opts.tty, shell: t.shell });
    // A command killed by a signal while its pod went away did not fail on its own: the pod did.
    const exited = p.exited.then(async (r) => {
      if (r.exitCode < 128) return r;
      const gone = t.exited || (await core.readNamespacedPod({ name: podName(id), namespace: o.namespace }).then((pod) => !!pod.metadata?.deletionTimestamp, () => true));
      if (gone) throw errors.unavailable("the sandbox's pod stopped while the command ran");
      return r;
    });
    exited.catch(() => undefined);
    return { ...p, exited };
  }

  async function* logs(id: string, opts: LogOptions): AsyncIterable<Buffer> {
    const out = new PassThrough();
    const log = new k8s.Log(o.kubeConfig);
    const ctl = await log
      .log(o.namespace, podName(id), "main", out, (err: unknown) => out.end(err ? undefined : undefined), {
        follow: opts.follow,
        tailLines: opts.tailLines > 0 ? opts.tailLines : undefined,
        timestamps: opts.timestamps,
        sinceTime: opts.sinceMs !== undefined ? new Date(opts.sinceMs).toISOString() : undefined,
      })
      .catch((e: unknown) => {
        throw errors.unavailable(`could not read the pod's log: ${(e as Error).message}`, e);
      });
    const abort = () => {
      ctl.abort();
      out.end();
    };
    opts.signal.addEventListener("abort", abort, { once: true });
    try {
      for await (const chunk of out) yield Buffer.from(chunk);
    } finally {
      opts.signal.removeEventListener("abort", abort);
      ctl.abort();
    }
  }

  async function remove(id: string): Promise<void> {
    tracked.delete(id);
    await core.deleteNamespacedPod({ name: podName(id), namespace: o.namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
  }

  function runners(): RunnerInfo[] {
    return o.runners.map((r) => {
      const live = [...tracked.values()].filter((t) => !t.exited && t.runnerId === r.runnerId);
      const usedCpu = live.reduce((a, t) => a + (cpuMillicores(t.spec.requests.cpu ?? "") ?? 0), 0);
      const usedMem = live.reduce((a, t) => a + (parseQuantity(t.spec.requests.memory ?? "") ?? 0), 0);
      const cap = capacity.get(r.runnerId) ?? { cpu: o.fallbackCapacity.cpuMillicores, memory: o.fallbackCapacity.memoryBytes };
      return {
        runnerId: r.runnerId,
        runnerGroupId: r.runnerGroupId,
        organizationId: o.organizationId,
        architectures: [process.arch === "x64" ? "amd64" : process.arch],
        healthy: true,
        connectedAtMs,
        maxCpuMillicores: cap.cpu,
        maxMemoryBytes: cap.memory,
        availableCpuMillicores: Math.max(0, cap.cpu - usedCpu),
        availableMemoryBytes: Math.max(0, cap.memory - usedMem),
        runningSandboxes: live.length,
      };
    });
  }

  async function close(): Promise<void> {
    closing = true;
    clearInterval(ticker);
    await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 10_000).unref())]);
    await informer.stop();
  }

  return { name: "kubernetes", ready, runners, start, stop, exec, logs, remove, close };
}
