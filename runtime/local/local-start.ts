/**
 * A local sandbox's start: its record stored, its GPUs taken, its image found, its start planned
 * (runtime/local/local-plan.ts) and carried out (local-launch.ts), then awaited until its command
 * runs, given egress and probed. A start that fails before the sandbox runs frees what it took.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { runStartupProbe } from "../../core/probe.js";
import { pullReason, type PullProgress } from "../../core/pull-progress.js";
import type { StartSecrets } from "../../core/secrets.js";
import { gpuAsk, type SandboxRecord, type SandboxSpec } from "../../core/types.js";
import type { StartedSandbox } from "../types.js";
import { launchSandbox, type LaunchDeps } from "./local-launch.js";
import { planStart } from "./local-plan.js";
import { HOST_ROOT, rootfsFor } from "./local-rootfs.js";
import { ended, trackSandbox, type LocalSandbox, type LocalState } from "./local-sandboxes.js";
import { startEgress, waitStarted } from "./local-started.js";
import { killAll } from "./local-stop.js";
import type { Prepared } from "./prepare.js";
import type { LocalRecords } from "./record-file.js";

export interface StartDeps {
  prepared: Promise<Prepared>;
  durable: Pick<LocalRecords, "stored">;
  /** This Hangar's name for its cgroups. */
  instance: string;
  isRoot: boolean;
  procDriver?: string;
  disks?: LaunchDeps["disks"];
  stop(id: string, graceMs: number): Promise<void>;
  teardown(sb: LocalSandbox): Promise<void>;
  probeOnce(id: string, argv: string[], timeoutMs: number): Promise<number>;
}

export function createLocalStart(s: LocalState, d: StartDeps) {
  /** A GPU sandbox holds its devices from here until its teardown (or a start that fails before it runs). */
  async function start(record: SandboxRecord, startSecrets?: StartSecrets): Promise<StartedSandbox> {
    const { id, spec } = record;
    await d.durable.stored(id, record); // on disk before the create is answered
    takeGpus(s, id, spec);
    try {
      return await startSandbox(record, startSecrets);
    } catch (e) {
      if (!s.sandboxes.has(id)) {
        s.gpuPool?.release(id);
        await (await s.layers?.catch(() => undefined))?.release(id);
        // Its record stays (FAILED) until retention; what the start made goes now.
        await rm(path.join(s.o.dataDir, "sandboxes", id), { recursive: true, force: true }).catch(() => undefined);
      }
      throw e;
    }
  }

  async function startSandbox(record: SandboxRecord, secrets?: StartSecrets): Promise<StartedSandbox> {
    const { id, spec } = record;
    const helpers = await d.prepared;
    // An image not unpacked yet: the sandbox is PREPARING, its reason saying how far the pull is.
    const onPull = (pull: PullProgress) => s.emit({ t: "progress", id, reason: pullReason(pull), preparing: true, pull });
    const rootfs = s.o.isolation === "bubblewrap" ? await rootfsFor(s.o, spec.image, onPull) : HOST_ROOT;
    const plan = planStart({
      record,
      secrets,
      o: s.o,
      instance: d.instance,
      isRoot: d.isRoot,
      ownDisk: d.disks !== undefined,
      helpers,
      rootfs,
      gpuDevices: s.gpuPool?.held(id) ?? [],
      procDriver: d.procDriver,
      restored: await layeredVolumes(s, id, spec),
      hostEnv: process.env,
    });
    const l = await launchSandbox(plan, { o: s.o, launcher: s.launcher, disks: d.disks });
    const { main, cgroups, logs } = l;
    const parts = {
      id,
      dir: plan.dir,
      spec,
      main,
      cgroups,
      logs,
      env: plan.env,
      cpuMillicores: plan.cpuMillicores,
      memoryBytes: plan.memoryBytes,
    };
    const { sb, settle } = trackSandbox(s, { ...parts, slot: l.slot }, { killAll, teardown: d.teardown });
    const stopped = async (e: unknown): Promise<never> => {
      await d.stop(id, 0); // never shown RUNNING: a start that did not get its command going ends here
      throw e;
    };
    try {
      sb.initPid = await waitStarted(plan.isolated, s.launcher.exe, main, logs, l.mainClosed).catch(stopped);
      if (plan.pasta) await startEgress(s.o, helpers, sb).catch(stopped);
    } finally {
      settle();
    }
    const notes = l.notes;
    if (spec.startupProbe) {
      const outcome = await runStartupProbe(
        spec.startupProbe,
        (argv, timeoutMs) => d.probeOnce(id, argv, timeoutMs),
        (ms) => new Promise((r) => setTimeout(r, ms)),
        () => !ended(sb),
      );
      if (!outcome.ok) await stopped(new Error(outcome.reason));
      else notes.push(`startup probe passed (try ${outcome.attempts})`);
    }
    const restored = plan.copyOnWrite;
    return { imageNote: notes.join("; "), startedAtMs: Date.now(), ...(restored.length ? { restored } : {}) };
  }

  return { start };
}

function takeGpus(s: LocalState, id: string, spec: SandboxSpec): void {
  const ask = gpuAsk(spec);
  if (!ask) return;
  if (!s.gpuPool) throw errors.noSuitableRunner("this Hangar's local runtime has no GPUs (HANGAR_LOCAL_GPU_DEVICES lists none)");
  if (s.o.isolation !== "bubblewrap")
    throw errors.noSuitableRunner("GPU sandboxes need isolation: with HANGAR_LOCAL_UNSAFE_NO_ISOLATION every process sees every device");
  const got = s.gpuPool.take(id, ask.count);
  if ("refused" in got) throw errors.capacityExhausted(got.refused, 5000);
}

/**
 * The volumes of `spec` restored from a snapshot layer this runtime holds: volume name -> the
 * layer's tree. A volume also mounted by a sub path is restored by tar (its sub path lives in
 * the restored tree, which exists only once the overlay is mounted).
 */
async function layeredVolumes(s: LocalState, id: string, spec: SandboxSpec): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const l = await s.layers?.catch(() => undefined);
  if (!l) return out;
  for (const v of spec.volumes) {
    if (!v.restore?.layer || v.registered || spec.volumes.some((m) => m.name === v.name && m.subPath)) continue;
    const tree = l.use(v.restore.layer, id);
    if (tree) out.set(v.name, tree);
  }
  return out;
}
