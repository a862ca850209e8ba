/** The local runtime from the configuration: isolation, id ranges and egress only where Hangar runs as root with isolation on. */
import type pino from "pino";
import { limitsFor } from "../controller/tenant-limits.js";
import { DEFAULT_DENIED_CIDRS } from "../runtime/local/egress.js";
import { createImageStore } from "../runtime/local/image-store.js";
import { createLocalRuntime } from "../runtime/local/local-runtime.js";
import { logBudgets } from "../runtime/local/log-budget.js";
import { slotPool } from "../runtime/local/userns.js";
import type { Runtime } from "../runtime/types.js";
import type { Config } from "./config.js";
import { dataDirProblem } from "./data-dir-check.js";
import { fail } from "./fail.js";

/** `installDir` is masked from every sandbox. */
export function buildLocalRuntime(cfg: Config, log: pino.Logger, installDir: string): Runtime {
  const isRoot = process.getuid?.() === 0;
  const unreachable = isRoot && !cfg.local.unsafe ? dataDirProblem(cfg.dataDir) : undefined;
  if (unreachable) fail(unreachable);
  const isolated = isRoot && !cfg.local.unsafe;
  return createLocalRuntime({
    dataDir: cfg.dataDir,
    isolation: cfg.local.unsafe ? "none" : "bubblewrap",
    tools: cfg.local.tools,
    images: cfg.local.images,
    imageStore: createImageStore({
      cacheDir: cfg.local.imageCacheDir,
      sources: cfg.local.imageDirs,
      pull: cfg.local.imagePull,
      pullTimeoutS: cfg.local.imagePullTimeoutSeconds,
      tools: cfg.local.tools,
      idShift: isolated ? { start: cfg.local.idRangeStart, size: 65_536 } : undefined,
      insecureRegistries: cfg.local.insecureRegistries,
    }),
    seccompBpf: cfg.local.seccompBpf,
    snapshotLayers: cfg.local.snapshotLayers,
    diskBytes: cfg.local.diskBytes,
    egress: isolated ? { tools: cfg.local.tools, deniedCidrs: [...DEFAULT_DENIED_CIDRS, ...cfg.local.egressDeniedCidrs] } : undefined,
    users: isolated
      ? { range: { start: cfg.local.idRangeStart, size: 65_536 }, slots: slotPool(cfg.local.slotUidBase, 65_536) }
      : undefined,
    maskPaths: [...cfg.local.maskPaths, installDir],
    sandboxUid: cfg.local.sandboxUid,
    pidsMax: cfg.local.pidsMax,
    logBytesPerSecond: cfg.local.logBytesPerSecond,
    logBytes: cfg.local.logBytes,
    logBudget: logBudgets((tenant) => limitsFor(cfg.tenantLimits, tenant).log_bytes),
    defaultMemoryBytes: cfg.local.defaultMemoryBytes,
    defaultCpuMillicores: cfg.local.defaultCpuMillicores,
    cgroupRoot: cfg.local.cgroupRoot,
    ...(cfg.local.gpus ? { gpus: cfg.local.gpus } : {}),
    volumes: cfg.local.volumes,
    runner: { runnerId: cfg.runnerId, runnerGroupId: cfg.runnerGroupId, organizationId: cfg.organizationId },
    log: log.child({ component: "runtime" }),
  });
}
