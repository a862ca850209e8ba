/**
 * Where the Kubernetes runtime places sandbox pods: its runners (HANGAR_KUBE_RUNNERS, each a node
 * selector), the tolerations every pod carries, how GPU nodes are read, the capacity assumed where
 * nodes say nothing, and how often nodes are read again.
 */
import { ConfigError, listOf, type Env } from "./config-env.js";

/**
 * HANGAR_KUBE_RUNNERS: comma-separated runners, each `id` or `id:key=value&key=value`
 * (a node selector, e.g. a node pool). Empty = one runner, HANGAR_RUNNER_ID, on any node.
 */
export function parseKubeRunners(
  text: string,
  defaultId: string,
  group: string,
): { runnerId: string; runnerGroupId: string; nodeSelector: Record<string, string> }[] {
  if (!text.trim()) return [{ runnerId: defaultId, runnerGroupId: group, nodeSelector: {} }];
  const seen = new Set<string>();
  return text.split(",").map((entry) => {
    const e = entry.trim();
    const colon = e.indexOf(":");
    const id = colon < 0 ? e : e.slice(0, colon);
    if (!/^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/.test(id))
      throw new ConfigError(`HANGAR_KUBE_RUNNERS: "${e}": runner id must be a DNS label`);
    if (seen.has(id)) throw new ConfigError(`HANGAR_KUBE_RUNNERS: runner ${id} appears twice`);
    seen.add(id);
    const nodeSelector: Record<string, string> = {};
    for (const pair of colon < 0 ? [] : e.slice(colon + 1).split("&")) {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new ConfigError(`HANGAR_KUBE_RUNNERS: "${e}": expected key=value node labels after the colon`);
      nodeSelector[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return { runnerId: id, runnerGroupId: group, nodeSelector };
  });
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  tolerationSeconds?: number;
}

/** HANGAR_KUBE_TOLERATIONS: a JSON list of Kubernetes tolerations for every sandbox pod (e.g. tainted GPU nodes). */
export function parseTolerations(text: string): Toleration[] {
  if (!text.trim()) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      `HANGAR_KUBE_TOLERATIONS: not JSON (${(e as Error).message}); expected e.g. [{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]`,
    );
  }
  if (!Array.isArray(v)) throw new ConfigError("HANGAR_KUBE_TOLERATIONS: expected a JSON list of tolerations");
  return v.map((t: unknown, i) => {
    const where = `HANGAR_KUBE_TOLERATIONS[${i}]`;
    if (!t || typeof t !== "object" || Array.isArray(t)) throw new ConfigError(`${where}: expected an object`);
    const o = t as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!["key", "operator", "value", "effect", "tolerationSeconds"].includes(k)) throw new ConfigError(`${where}: unknown field "${k}"`);
    for (const k of ["key", "value"])
      if (o[k] !== undefined && typeof o[k] !== "string") throw new ConfigError(`${where}.${k}: expected a string`);
    if (o.operator !== undefined && o.operator !== "Exists" && o.operator !== "Equal")
      throw new ConfigError(`${where}.operator: Exists or Equal`);
    if (o.operator === "Exists" && o.value) throw new ConfigError(`${where}: operator Exists takes no value`);
    if (o.effect !== undefined && !["NoSchedule", "PreferNoSchedule", "NoExecute"].includes(o.effect as string))
      throw new ConfigError(`${where}.effect: NoSchedule, PreferNoSchedule or NoExecute`);
    if (o.tolerationSeconds !== undefined && !Number.isInteger(o.tolerationSeconds))
      throw new ConfigError(`${where}.tolerationSeconds: expected an integer`);
    return o as Toleration;
  });
}

/** `runner`: HANGAR_RUNNER_ID and HANGAR_RUNNER_GROUP_ID, the one runner where HANGAR_KUBE_RUNNERS is empty. */
export function readKubeNodes(env: Env, runner: { runnerId: string; runnerGroupId: string }) {
  return {
    capacityCpuMillicores: env.int("HANGAR_RUNNER_CPU_MILLICORES", 8000, 0, 100_000_000),
    capacityMemoryBytes: env.int("HANGAR_RUNNER_MEMORY_BYTES", 32 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER),
    runners: parseKubeRunners(env.str("HANGAR_KUBE_RUNNERS", ""), runner.runnerId, runner.runnerGroupId),
    tolerations: parseTolerations(env.str("HANGAR_KUBE_TOLERATIONS", "")),
    gpu: {
      resource: env.str("HANGAR_KUBE_GPU_RESOURCE", "nvidia.com/gpu"),
      typeLabels: listOf(env.str("HANGAR_KUBE_GPU_TYPE_LABELS", "nvidia.com/gpu.product,gpu.nvidia.com/class")),
      memoryLabel: env.str("HANGAR_KUBE_GPU_MEMORY_LABEL", "nvidia.com/gpu.memory"),
    },
    nodeRefreshMs: env.int("HANGAR_KUBE_NODE_REFRESH_SECONDS", 30, 1, 3600) * 1000,
    // Each node's hangar-pullwatch (ADR 0038), on the node's InternalIP; 0: pull progress is not asked for.
    pullProgressPort: env.int("HANGAR_KUBE_PULL_PROGRESS_PORT", 0, 0, 65535) || undefined,
  };
}
