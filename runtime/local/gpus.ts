/**
 * GPUs on the local runtime: only device nodes the operator lists (HANGAR_LOCAL_GPU_DEVICES), one
 * GPU per node, each given to one sandbox at a time and bound into it (bubblewrap --dev-bind)
 * with the driver's shared control nodes; a sandbox that asked for none sees none of them. The
 * pool is plain state (table-tested); the runtime takes and releases around a sandbox's life.
 */
import type { RunnerGpus } from "../../core/types.js";

export interface LocalGpuConfig {
  /** One device node per GPU, e.g. /dev/nvidia0. */
  devices: string[];
  /** Nodes every GPU sandbox needs besides its own (the driver's control nodes: /dev/nvidiactl, /dev/nvidia-uvm). */
  shared: string[];
  /** The model name Discovery reports and requests match ("H100"); unset: "GPU". */
  type?: string;
  memoryGb?: number;
}

export interface GpuPool {
  /** `count` free devices for sandbox `id` (all or none), or why not. */
  take(id: string, count: number): { devices: string[] } | { refused: string };
  release(id: string): void;
  /** The devices `id` holds. */
  held(id: string): string[];
  runnerGpus(): RunnerGpus;
}

export function createGpuPool(cfg: LocalGpuConfig): GpuPool {
  const owner = new Map<string, string>(); // device -> sandbox id
  const free = () => cfg.devices.filter((d) => !owner.has(d));
  return {
    take(id, count) {
      const f = free();
      if (count > cfg.devices.length)
        return {
          refused: `this Hangar's local runtime has ${cfg.devices.length} GPU${cfg.devices.length === 1 ? "" : "s"} (${count} asked)`,
        };
      if (f.length < count)
        return {
          refused: `${cfg.devices.length - f.length} of this Hangar's ${cfg.devices.length} local GPUs are in use (${count} asked, ${f.length} free)`,
        };
      const got = f.slice(0, count);
      for (const d of got) owner.set(d, id);
      return { devices: got };
    },
    release(id) {
      for (const [d, o] of owner) if (o === id) owner.delete(d);
    },
    held: (id) => cfg.devices.filter((d) => owner.get(d) === id),
    runnerGpus: () => ({
      perNodeMax: cfg.devices.length,
      total: cfg.devices.length,
      available: free().length,
      types: [cfg.type || "GPU"],
      ...(cfg.memoryGb ? { maxMemoryGb: cfg.memoryGb } : {}),
    }),
  };
}
