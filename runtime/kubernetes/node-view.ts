/**
 * What the runtime knows of the cluster's nodes, per runner: capacity and GPUs (node-capacity.ts),
 * the RuntimeClasses its nodes offer, and every node's addresses (no sandbox may reach them). Read
 * at start and every `refreshMs`; an identity that may not list nodes or RuntimeClasses reports the
 * configured fallback instead.
 */
import { nodeHasImage } from "./image-ref.js";
import * as k8s from "@kubernetes/client-node";
import { cpuMillicores } from "../../core/quantity.js";
import { type GpuConfig, matchesSelector, type NodeOffer, offerOf, offeredClasses } from "./node-capacity.js";

export interface NodeViewOptions {
  kubeConfig: k8s.KubeConfig;
  runners: { runnerId: string; nodeSelector: Record<string, string> }[];
  gpu: GpuConfig;
  fallbackCapacity: { cpuMillicores: number; memoryBytes: number };
  /** The operator's default RuntimeClass: the only one known to exist when classes cannot be read. */
  runtimeClassName?: string;
  refreshMs: number;
}

export function createNodeView(o: NodeViewOptions) {
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const nodeApi = o.kubeConfig.makeApiClient(k8s.NodeV1Api);
  const capacity = new Map<string, NodeOffer>();
  const runnerNodes = new Map<string, k8s.V1Node[]>();
  const runtimeClasses = new Map<string, string[]>();
  let addresses: string[] = [];
  let byName = new Map<string, k8s.V1Node>();

  async function refresh() {
    let nodes: k8s.V1Node[] | undefined;
    try {
      nodes = (await core.listNode()).items;
    } catch {
      nodes = undefined; // a namespace-scoped identity cannot list nodes: report the configured capacity
    }
    let classes: k8s.V1RuntimeClass[] | undefined;
    try {
      classes = (await nodeApi.listRuntimeClass()).items;
    } catch {
      classes = undefined; // not readable: only the operator's default is known to exist
    }
    if (nodes) {
      byName = new Map(nodes.map((n) => [n.metadata?.name ?? "", n]));
      const addrs = nodes.flatMap((n) => (n.status?.addresses ?? []).filter((a) => a.type === "InternalIP" || a.type === "ExternalIP").map((a) => a.address));
      addresses = [...new Set(addrs)].sort();
    }
    for (const r of o.runners) {
      const mine = nodes?.filter((n) => matchesSelector(n, r.nodeSelector));
      runtimeClasses.set(r.runnerId, classes ? offeredClasses(classes, mine) : o.runtimeClassName ? [o.runtimeClassName] : []);
      runnerNodes.set(r.runnerId, mine ?? []);
      capacity.set(r.runnerId, mine ? offerOf(mine, o.gpu, cpuMillicores) : { ...o.fallbackCapacity });
    }
  }
  const ticker = setInterval(() => void refresh().catch(() => undefined), o.refreshMs);
  ticker.unref();

  return {
    refresh,
    /** Every node's InternalIP and ExternalIP (empty when nodes cannot be listed). */
    addresses: () => addresses,
    capacity: (runnerId: string): NodeOffer => capacity.get(runnerId) ?? { ...o.fallbackCapacity },
    nodes: (runnerId: string): k8s.V1Node[] => runnerNodes.get(runnerId) ?? [],
    runtimeClasses: (runnerId: string): string[] => runtimeClasses.get(runnerId) ?? [],
    /** Whether the node (as last listed) holds the image; undefined when nodes cannot be listed or it is unknown. */
    hasImage: (nodeName: string, image: string): boolean | undefined => nodeHasImage(byName.get(nodeName), image),
    close: () => clearInterval(ticker),
  };
}
