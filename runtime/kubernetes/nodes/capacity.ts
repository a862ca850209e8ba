/**
 * Nodes -> what each runner offers (pure, table-tested): allocatable CPU and memory, and GPUs as
 * NVIDIA's GPU feature discovery and CoreWeave's nodes publish them (an extended resource, a
 * model label, a memory label in MiB). Also the node affinity that sends a GPU sandbox to a
 * node with the model and memory it asked for.
 */
import type { V1Node, V1NodeSelectorTerm, V1RuntimeClass } from "@kubernetes/client-node";
import { parseQuantity } from "../../../core/quantity.js";
import type { GpuAsk, RunnerGpus } from "../../../core/types.js";
import { gpuTypeMatches } from "../../../core/gpu.js";

export interface GpuConfig {
  /** The extended resource a GPU is (nvidia.com/gpu). */
  resource: string;
  /** Node labels naming the GPU model, in order of preference (nvidia.com/gpu.product, gpu.nvidia.com/class). */
  typeLabels: string[];
  /** Node label with the memory of one GPU in MiB (nvidia.com/gpu.memory). */
  memoryLabel: string;
}

export const DEFAULT_GPU_CONFIG: GpuConfig = {
  resource: "nvidia.com/gpu",
  typeLabels: ["nvidia.com/gpu.product", "gpu.nvidia.com/class"],
  memoryLabel: "nvidia.com/gpu.memory",
};

export interface NodeOffer {
  cpuMillicores: number;
  memoryBytes: number;
  gpus?: Omit<RunnerGpus, "available">;
}

const MIB = 1024 * 1024;
const gbOfMib = (mib: number) => Math.floor((mib * MIB) / 1e9);

export const matchesSelector = (n: V1Node, sel: Record<string, string>) =>
  Object.entries(sel).every(([k, v]) => n.metadata?.labels?.[k] === v);

function gpusOf(n: V1Node, c: GpuConfig): number {
  const q = parseQuantity(n.status?.allocatable?.[c.resource] ?? "0") ?? 0;
  return n.spec?.unschedulable ? 0 : Math.floor(q);
}

export function offerOf(nodes: V1Node[], c: GpuConfig, cpuMillicores: (q: string) => number | undefined): NodeOffer {
  const offer: NodeOffer = {
    cpuMillicores: nodes.reduce((a, n) => a + (cpuMillicores(n.status?.allocatable?.cpu ?? "0") ?? 0), 0),
    memoryBytes: nodes.reduce((a, n) => a + (parseQuantity(n.status?.allocatable?.memory ?? "0") ?? 0), 0),
  };
  const withGpus = nodes.filter((n) => gpusOf(n, c) > 0);
  if (!withGpus.length) return offer;
  const types = new Set<string>();
  let maxMib = 0;
  for (const n of withGpus) {
    const label = c.typeLabels.map((k) => n.metadata?.labels?.[k]).find(Boolean);
    if (label) types.add(label);
    maxMib = Math.max(maxMib, Number(n.metadata?.labels?.[c.memoryLabel] ?? 0) || 0);
  }
  offer.gpus = {
    perNodeMax: Math.max(...withGpus.map((n) => gpusOf(n, c))),
    total: withGpus.reduce((a, n) => a + gpusOf(n, c), 0),
    types: [...types].sort(),
    ...(maxMib ? { maxMemoryGb: gbOfMib(maxMib) } : {}),
  };
  return offer;
}

/**
 * Node affinity for a GPU sandbox: a node whose model label (any of the configured keys) is one
 * of the runner's models that match the ask, and whose GPU memory is at least the ask. Undefined
 * when the ask names neither (the extended resource alone places it).
 */
export function gpuAffinity(ask: GpuAsk, runnerNodes: V1Node[], c: GpuConfig): V1NodeSelectorTerm[] | undefined {
  if (!ask.type && !ask.memoryGb) return undefined;
  const memory = ask.memoryGb ? [{ key: c.memoryLabel, operator: "Gt", values: [String(Math.ceil((ask.memoryGb * 1e9) / MIB) - 1)] }] : [];
  if (!ask.type) return [{ matchExpressions: memory }];
  const terms: V1NodeSelectorTerm[] = [];
  for (const key of c.typeLabels) {
    const values = [
      ...new Set(
        runnerNodes.map((n) => n.metadata?.labels?.[key]).filter((v): v is string => !!v && gpuTypeMatches(ask.type as string, v)),
      ),
    ].sort();
    if (values.length) terms.push({ matchExpressions: [{ key, operator: "In", values }, ...memory] });
  }
  // No node has the model: a term that matches nothing keeps the pod Pending with the scheduler's reason.
  return terms.length
    ? terms
    : [{ matchExpressions: [{ key: c.typeLabels[0] ?? c.resource, operator: "In", values: [ask.type] }, ...memory] }];
}

/**
 * RuntimeClasses a runner offers: every class of the cluster, less those whose scheduling
 * nodeSelector no node of the runner matches (when its nodes are known; none without nodes).
 */
export function offeredClasses(classes: V1RuntimeClass[], runnerNodes: V1Node[] | undefined): string[] {
  if (runnerNodes && runnerNodes.length === 0) return []; // no node to run anything on
  return classes
    .filter((c) => {
      const sel = c.scheduling?.nodeSelector;
      return !sel || !runnerNodes || runnerNodes.some((n) => matchesSelector(n, sel));
    })
    .map((c) => c.metadata?.name ?? "")
    .filter(Boolean)
    .sort();
}
