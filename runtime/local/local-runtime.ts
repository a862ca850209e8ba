/**
 * The embedded local runtime: each sandbox is a process tree on this machine, isolated with
 * bubblewrap: its own user namespace (root inside is an unprivileged host uid when Hangar is
 * root), mount, pid, ipc, uts and network namespaces, no capabilities, no_new_privs and a
 * seccomp filter, on a private writable overlay of its image's filesystem with its own /tmp
 * and home. Commands join it with nsenter through the guard. Egress, when allowed, goes
 * through pasta under a host firewall. See docs/local-runtime.md and docs/security.md.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, openSync, realpathSync } from "node:fs";
import { chmod, chown, mkdir, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { errors, HangarError } from "../../core/errors.js";
import { cpuMillicores, parseQuantity } from "../../core/quantity.js";
import { runStartupProbe } from "../../core/probe.js";
import type { StartSecrets } from "../../core/secrets.js";
import { gpuAsk, type RunnerInfo, type SandboxRecord, type SandboxSpec } from "../../core/types.js";
import type { LocalRuntimeOptions } from "./options.js";
import type { ArchiveSource, ExecOptions, ExecProcess, LogChunk, LogOptions, Runtime, RuntimeEvent, StartedSandbox } from "../types.js";
import {
  inCgroups,
  PTY_HELPER_PATH,
  sandboxEnv,
  setenvArgs,
  withMounts,
  type MountStep,
  type OverlayLayers,
  type SandboxPaths,
} from "./bwrap-args.js";
import { diskSpares, makeVolumeImage } from "./volume-fs.js";
import { createSnapshotLayers } from "./snapshot-layers.js";
import { createCgroups, type CgroupSet } from "./cgroups.js";
import { createGpuPool, type LocalGpuConfig } from "./gpus.js";
import { createDirVolumeRegistry, type LocalVolume } from "./volume-dirs.js";
import { childExec } from "./child-exec.js";
import { exitCodeOf, exitCodeOfSignal } from "../../core/exit-code.js";
import { commandStarted } from "./command-started.js";
import { SANDBOX_DNS, startPasta, type EgressTools } from "./egress.js";
import type { ImageStore } from "./image-store.js";
import { bubblewrapLauncher, LAUNCH_FDS } from "./launcher.js";
import { createFileTemplateStore } from "./template-files.js";
import { readAtRate } from "./log-rate.js";
import { LogStore } from "./log-store.js";
import type { LogBudget } from "./log-budget.js";
import { descendants, killTree } from "./proc-tree.js";
import { killFailures } from "../../core/kill.js";
import { prepareLocalRuntime } from "./prepare.js";
import { localRecords } from "./record-file.js";
import { startTime, writeState } from "./sweep.js";
import { closeFd, createUserNs, type IdRange, type SlotPool } from "./userns.js";

export type { LocalRuntimeOptions } from "./options.js";

interface LocalSandbox {
  id: string;
  dir: string;
  spec: SandboxSpec;
  main: ChildProcess;
  initPid?: number;
  cgroups: CgroupSet;
  logs: LogStore;
  env: Record<string, string>;
  exited: Promise<void>;
  killedBySignal?: number;
  cpuMillicores: number;
  memoryBytes: number;
  /** The uid that owns the sandbox's user namespace (Hangar is root), released at teardown. */
  slot?: number;
  /** The sandbox's user-mode network relay, when egress is allowed. */
  pasta?: ChildProcess;
}

/** What a sandbox's own disk holds from the start: its root's overlay upper and work dirs, /tmp, home. */
const diskLayout = (rangeRoot: number, sandboxUser: number) => [
  { name: "upper", uid: rangeRoot, gid: rangeRoot, mode: 0o755 },
  { name: "work", uid: 0, gid: 0, mode: 0o700 },
  { name: "tmp", uid: rangeRoot, gid: rangeRoot, mode: 0o1777 },
  { name: "home", uid: sandboxUser, gid: sandboxUser, mode: 0o755 },
];

export function createLocalRuntime(o: LocalRuntimeOptions): Runtime {
  const sandboxes = new Map<string, LocalSandbox>();
  /** Names this Hangar's cgroups (hangar/<instance>/<id>): several Hangars may share a machine. */
  const instance = `i${createHash("sha256").update(path.resolve(o.dataDir)).digest("hex").slice(0, 12)}`;
  let execSeq = 0;
  const isRoot = process.getuid?.() === 0;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const connectedAtMs = Date.now();
  const launcher = bubblewrapLauncher(
    o.tools,
    (() => {
      try {
        return realpathSync(o.tools.bwrap);
      } catch {
        return o.tools.bwrap;
      }
    })(),
    o.users !== undefined,
  );

  const dirNote = (image: string, dir: string, how: string) => ({
    dir,
    env: {},
    mapped: true,
    note: `local runtime: image ${image} -> ${dir === "/" ? "the host root filesystem" : `rootfs ${dir}`} (${how})`,
  });
  /** mapped: a directory the operator named (maybe the host's own): host paths are masked in it. */
  const rootfsFor = async (image: string): Promise<{ dir: string; env: Record<string, string>; note: string; mapped: boolean }> => {
    const exact = o.images[image];
    if (exact) return dirNote(image, exact, "configured");
    try {
      const r = await o.imageStore.resolve(image);
      return { dir: r.rootfs, env: r.config.env, mapped: false, note: `local runtime: image ${image} from ${r.source}` };
    } catch (e) {
      const fallback = o.images["*"];
      if (fallback) return dirNote(image, fallback, "fallback mapping");
      throw e;
    }
  };
  const prepared = prepareLocalRuntime(o, instance);
  prepared.catch(() => undefined);

  const listeners = new Set<(e: RuntimeEvent) => void>();
  const emit = (e: RuntimeEvent) => {
    for (const l of listeners) l(e);
  };
  const subscribe = (l: (e: RuntimeEvent) => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  /** Records on disk (ADR 0030): a killed Hangar's sandboxes answer with a terminal record after its restart. */
  const durable = localRecords(path.join(o.dataDir, "records"), emit, o.log);

  const gpuPool = o.gpus?.devices.length ? createGpuPool(o.gpus) : undefined;
  const disks =
    o.isolation === "bubblewrap" && isRoot && o.users && (o.diskBytes ?? 0) > 0
      ? diskSpares({
          dir: path.join(o.dataDir, "disk-spares"),
          mkfs: o.tools.mkfsExt4 ?? "/usr/sbin/mkfs.ext4",
          bytes: o.diskBytes ?? 0,
          count: 8,
          layout: diskLayout(o.users.range.start, o.users.range.start + o.sandboxUid),
          onError: (e) => o.log.warn({ err: e }, "could not make a spare sandbox disk"),
        })
      : undefined;
  const layers =
    o.isolation === "bubblewrap" && isRoot && o.users && o.snapshotLayers !== false
      ? createSnapshotLayers({
          dir: path.join(o.dataDir, "layers"),
          tools: { ...o.tools, tar: o.tools.tar ?? "/usr/bin/tar" },
          range: o.users.range,
          slots: o.users.slots,
        })
      : undefined;
  layers?.catch(() => undefined);
  const procDriver = existsSync("/proc/driver/nvidia") ? "/proc/driver/nvidia" : undefined;

  /** A GPU sandbox holds its devices from here until its teardown (or a start that fails before it runs). */
  async function start(record: SandboxRecord, startSecrets?: StartSecrets): Promise<StartedSandbox> {
    const { id, spec, runnerId } = record;
    await durable.stored(id, record); // on disk before the create is answered
    const ask = gpuAsk(spec);
    if (ask) {
      if (!gpuPool) throw errors.noSuitableRunner("this Hangar's local runtime has no GPUs (HANGAR_LOCAL_GPU_DEVICES lists none)");
      if (o.isolation !== "bubblewrap")
        throw errors.noSuitableRunner(
          "GPU sandboxes need isolation: with HANGAR_LOCAL_UNSAFE_NO_ISOLATION every process sees every device",
        );
      const got = gpuPool.take(id, ask.count);
      if ("refused" in got) throw errors.capacityExhausted(got.refused, 5000);
    }
    try {
      return await startSandbox(id, spec, runnerId, record, startSecrets);
    } catch (e) {
      if (!sandboxes.has(id)) {
        gpuPool?.release(id);
        await (await layers?.catch(() => undefined))?.release(id);
        // Its record stays (FAILED) until retention; what the start made goes now.
        await rm(path.join(o.dataDir, "sandboxes", id), { recursive: true, force: true }).catch(() => undefined);
      }
      throw e;
    }
  }

  async function startSandbox(
    id: string,
    spec: SandboxSpec,
    _runnerId?: string,
    _record?: SandboxRecord,
    startSecrets?: StartSecrets,
  ): Promise<StartedSandbox> {
    const secrets = startSecrets?.env && Object.keys(startSecrets.env).length ? startSecrets.env : undefined;
    const helpers = await prepared;
    const dir = path.join(o.dataDir, "sandboxes", id);
    const rootfs =
      o.isolation === "bubblewrap"
        ? await rootfsFor(spec.image)
        : { dir: "/", env: {}, mapped: true, note: "no image: the host (HANGAR_LOCAL_UNSAFE_NO_ISOLATION)" };
    await mkdir(dir, { recursive: true });
    for (const d of ["upper", "work", "root", "tmp", "home", "files", "volumes"]) await mkdir(path.join(dir, d), { recursive: true });
    // The sandbox's own disk (Hangar is root, ADR 0027): its root's upper dir, /tmp, home and unsized
    // scratch volumes live on a file system of HANGAR_LOCAL_DISK_BYTES, mounted first in its mount namespace.
    const disk = disks ? path.join(dir, "disk") : undefined;
    const rangeRoot = o.users?.range.start ?? 0;
    const sandboxUser = rangeRoot + o.sandboxUid;
    const diskSteps: MountStep[] = [];
    if (disk) {
      const image = await (disks as NonNullable<typeof disks>).take(path.join(dir, "disk.img"));
      await mkdir(disk);
      // Made with its layout (diskLayout): upper, work, tmp and home with their owners.
      diskSteps.push({ t: "ext4", image, target: disk, keepLostFound: true });
    }
    const paths: SandboxPaths = {
      root: rootfs.dir,
      rootWritable: false,
      tmp: path.join(disk ?? dir, "tmp"),
      home: path.join(disk ?? dir, "home"),
      empty: path.join(dir, "empty"),
      files: [],
      volumes: [],
    };
    await writeFile(paths.empty, "", { mode: 0o444 });
    const gpuDevices = gpuPool?.held(id) ?? [];
    if (gpuDevices.length) {
      paths.devices = [...gpuDevices, ...(o.gpus?.shared ?? [])];
      if (procDriver) paths.procDriver = procDriver;
    }
    let overlay: OverlayLayers | undefined;
    const notes = [rootfs.note, ...(gpuDevices.length ? [`GPUs: ${gpuDevices.join(", ")}`] : [])];
    if (o.isolation === "bubblewrap") {
      if (isRoot) {
        overlay = {
          lower: rootfs.dir,
          upper: path.join(disk ?? dir, "upper"),
          work: path.join(disk ?? dir, "work"),
          target: path.join(dir, "root"),
        };
        paths.root = overlay.target;
        paths.rootWritable = true;
        notes.push("private writable overlay");
      } else {
        notes.push("read-only root (Hangar is not root: no overlay); writable /tmp and home");
      }
    }
    for (const [n, f] of spec.files.entries()) {
      const host = path.join(dir, "files", String(n));
      await writeFile(host, f.content, { mode: 0o444 });
      paths.files.push({ host, path: f.path });
    }
    const scratch: string[] = [];
    const restored = overlay ? await layeredVolumes(id, spec) : new Map<string, string>();
    // Mounted after the root overlay, in the sandbox's mount namespace: sized volumes' file systems, then restored volumes' overlays.
    const volumeSteps: MountStep[] = [];
    const copyOnWrite: string[] = [];
    /** Volume name -> where its own file system is mounted (a sized volume, Hangar root). */
    const sizedFs = new Map<string, string>();
    for (const v of spec.volumes) {
      const src = v.registered?.source;
      if (v.registered) {
        // The operator's directory, as it is: never created, chowned or entered by a sub path (a
        // sandbox that can write there could plant a link for the next one's sub path to follow).
        if (!src || !("hostPath" in src)) throw errors.internal(`registered volume ${v.registered.id} has no directory`);
        if (v.subPath)
          throw errors.invalidField(
            `${v.registered.at}.sub_path`,
            "sub paths of registered volumes are not offered by the local runtime: mount the volume's root",
          );
        paths.volumes.push({ host: src.hostPath, path: v.mountPath, readOnly: v.readOnly });
        continue;
      }
      const safe = v.name.replace(/[^A-Za-z0-9_.-]/g, "_");
      const tree = restored.get(v.name);
      // On the sandbox's own disk: an unsized volume that is not an overlay's mount point.
      const onDisk = disk && !v.size && !tree;
      const root = path.join(onDisk ? disk : dir, "volumes", safe);
      // sub_path was checked relative and without ".." (api/spec.ts); the volume is new, so it holds no links yet.
      const host = path.join(root, v.subPath ?? "");
      if (onDisk) {
        volumeSteps.push({ t: "dir", path: host, uid: sandboxUser, gid: sandboxUser, mode: 0o755 });
        paths.volumes.push({ host, path: v.mountPath, readOnly: v.readOnly });
        continue;
      }
      await mkdir(root, { recursive: true });
      // A sized volume (Hangar root) is a file system of its own, of that size: writes past it fail (ENOSPC).
      if (overlay && o.users && v.size && !sizedFs.has(v.name)) {
        const fsDir = tree ? path.join(dir, "volume-fs", safe) : root;
        const image = await makeVolumeImage({
          mkfs: o.tools.mkfsExt4 ?? "/usr/sbin/mkfs.ext4",
          image: path.join(dir, "volume-fs", `${safe}.img`),
          size: v.size,
          name: v.name,
          uid: sandboxUser,
          gid: sandboxUser,
        });
        await mkdir(fsDir, { recursive: true });
        volumeSteps.push({ t: "ext4", image, target: fsDir });
        sizedFs.set(v.name, fsDir);
      }
      const fs = sizedFs.get(v.name);
      if (tree && v.restore) {
        // The snapshot's layer below, this sandbox's own upper dir above (the upper's root as the tree's).
        const upper = fs ? path.join(fs, "upper") : path.join(disk ?? dir, "volume-upper", safe);
        const work = fs ? path.join(fs, "work") : path.join(disk ?? dir, "volume-work", safe);
        const st = await stat(tree);
        if (fs || disk)
          volumeSteps.push(
            { t: "dir", path: upper, uid: st.uid, gid: st.gid, mode: st.mode },
            { t: "dir", path: work, uid: 0, gid: 0, mode: 0o700 },
          );
        else {
          await mkdir(upper, { recursive: true });
          await mkdir(work, { recursive: true });
          await chown(upper, st.uid, st.gid);
          await chmod(upper, st.mode & 0o7777);
        }
        volumeSteps.push({ t: "overlay", lower: tree, upper, work, target: host });
        copyOnWrite.push(v.name);
        paths.volumes.push({ host, path: v.mountPath, readOnly: v.readOnly });
        continue;
      }
      if (fs) {
        // Made on the volume's file system once it is mounted; its root belongs to the sandbox user already.
        if (v.subPath) volumeSteps.push({ t: "dir", path: host, uid: sandboxUser, gid: sandboxUser, mode: 0o755 });
      } else {
        await mkdir(host, { recursive: true });
        scratch.push(host);
      }
      paths.volumes.push({ host, path: v.mountPath, readOnly: v.readOnly });
    }
    if (sizedFs.size) notes.push(`volumes of their own size: ${[...sizedFs.keys()].join(", ")}`);
    const memoryBytes = parseQuantity(spec.limits.memory ?? "") || o.defaultMemoryBytes;
    const cpu = cpuMillicores(spec.limits.cpu ?? "") ?? 0;
    const cgroups = await createCgroups(o.cgroupRoot, `${instance}/${id}`, {
      memoryBytes: memoryBytes || undefined,
      cpuMillicores: cpu || o.defaultCpuMillicores,
      pidsMax: o.pidsMax,
    });
    notes.push(cgroups.note);
    const hostname = `sandbox-${id.slice(0, 8)}`;
    // Secret values live only in this process's memory (the main process's env and each exec's).
    const env = { ...sandboxEnv(spec, hostname, rootfs.env), ...secrets };
    const network = (_record?.effectiveEgress?.length ?? 0) > 0; // decided by the controller, stored on the record
    if (network && o.isolation === "bubblewrap" && helpers.egress instanceof Error) {
      await cgroups.remove();
      throw errors.invalidField(
        "sandbox.spec.network.deny_egress",
        `this Hangar cannot give local sandboxes egress: ${helpers.egress.message}; ask for deny_egress=true`,
      );
    }
    if (network && o.isolation === "bubblewrap") {
      await writeFile(path.join(dir, "resolv.conf"), `nameserver ${SANDBOX_DNS}\n`, { mode: 0o444 });
      paths.files.push({ host: path.join(dir, "resolv.conf"), path: "/etc/resolv.conf" });
    }
    let argv: string[];
    let slot: number | undefined;
    let usernsFd: number | undefined;
    let seccompFd: number | undefined;
    const releaseIds = () => {
      closeFd(usernsFd);
      closeFd(seccompFd);
      usernsFd = seccompFd = undefined;
    };
    if (o.isolation === "bubblewrap") {
      try {
        if (o.users) {
          slot = o.users.slots.acquire();
          usernsFd = await createUserNs(o.tools, slot, o.users.range);
          const root = o.users.range.start;
          const user = o.users.range.start + o.sandboxUid;
          if (!disk) {
            if (overlay) await chown(overlay.upper, root, root);
            await chown(paths.tmp, root, root);
            await chmod(paths.tmp, 0o1777);
            await chown(paths.home, user, user);
          }
          for (const h of scratch) await chown(h, user, user);
          notes.push(
            `unprivileged: sandbox ids 0-${o.users.range.size - 1} are host ids ${root}-${root + o.users.range.size - 1}, namespace owner uid ${slot}`,
          );
        }
        seccompFd = openSync(o.seccompBpf, "r");
      } catch (e) {
        releaseIds();
        if (slot !== undefined) o.users?.slots.release(slot);
        await cgroups.remove();
        throw e instanceof HangarError ? e : errors.internal(`could not prepare the sandbox's user namespace: ${(e as Error).message}`, e);
      }
      // An image holds nothing of the host's; a mapped directory (the host's root, say) gets its secrets masked.
      const mask = rootfs.mapped ? [...o.maskPaths, o.dataDir].filter((p) => p !== "/" && !isUnder(paths.tmp, p)) : [];
      paths.maskSecrets = rootfs.mapped;
      // Secret values go to bubblewrap through a pipe (--args), never on a command line (ps shows those to every host user).
      const plainEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !secrets || !(k in secrets)));
      argv = launcher.mainArgv({
        paths,
        spec,
        hostname,
        uid: o.sandboxUid,
        maskPaths: mask,
        env: plainEnv,
        argsFd: secrets ? LAUNCH_FDS.args : undefined,
        ptyHelper: helpers.ptyHelper,
        guard: helpers.guard,
        slot,
        procMasks: helpers.procMasks,
      });
      if (overlay) argv = withMounts(o.tools.unshare, [...diskSteps, { t: "overlay", ...overlay }, ...volumeSteps], argv);
      if (disk) notes.push(`own disk of ${o.diskBytes} bytes (root's writes, /tmp, home, unsized volumes)`);
      if (copyOnWrite.length) notes.push(`copy-on-write restore of ${copyOnWrite.join(", ")}`);
      notes.push(
        network
          ? "network: own namespace, egress through pasta (no host address, private or link-local range)"
          : "network: own namespace, loopback only (egress denied)",
      );
    } else {
      argv = spec.argv;
      notes.push("UNSAFE: no isolation (HANGAR_LOCAL_UNSAFE_NO_ISOLATION)");
    }
    const full = inCgroups(cgroups.procsFiles, argv);
    const main = spawn(full[0] as string, full.slice(1), {
      cwd: o.isolation === "none" ? paths.home : "/",
      env: o.isolation === "none" ? { ...process.env, ...env, HOME: paths.home } : { PATH: process.env.PATH ?? "" },
      stdio: [
        "ignore",
        "pipe",
        "pipe",
        "pipe",
        usernsFd ?? "ignore",
        seccompFd ?? "ignore",
        ...(secrets && o.isolation === "bubblewrap" ? ["pipe" as const] : []),
      ],
      detached: true,
    });
    const argsPipe = (main.stdio as unknown as (Writable | null)[])[LAUNCH_FDS.args];
    if (secrets && argsPipe) {
      argsPipe.on("error", () => undefined);
      argsPipe.end(setenvArgs(secrets));
    }
    releaseIds();
    const logs = new LogStore(o.logBytes, _record && o.logBudget?.(_record.tenant));
    if (main.stdout) readAtRate(main.stdout, o.logBytesPerSecond ?? 0, (b) => logs.push("stdout", b));
    if (main.stderr) readAtRate(main.stderr, o.logBytesPerSecond ?? 0, (b) => logs.push("stderr", b));
    const mainClosed = new Promise<void>((r) => main.once("close", () => r()));
    // When the main command ends, the sandbox ends: bubblewrap's init would otherwise wait for every
    // process left in the sandbox (and keep the output pipes, so "close", open).
    main.once("exit", () => {
      void killAll(sb, "exit");
      if (sb.initPid) void killTree(sb.initPid);
    });
    let settle: () => void = () => undefined;
    const startSettled = new Promise<void>((r) => (settle = r));
    const sb: LocalSandbox = {
      id,
      dir,
      spec,
      main,
      cgroups,
      logs,
      env,
      cpuMillicores: cpu,
      memoryBytes,
      slot,
      exited: new Promise<void>((resolve) => {
        main.once("close", (code, signal) => {
          logs.end();
          const exitCode =
            sb.killedBySignal !== undefined && (code === null || code === 1 || code > 128)
              ? exitCodeOfSignal(sb.killedBySignal)
              : exitCodeOf(code, signal);
          const last = logs.lastLine() ?? "";
          const startFailure = /^bwrap: (execvp|Can't)/.test(last) ? last : undefined;
          const endedAtMs = Date.now();
          void teardown(sb)
            .then(() => startSettled)
            .then(() => new Promise((r) => setImmediate(r)))
            .finally(() => {
              emit({
                t: "exit",
                id,
                exit: {
                  exitCode,
                  reason: sb.killedBySignal ? `killed by signal ${sb.killedBySignal}` : `main process exited with code ${exitCode}`,
                  endedAtMs,
                  startFailure,
                },
              });
              resolve();
            });
        });
      }),
    };
    sandboxes.set(id, sb);
    try {
      sb.initPid = await waitStarted(main, logs, mainClosed).catch(async (e: unknown) => {
        await stop(id, 0); // never shown RUNNING: a start that did not get its command going ends here
        throw e;
      });
      if (network && sb.initPid && slot !== undefined && o.egress && !(helpers.egress instanceof Error)) {
        try {
          sb.pasta = await startPasta(o.egress.tools, helpers.egress.tun, slot, sb.initPid, cgroups.procsFiles);
          const pid = sb.pasta.pid as number;
          await writeState(dir, { pasta: { pid, start: (await startTime(pid)) ?? "" } });
        } catch (e) {
          await stop(id, 0);
          throw errors.internal(`could not give the sandbox egress: ${(e as Error).message}`, e);
        }
      }
    } finally {
      settle();
    }
    if (spec.startupProbe) {
      const outcome = await runStartupProbe(
        spec.startupProbe,
        (argv, timeoutMs) => probeOnce(id, argv, timeoutMs),
        (ms) => new Promise((r) => setTimeout(r, ms)),
        () => !ended(sb),
      );
      if (!outcome.ok) {
        await stop(id, 0);
        throw new Error(outcome.reason);
      }
      notes.push(`startup probe passed (try ${outcome.attempts})`);
    }
    return { imageNote: notes.join("; "), startedAtMs: Date.now(), ...(copyOnWrite.length ? { restored: copyOnWrite } : {}) };
  }

  /**
   * The volumes of `spec` restored from a snapshot layer this runtime holds: volume name -> the
   * layer's tree. A volume also mounted by a sub path is restored by tar (its sub path lives in
   * the restored tree, which exists only once the overlay is mounted).
   */
  async function layeredVolumes(id: string, spec: SandboxSpec): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const l = await layers?.catch(() => undefined);
    if (!l) return out;
    for (const v of spec.volumes) {
      if (!v.restore?.layer || v.registered || spec.volumes.some((m) => m.name === v.name && m.subPath)) continue;
      const tree = l.use(v.restore.layer, id);
      if (tree) out.set(v.name, tree);
    }
    return out;
  }

  /** One try of a startup probe: its exit code, 124 when it outlived its timeout (then killed). */
  async function probeOnce(id: string, argv: string[], timeoutMs: number): Promise<number> {
    const p = await exec(id, { argv, noInput: true });
    void (async () => {
      for await (const chunk of p.output()) void chunk; // drained: the probe's output is not kept
    })().catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<number>((r) => (timer = setTimeout(() => r(124), timeoutMs)));
    const code = await Promise.race([p.exited.then((e) => e.exitCode), timedOut]);
    clearTimeout(timer);
    if (code === 124) await p.kill().catch((e: unknown) => killFailures.report("local", id, e, "a startup probe"));
    return code;
  }

  async function waitStarted(main: ChildProcess, logs: LogStore, mainClosed: Promise<void>): Promise<number | undefined> {
    const spawnError = new Promise<never>((_, reject) =>
      main.once("error", (e) => reject(errors.internal(`could not start sandbox: ${e.message}`, e))),
    );
    if (o.isolation === "bubblewrap") {
      const info = readInfo(main);
      const exitedEarly = mainClosed.then(() => {
        throw errors.invalidField("sandbox.spec.containers[0].command", `the sandbox exited while starting: ${tail(logs)}`);
      });
      exitedEarly.catch(() => undefined);
      spawnError.catch(() => undefined);
      const pid = await Promise.race([info, spawnError, exitedEarly]);
      // Once bwrap names its init, it has yet to write the user namespace's maps and to exec the
      // command: RUNNING before that let a prompt exec fail (nsenter: setgid) and a prompt stop
      // reach the command before it could set its signal handlers. A command that already ended
      // has started too.
      await Promise.race([commandStarted(pid, launcher.exe), mainClosed]);
      return pid;
    }
    spawnError.catch(() => undefined);
    await Promise.race([new Promise((r) => main.once("spawn", r)), spawnError]);
    return main.pid;
  }

  /** Kills every process of the sandbox (its cgroup); one that stays after the retries is logged and counted, never dropped quietly (ADR 0032). */
  async function killAll(sb: LocalSandbox, reason: string): Promise<void> {
    await sb.cgroups.kill().catch((e: unknown) => killFailures.report("local", sb.id, e, `the sandbox's processes (${reason})`));
  }

  async function teardown(sb: LocalSandbox): Promise<void> {
    await killAll(sb, "teardown");
    if (sb.initPid) await killTree(sb.initPid).catch(() => undefined);
    if (sb.pasta?.pid) await killTree(sb.pasta.pid).catch(() => undefined);
    await sb.cgroups.remove();
    gpuPool?.release(sb.id);
    await (await layers?.catch(() => undefined))?.release(sb.id);
    if (sb.slot !== undefined) o.users?.slots.release(sb.slot);
    sb.slot = undefined;
    // Nothing can run in the sandbox any more: free its disk now; the logs stay until remove().
    await rm(sb.dir, { recursive: true, force: true }).catch((e) => o.log.warn({ err: e, id: sb.id }, "could not remove sandbox files"));
  }

  const get = (id: string): LocalSandbox => {
    const sb = sandboxes.get(id);
    if (!sb) throw errors.sandboxNotFound(id);
    return sb;
  };

  async function stop(id: string, graceMs: number): Promise<void> {
    const sb = sandboxes.get(id);
    if (!sb || ended(sb)) return;
    const targets =
      o.isolation === "bubblewrap" && sb.initPid ? await descendants(sb.initPid).then((d) => d.slice(0, 1)) : [sb.main.pid ?? 0];
    const hardKill = () => {
      sb.killedBySignal ??= 9;
      void killAll(sb, "stop");
      if (sb.initPid) void killTree(sb.initPid);
      if (sb.main.pid) void killTree(sb.main.pid);
    };
    if (graceMs <= 0 || targets.length === 0) return hardKill();
    for (const p of targets) {
      try {
        process.kill(o.isolation === "none" ? -p : p, "SIGTERM");
      } catch {
        // gone already
      }
    }
    const timer = setTimeout(hardKill, graceMs);
    void sb.exited.then(() => clearTimeout(timer));
  }

  async function exec(id: string, opts: ExecOptions): Promise<ExecProcess> {
    const sb = get(id);
    if (!sb.initPid || ended(sb)) throw errors.notRunning(id, "exited");
    // The pty is made inside the sandbox (by the helper mounted there), so job control sees its own pids.
    const isolated = o.isolation === "bubblewrap";
    const inner = opts.tty
      ? [isolated ? PTY_HELPER_PATH : o.tools.ptyHelper, String(opts.tty.cols), String(opts.tty.rows), "--", ...opts.argv]
      : opts.argv;
    let argv = isolated ? launcher.joinArgv(sb.initPid, o.sandboxUid, inner) : inner;
    const leaf = await sb.cgroups.leaf(`exec-${++execSeq}`);
    argv = inCgroups(leaf.procsFiles, argv);
    const env = { ...sb.env, ...(opts.tty ? { TERM: "xterm-256color" } : {}), ...(opts.env ?? {}) };
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: o.isolation === "none" ? path.join(sb.dir, "home") : "/",
      env: o.isolation === "none" ? { ...process.env, ...env, HOME: path.join(sb.dir, "home") } : env,
      stdio: opts.tty ? ["pipe", "pipe", "pipe", "pipe"] : ["pipe", "pipe", "pipe"],
      detached: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (e) => reject(errors.internal(`exec failed to start: ${e.message}`, e)));
    }).catch(async (e) => {
      await leaf.remove();
      throw e;
    });
    const ctl = child.stdio[3] as NodeJS.WritableStream | null | undefined;
    const p = childExec(child, { resize: (cols, rows) => ctl?.write(`${cols} ${rows}\n`), killAll: leaf.kill });
    // An exec that left background processes keeps its leaf until the sandbox ends.
    void p.exited.then(() => leaf.remove());
    return p;
  }

  async function* logs(id: string, opts: LogOptions): AsyncIterable<LogChunk> {
    if (!sandboxes.has(id) && durable.restored(id)) return; // its output died with the Hangar that ran it (ADR 0030)
    yield* get(id).logs.read(opts);
  }

  async function remove(id: string): Promise<void> {
    const sb = sandboxes.get(id);
    if (sb) {
      await stop(id, 0);
      await sb.exited;
      sandboxes.delete(id);
      sb.logs.close();
    }
    await rm(path.join(o.dataDir, "sandboxes", id), { recursive: true, force: true }).catch((e) =>
      o.log.warn({ err: e, id }, "could not remove sandbox files"),
    );
    await durable.remove(id);
  }

  function runner(): RunnerInfo {
    const live = [...sandboxes.values()].filter((s) => !ended(s));
    const maxCpu = os.cpus().length * 1000;
    const maxMem = os.totalmem();
    return {
      ...o.runner,
      architectures: [arch],
      healthy: true,
      connectedAtMs,
      maxCpuMillicores: maxCpu,
      maxMemoryBytes: maxMem,
      availableCpuMillicores: Math.max(0, maxCpu - live.reduce((a, s) => a + s.cpuMillicores, 0)),
      availableMemoryBytes: Math.max(0, Math.min(os.freemem(), maxMem - live.reduce((a, s) => a + s.memoryBytes, 0))),
      runningSandboxes: live.length,
      runtimeClasses: [], // one launcher (bubblewrap): nothing to choose
      ...(gpuPool ? { gpus: gpuPool.runnerGpus() } : {}),
    };
  }

  async function close(): Promise<void> {
    await Promise.all([...sandboxes.keys()].map((id) => stop(id, 0)));
    await Promise.all([...sandboxes.values()].map((s) => s.exited));
    await durable.idle(); // the ends just reported are on disk before Hangar exits
  }

  const layersApi = layers && {
    ensure: async (key: string, archive: ArchiveSource) => (await layers).ensure(key, archive),
    drop: async (key: string) => (await layers).drop(key),
  };
  return {
    name: "local",
    records: durable.records,
    templates: createFileTemplateStore(o.dataDir),
    volumes: createDirVolumeRegistry(o.volumes ?? []),
    ...(layersApi ? { layers: layersApi } : {}),
    runners: () => [runner()],
    start,
    subscribe,
    stop,
    exec,
    logs,
    logSession: (id) => sandboxes.get(id)?.logs.session,
    remove,
    close,
  };
}

function readInfo(main: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = "";
    const fd3 = main.stdio[3] as NodeJS.ReadableStream | null;
    if (!fd3) return reject(errors.internal("bubblewrap info pipe missing"));
    fd3.on("data", (b: Buffer) => {
      text += b.toString();
      const m = /"child-pid":\s*(\d+)/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    fd3.on("error", () => undefined);
  });
}

function tail(logs: LogStore): string {
  const last = logs.lastLine();
  return last ? `last output: ${last}` : "no output";
}

/** The main process exited or was killed (a killed process has a signal and no exit code). */
const ended = (sb: LocalSandbox) => sb.main.exitCode !== null || sb.main.signalCode !== null;

const isUnder = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
