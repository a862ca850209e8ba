/**
 * Readiness: what a runtime needs before it serves, each step once (ready() is safe to call again
 * after it failed; Hangar retries it while the apiserver is unreachable): the first list of the pods,
 * the egress proxy for hostname grants, whether pods run in user namespaces, the warm pools, the nodes.
 */
import type * as k8s from "@kubernetes/client-node";
import { randomUUID } from "node:crypto";
import { type EgressConfig, neverRanges } from "../egress/policy.js";
import { apiserverAddresses, HOSTS_ANNOTATION, ownAddresses, startEgressProxy } from "../egress/proxy.js";
import type { createEnvSecrets } from "../stores/env-secrets.js";
import { detailOf } from "../kube-errors.js";
import { probeUserNamespaces, USERNS_PROBE_MS } from "../nodes/userns-probe.js";
import { usernsDecision } from "../pod/userns.js";
import { CLAIMED_LABEL, createWarmPools, POOL_LABEL } from "../pool/warm-pool.js";
import type { KubeRuntimeOptions } from "./options.js";
import { idlePod, type PodPlanOptions } from "./pod-plan.js";
import { withFresh } from "../pool/reuse.js";
import type { PodWatch } from "./pod-watch.js";
import type { KubeState } from "./state.js";

export interface ReadyOptions extends Pick<
  KubeRuntimeOptions,
  "kubeConfig" | "namespace" | "secrets" | "userNamespaces" | "warmPools" | "log"
> {
  core: k8s.CoreV1Api;
  state: KubeState;
  watch: PodWatch;
  egress: EgressConfig;
  netinitImage?: string;
  plan: PodPlanOptions;
  envSecrets: ReturnType<typeof createEnvSecrets>;
  nodes: { addresses(): string[]; gateways(): string[]; refresh(): Promise<void> };
  probe(pod: string): Promise<boolean>;
  agents?: { open(pod: string): Promise<unknown> };
}

/**
 * The grants of the pod with this IP, read again from the apiserver when it is a pool pod: a claim
 * names its sandbox's grants on the pod and a return takes them off, and this replica's watch may not
 * have seen the latest yet — a new sandbox in a reused pod must never be judged by the last one's
 * grants, nor refused its own right after RUNNING (the claim's write precedes it; a read sees it).
 */
export async function freshGrantsOf(
  pods: k8s.V1Pod[],
  ip: string,
  read: (name: string) => Promise<k8s.V1Pod>,
): Promise<string[] | undefined> {
  const p = pods.find((x) => x.status?.podIP === ip && !["Succeeded", "Failed"].includes(x.status?.phase ?? ""));
  const labels = p?.metadata?.labels ?? {};
  if (!p?.metadata?.name || !(labels[POOL_LABEL] || labels[CLAIMED_LABEL] === "true")) return grantsOf(pods, ip);
  return grantsOf([await read(p.metadata.name)], ip);
}

/** The hostname grants of the sandbox pod with this IP (the proxy's only way to know a caller). */
export function grantsOf(pods: k8s.V1Pod[], ip: string): string[] | undefined {
  for (const p of pods) {
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
}

export function createReadiness(o: ReadyOptions) {
  const s = o.state;
  let watching = false;
  let usernsDecided = false;
  let proxy: Awaited<ReturnType<typeof startEgressProxy>> | undefined;

  async function listOnce() {
    await o.watch.start();
    watching = true;
    if (o.secrets)
      void o.envSecrets
        .sweep()
        .then((n) => n && o.log.warn({ deleted: n }, "deleted sandbox Secrets whose pod never came"))
        .catch((e: unknown) => o.log.warn({ err: detailOf(e) }, "could not sweep sandbox Secrets"));
  }

  async function startProxy(pc: NonNullable<EgressConfig["proxy"]>) {
    const control = await apiserverAddresses(o.kubeConfig);
    // Uncapped here (the cap on node addresses is for rules in every pod): nodes, their pod gateways, the apiserver, Hangar's own addresses.
    const policy = () => ({
      never: neverRanges(o.egress, [], [...control, ...o.nodes.addresses(), ...o.nodes.gateways(), ...ownAddresses()]),
      private: o.egress.privateCidrs,
      grantable: o.egress.grantableCidrs,
    });
    const grants = (ip: string) =>
      freshGrantsOf([...o.watch.list()], ip, (name) => o.core.readNamespacedPod({ name, namespace: o.namespace }));
    proxy = await startEgressProxy({ listen: pc.listen, policy, grantsOf: grants, pinned: pc.pinned, log: o.log }).catch((e: Error) => {
      throw new Error(`HANGAR_KUBE_EGRESS_PROXY_LISTEN=${pc.listen.host}:${pc.listen.port}: ${e.message}`);
    });
    s.proxyAddress = pc.address.replace(/:0$/, `:${proxy.port}`);
    o.log.info({ listen: `${pc.listen.host}:${proxy.port}`, address: s.proxyAddress }, "egress proxy for hostname grants listening");
  }

  async function decideUserns() {
    // A sandbox pod already running with hostUsers: false proves it (a replica restarted on a busy
    // cluster serves in a second, instead of waiting for a probe pod the kubelet may be slow to run).
    const proof = o.watch.list().find((p) => p.spec?.hostUsers === false && p.status?.containerStatuses?.some((c) => c.state?.running));
    if (proof) {
      s.userns = { on: true, note: `user namespaces work (pod ${proof.metadata?.name} runs with hostUsers: false)` };
      o.log.info({ userNamespaces: true, pod: proof.metadata?.name }, "sandbox pods run in user namespaces");
      return;
    }
    const image = o.egress.netinitImage;
    const v = image
      ? await probeUserNamespaces(o.core, o.namespace, image, o.egress.netinitPath, USERNS_PROBE_MS, randomUUID().slice(0, 8))
      : { t: "unsupported" as const, reason: "no HANGAR_KUBE_NETINIT_IMAGE to probe with" };
    const d = usernsDecision(v);
    s.userns = { on: d.on, note: d.note };
    if (!s.userns.on && o.userNamespaces === "required")
      throw new Error(`HANGAR_KUBE_USER_NAMESPACES=required, but this cluster does not run pods with hostUsers: false: ${s.userns.note}`);
    (d.on && d.proven ? o.log.info : o.log.warn).call(o.log, { userNamespaces: d.on }, d.message);
  }

  function startWarmPools(pools: NonNullable<KubeRuntimeOptions["warmPools"]>) {
    s.warm = createWarmPools({
      core: o.core,
      namespace: o.namespace,
      pools,
      log: o.log,
      pods: () => withFresh([...o.watch.list()], s.fresh),
      probe: async (pod) => {
        const sh = await o.probe(pod);
        // A pool pod gets its agent (and this replica's channel to it) before it counts as idle.
        if (sh) await o.agents?.open(pod);
        return sh ? "sh" : "plain";
      },
      idlePod: (pool, labels) => idlePod(o.plan, pool, randomUUID(), labels),
    });
    void s.warm.refillOnce();
  }

  async function ready() {
    if (!watching) await listOnce();
    if (o.netinitImage && o.egress.proxy && !proxy) await startProxy(o.egress.proxy);
    if ((o.userNamespaces ?? "off") !== "off" && !usernsDecided) await decideUserns();
    usernsDecided = true;
    if (o.warmPools?.length && !s.warm) startWarmPools(o.warmPools);
    await o.nodes.refresh();
  }

  return { ready, closeProxy: async () => await proxy?.close() };
}
