/**
 * What the runtime knows of the cluster's nodes, per runner: capacity and GPUs (capacity.ts),
 * the RuntimeClasses its nodes offer, and every node's addresses (no sandbox may reach them). Read
 * at start and every `refreshMs`; an identity that may not list nodes or RuntimeClasses reports the
 * configured fallback instead.
 */
import { nodeHasImage } from "../pod/image-ref.js";
import * as k8s from "@kubernetes/client-node";
import { formatCidr, parseCidr } from "../../../core/cidr.js";
import { cpuMillicores } from "../../../core/quantity.js";
import { type GpuConfig, matchesSelector, type NodeOffer, offerOf, offeredClasses } from "./capacity.js";

export interface NodeViewOptions {
  kubeConfig: k8s.KubeConfig;
  runners: { runnerId: string; nodeSelector: Record<string, string> }[];
  gpu: GpuConfig;
  fallbackCapacity: { cpuMillicores: number; memoryBytes: number };
  /** The operator's default RuntimeClass: the only one known to exist when classes cannot be read. */
  runtimeClassName?: string;
  refreshMs: number;
}

/** The first host address of a range ("10.244.1.0/24" -> "10.244.1.1/32"), or undefined. */
export function firstHost(cidr: string): string | undefined {
  const c = parseCidr(cidr);
  if (!c || c.bits >= (c.family === 4 ? 31 : 127)) return undefined;
  return formatCidr({ family: c.family, net: c.net + 1n, bits: c.family === 4 ? 32 : 128 });
}

export function createNodeView(o: NodeViewOptions) {
  const core = o.kubeConfig.makeApiClient(k8s.CoreV1Api);
  const nodeApi = o.kubeConfig.makeApiClient(k8s.NodeV1Api);
  const capacity = new Map<string, NodeOffer>();
  const runnerNodes = new Map<string, k8s.V1Node[]>();
  const runtimeClasses = new Map<string, string[]>();
  let addresses: string[] = [];
  let gateways: string[] = [];
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
      const addrs = nodes.flatMap((n) =>
        (n.status?.addresses ?? []).filter((a) => a.type === "InternalIP" || a.type === "ExternalIP").map((a) => a.address),
      );
      addresses = [...new Set(addrs)].sort();
      gateways = [
        ...new Set(nodes.flatMap((n) => n.spec?.podCIDRs ?? (n.spec?.podCIDR ? [n.spec.podCIDR] : [])).flatMap((c) => firstHost(c) ?? [])),
      ].sort();
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
    /** The first address of every node's pod range: the pods' gateway (the node itself) on bridge CNIs. */
    gateways: () => gateways,
    capacity: (runnerId: string): NodeOffer => capacity.get(runnerId) ?? { ...o.fallbackCapacity },
    nodes: (runnerId: string): k8s.V1Node[] => runnerNodes.get(runnerId) ?? [],
    runtimeClasses: (runnerId: string): string[] => runtimeClasses.get(runnerId) ?? [],
    /** Whether the node (as last listed) holds the image; undefined when nodes cannot be listed or it is unknown. */
    hasImage: (nodeName: string, image: string): boolean | undefined => nodeHasImage(byName.get(nodeName), image),
    /** The node's InternalIP (as last listed), where its node reporters listen. */
    internalIp: (nodeName: string): string | undefined =>
      byName.get(nodeName)?.status?.addresses?.find((a) => a.type === "InternalIP")?.address,
    close: () => clearInterval(ticker),
  };
}
