/**
 * Carries a start plan (runtime/local/local-plan.ts) out: the sandbox's directories, disk, files
 * and volumes; its cgroup; its user namespace and seccomp program (Hangar root); then bubblewrap
 * (or, unisolated, the command itself) spawned inside the cgroup, its output read into the log.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { chmod, chown, mkdir, stat, writeFile } from "node:fs/promises";
import type { Writable } from "node:stream";
import { errors, HangarError } from "../../core/errors.js";
import { inCgroups, setenvArgs, withMounts, type MountStep } from "./bwrap-args.js";
import { createCgroups, type CgroupSet } from "./cgroups.js";
import { LAUNCH_FDS, type Launcher } from "./launcher.js";
import type { VolumeAction } from "./local-plan-volumes.js";
import type { StartPlan } from "./local-plan.js";
import { readAtRate } from "./log-rate.js";
import { LogStore } from "./log-store.js";
import type { LocalRuntimeOptions } from "./options.js";
import { closeFd, createUserNs } from "./userns.js";
import { makeVolumeImage } from "./volume-fs.js";

export interface LaunchDeps {
  o: Pick<LocalRuntimeOptions, "cgroupRoot" | "users" | "tools" | "seccompBpf" | "logBudget">;
  launcher: Launcher;
  /** Spare sandbox disks (runtime/local/volume-fs.ts diskSpares): one is renamed to the path given. */
  disks?: { take(image: string): Promise<string> };
}

export interface Launched {
  main: ChildProcess;
  mainClosed: Promise<void>;
  cgroups: CgroupSet;
  logs: LogStore;
  slot?: number;
  notes: string[];
}

export async function launchSandbox(plan: StartPlan, d: LaunchDeps): Promise<Launched> {
  const steps = await makeFiles(plan, d.disks);
  const cgroups = await createCgroups(d.o.cgroupRoot, plan.cgroup.name, plan.cgroup.caps);
  const notes = [...plan.notes.head, cgroups.note];
  const ids = plan.isolated ? await openIds(plan, d.o, cgroups) : {};
  if (ids.slot !== undefined && d.o.users) {
    const { range } = d.o.users;
    notes.push(
      `unprivileged: sandbox ids 0-${range.size - 1} are host ids ${range.start}-${range.start + range.size - 1}, namespace owner uid ${ids.slot}`,
    );
  }
  notes.push(...plan.notes.tail);
  let argv = plan.spawn.argv;
  if (plan.launch) {
    argv = d.launcher.mainArgv({ ...plan.launch, slot: ids.slot });
    if (plan.overlay) argv = withMounts(d.o.tools.unshare, [...steps.disk, { t: "overlay", ...plan.overlay }, ...steps.volumes], argv);
  }
  const full = inCgroups(cgroups.procsFiles, argv);
  const main = spawn(full[0] as string, full.slice(1), {
    cwd: plan.spawn.cwd,
    env: plan.spawn.env,
    stdio: [
      "ignore",
      "pipe",
      "pipe",
      "pipe",
      ids.usernsFd ?? "ignore",
      ids.seccompFd ?? "ignore",
      ...(plan.secrets && plan.isolated ? ["pipe" as const] : []),
    ],
    detached: true,
  });
  const argsPipe = (main.stdio as unknown as (Writable | null)[])[LAUNCH_FDS.args];
  if (plan.secrets && argsPipe) {
    argsPipe.on("error", () => undefined);
    argsPipe.end(setenvArgs(plan.secrets));
  }
  closeFd(ids.usernsFd);
  closeFd(ids.seccompFd);
  const logs = new LogStore(plan.log.bytes, d.o.logBudget?.(plan.log.tenant));
  if (main.stdout) readAtRate(main.stdout, plan.log.bytesPerSecond, (b) => logs.push("stdout", b));
  if (main.stderr) readAtRate(main.stderr, plan.log.bytesPerSecond, (b) => logs.push("stderr", b));
  const mainClosed = new Promise<void>((r) => main.once("close", () => r()));
  return { main, mainClosed, cgroups, logs, slot: ids.slot, notes };
}

/** The sandbox's directories, disk, files and volumes; what its mount namespace mounts (its disk's, then its volumes'). */
async function makeFiles(plan: StartPlan, disks: LaunchDeps["disks"]): Promise<{ disk: MountStep[]; volumes: MountStep[] }> {
  for (const dir of plan.dirs) await mkdir(dir, { recursive: true });
  const disk: MountStep[] = [];
  if (plan.disk && disks) {
    const image = await disks.take(plan.disk.image);
    await mkdir(plan.disk.dir);
    // Made with its layout (diskLayout): upper, work, tmp and home with their owners.
    disk.push({ t: "ext4", image, target: plan.disk.dir, keepLostFound: true });
  }
  for (const w of plan.writes) await writeFile(w.path, w.content, { mode: w.mode });
  return { disk, volumes: await makeVolumes(plan.volumes) };
}

/** Carries the volumes' actions out in order; returns the steps of the sandbox's mount namespace. */
export async function makeVolumes(actions: VolumeAction[]): Promise<MountStep[]> {
  const steps: MountStep[] = [];
  for (const a of actions) {
    if (a.t === "mkdir") await mkdir(a.path, { recursive: true });
    else if (a.t === "step") steps.push(a.step);
    else if (a.t === "volumeFs") {
      const image = await makeVolumeImage({ mkfs: a.mkfs, image: a.image, size: a.size, name: a.name, uid: a.uid, gid: a.gid });
      await mkdir(a.target, { recursive: true });
      steps.push({ t: "ext4", image, target: a.target });
    } else {
      const st = await stat(a.tree);
      if (a.inNamespace)
        steps.push(
          { t: "dir", path: a.upper, uid: st.uid, gid: st.gid, mode: st.mode },
          { t: "dir", path: a.work, uid: 0, gid: 0, mode: 0o700 },
        );
      else {
        await mkdir(a.upper, { recursive: true });
        await mkdir(a.work, { recursive: true });
        await chown(a.upper, st.uid, st.gid);
        await chmod(a.upper, st.mode & 0o7777);
      }
    }
  }
  return steps;
}

/** Hangar root: a slot uid and a user namespace it owns, the plan's owners set; and the seccomp program. A failure frees them and the cgroup. */
async function openIds(
  plan: StartPlan,
  o: LaunchDeps["o"],
  cgroups: CgroupSet,
): Promise<{ slot?: number; usernsFd?: number; seccompFd?: number }> {
  let slot: number | undefined;
  let usernsFd: number | undefined;
  try {
    if (o.users) {
      slot = o.users.slots.acquire();
      usernsFd = await createUserNs(o.tools, slot, o.users.range);
      for (const w of plan.owners) {
        await chown(w.path, w.uid, w.gid);
        if (w.mode !== undefined) await chmod(w.path, w.mode);
      }
    }
    return { slot, usernsFd, seccompFd: openSync(o.seccompBpf, "r") };
  } catch (e) {
    closeFd(usernsFd);
    if (slot !== undefined) o.users?.slots.release(slot);
    await cgroups.remove();
    throw e instanceof HangarError ? e : errors.internal(`could not prepare the sandbox's user namespace: ${(e as Error).message}`, e);
  }
}
