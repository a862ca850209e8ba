/** The local runtime's one runner: this machine, less what its running sandboxes take. */
import os from "node:os";
import type { RunnerInfo } from "../../core/types.js";
import { ended, type LocalState } from "./local-sandboxes.js";

export function localRunner(s: LocalState, connectedAtMs: number): RunnerInfo {
  const live = [...s.sandboxes.values()].filter((sb) => !ended(sb));
  const maxCpu = os.cpus().length * 1000;
  const maxMem = os.totalmem();
  return {
    ...s.o.runner,
    architectures: [process.arch === "x64" ? "amd64" : process.arch],
    healthy: true,
    connectedAtMs,
    maxCpuMillicores: maxCpu,
    maxMemoryBytes: maxMem,
    availableCpuMillicores: Math.max(0, maxCpu - live.reduce((a, sb) => a + sb.cpuMillicores, 0)),
    availableMemoryBytes: Math.max(0, Math.min(os.freemem(), maxMem - live.reduce((a, sb) => a + sb.memoryBytes, 0))),
    runningSandboxes: live.length,
    runtimeClasses: [], // one launcher (bubblewrap): nothing to choose
    ...(s.gpuPool ? { gpus: s.gpuPool.runnerGpus() } : {}),
  };
}
