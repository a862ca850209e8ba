/**
 * A local sandbox's start as a pure plan: from its record (spec, tenant, the egress the controller
 * decided), the runtime's options and what preparation found (helpers, the image's rootfs, the
 * GPUs it holds, snapshot layers), what to make, mount, spawn and cap. Carried out by
 * runtime/local/local-launch.ts; table-tested in test/unit/local-plan.test.ts.
 */
import path from "node:path";
import { errors } from "../../core/errors.js";
import { cpuMillicores, parseQuantity } from "../../core/quantity.js";
import type { StartSecrets } from "../../core/secrets.js";
import type { SandboxRecord } from "../../core/types.js";
import { sandboxEnv, type OverlayLayers, type SandboxPaths } from "./bwrap-args.js";
import type { Caps } from "./cgroups.js";
import { SANDBOX_DNS } from "./egress.js";
import { LAUNCH_FDS, type LaunchInputs } from "./launcher.js";
import { planVolumes, type VolumeAction } from "./local-plan-volumes.js";
import type { LocalRuntimeOptions } from "./options.js";
import type { Prepared } from "./prepare.js";

/** The image's root file system; mapped: a directory the operator named (maybe the host's own): host paths are masked in it. */
export interface Rootfs {
  dir: string;
  env: Record<string, string>;
  note: string;
  mapped: boolean;
}

export type PlanOptions = Pick<
  LocalRuntimeOptions,
  | "dataDir"
  | "isolation"
  | "users"
  | "egress"
  | "maskPaths"
  | "sandboxUid"
  | "pidsMax"
  | "logBytes"
  | "logBytesPerSecond"
  | "defaultMemoryBytes"
  | "defaultCpuMillicores"
  | "diskBytes"
  | "gpus"
> & { tools: Pick<LocalRuntimeOptions["tools"], "mkfsExt4"> };

export interface PlanInputs {
  record: SandboxRecord;
  secrets?: StartSecrets;
  o: PlanOptions;
  /** This Hangar's name for its cgroups (hangar/<instance>/<id>). */
  instance: string;
  isRoot: boolean;
  /** Spare sandbox disks are made (Hangar root, HANGAR_LOCAL_DISK_BYTES): the sandbox gets its own. */
  ownDisk: boolean;
  helpers: Prepared;
  rootfs: Rootfs;
  /** The GPU devices the sandbox holds. */
  gpuDevices: string[];
  procDriver?: string;
  /** Volume name -> the snapshot layer's tree it is restored from, copy-on-write. */
  restored: Map<string, string>;
  /** Hangar's own environment (an unisolated sandbox inherits it; PATH for bubblewrap). */
  hostEnv: NodeJS.ProcessEnv;
}

export interface StartPlan {
  id: string;
  dir: string;
  isolated: boolean;
  /** Egress allowed: a resolv.conf and, once the init runs, pasta. */
  network: boolean;
  pasta: boolean;
  /** Host directories made first, in order. */
  dirs: string[];
  /** The sandbox's own disk: a spare image renamed to `image`, mounted on `dir` first in its mount namespace. */
  disk?: { dir: string; image: string };
  writes: { path: string; content: string | Buffer; mode: number }[];
  volumes: VolumeAction[];
  /** Volumes restored copy-on-write from a snapshot layer. */
  copyOnWrite: string[];
  overlay?: OverlayLayers;
  /** Hangar root: what the sandbox's mapped ids must own, set once its user namespace is made. */
  owners: { path: string; uid: number; gid: number; mode?: number }[];
  cgroup: { name: string; caps: Caps };
  /** What the sandbox takes from the machine (runners()). */
  cpuMillicores: number;
  memoryBytes: number;
  /** The sandbox's env (secret values included: they live only in this process's memory); each exec starts from it. */
  env: Record<string, string>;
  /** Secret values, written to bubblewrap's --args pipe (isolated) and never on a command line. */
  secrets?: Record<string, string>;
  /** What bubblewrap is started with (isolated); the slot is added when taken. */
  launch?: Omit<LaunchInputs, "slot">;
  spawn: { argv: string[]; cwd: string; env: NodeJS.ProcessEnv };
  log: { bytes?: number; bytesPerSecond: number; tenant: string };
  /** Notes for the image note: head before the cgroup's note, tail after the user namespace's. */
  notes: { head: string[]; tail: string[] };
}

export function planStart(i: PlanInputs): StartPlan {
  const { record, o, rootfs } = i;
  const { id, spec } = record;
  const isolated = o.isolation === "bubblewrap";
  const secrets = i.secrets?.env && Object.keys(i.secrets.env).length ? i.secrets.env : undefined;
  const dir = path.join(o.dataDir, "sandboxes", id);
  // The sandbox's own disk (Hangar root, ADR 0027): its root's upper dir, /tmp, home and unsized
  // scratch volumes live on a file system of HANGAR_LOCAL_DISK_BYTES, mounted first in its mount namespace.
  const disk = i.ownDisk ? path.join(dir, "disk") : undefined;
  const sandboxUser = (o.users?.range.start ?? 0) + o.sandboxUid;
  const paths = basePaths(i, dir, disk);
  const head = [rootfs.note, ...(i.gpuDevices.length ? [`GPUs: ${i.gpuDevices.join(", ")}`] : [])];
  const overlay = isolated && i.isRoot ? overlayOf(rootfs.dir, dir, disk) : undefined;
  if (overlay) {
    paths.root = overlay.target;
    paths.rootWritable = true;
    head.push("private writable overlay");
  } else if (isolated) head.push("read-only root (Hangar is not root: no overlay); writable /tmp and home");
  const writes: StartPlan["writes"] = [{ path: paths.empty, content: "", mode: 0o444 }];
  for (const [n, f] of spec.files.entries()) {
    const host = path.join(dir, "files", String(n));
    writes.push({ path: host, content: f.content, mode: 0o444 });
    paths.files.push({ host, path: f.path });
  }
  const vols = planVolumes({
    spec,
    dir,
    disk,
    sizedFs: Boolean(overlay && o.users),
    restored: overlay ? i.restored : new Map(),
    sandboxUser,
    mkfs: o.tools.mkfsExt4 ?? "/usr/sbin/mkfs.ext4",
  });
  paths.volumes.push(...vols.mounts);
  if (vols.sized.length) head.push(`volumes of their own size: ${vols.sized.join(", ")}`);
  const network = egressAllowed(record, isolated, i.helpers);
  if (network && isolated) {
    writes.push({ path: path.join(dir, "resolv.conf"), content: `nameserver ${SANDBOX_DNS}\n`, mode: 0o444 });
    paths.files.push({ host: path.join(dir, "resolv.conf"), path: "/etc/resolv.conf" });
  }
  const hostname = `sandbox-${id.slice(0, 8)}`;
  const env = { ...sandboxEnv(spec, hostname, rootfs.env), ...secrets };
  const limits = limitsOf(record, o);
  return {
    id,
    dir,
    isolated,
    network,
    pasta: network && isolated && o.users !== undefined && o.egress !== undefined && !(i.helpers.egress instanceof Error),
    dirs: [dir, ...["upper", "work", "root", "tmp", "home", "files", "volumes"].map((d) => path.join(dir, d))],
    ...(disk ? { disk: { dir: disk, image: path.join(dir, "disk.img") } } : {}),
    writes,
    volumes: vols.actions,
    copyOnWrite: vols.copyOnWrite,
    ...(overlay ? { overlay } : {}),
    owners: isolated && o.users ? ownersOf(o.users.range.start, sandboxUser, paths, overlay, disk, vols.scratch) : [],
    cgroup: { name: `${i.instance}/${id}`, caps: limits.caps },
    cpuMillicores: limits.cpu,
    memoryBytes: limits.memoryBytes,
    env,
    ...(secrets ? { secrets } : {}),
    ...(isolated ? { launch: launchOf(i, paths, hostname, env, secrets) } : {}),
    spawn: isolated
      ? { argv: [], cwd: "/", env: { PATH: i.hostEnv.PATH ?? "" } }
      : { argv: spec.argv, cwd: paths.home, env: { ...i.hostEnv, ...env, HOME: paths.home } },
    log: { bytes: o.logBytes, bytesPerSecond: o.logBytesPerSecond ?? 0, tenant: record.tenant },
    notes: { head, tail: tailNotes(o, isolated, network, disk, vols.copyOnWrite) },
  };
}

/**
 * Egress as the controller decided it (record.effectiveEgress non-empty); refused when this Hangar
 * cannot give an isolated sandbox egress.
 */
export function egressAllowed(record: SandboxRecord, isolated: boolean, helpers: Pick<Prepared, "egress">): boolean {
  const network = (record.effectiveEgress?.length ?? 0) > 0;
  if (network && isolated && helpers.egress instanceof Error)
    throw errors.invalidField(
      "spec.denyEgress",
      `this Hangar cannot give local sandboxes egress: ${helpers.egress.message}; ask for deny_egress=true`,
    );
  return network;
}

/** The cgroup's caps (a sandbox that asks for none gets the defaults) and what runners() counts it for. */
export function limitsOf(record: SandboxRecord, o: Pick<PlanOptions, "defaultMemoryBytes" | "defaultCpuMillicores" | "pidsMax">) {
  const { limits } = record.spec;
  const memoryBytes = parseQuantity(limits.memory ?? "") || o.defaultMemoryBytes;
  const cpu = cpuMillicores(limits.cpu ?? "") ?? 0;
  const caps: Caps = { memoryBytes: memoryBytes || undefined, cpuMillicores: cpu || o.defaultCpuMillicores, pidsMax: o.pidsMax };
  return { memoryBytes, cpu, caps };
}

/** The image's root read-only, /tmp and home on the sandbox's disk (or in its dir), its GPUs' device nodes. */
function basePaths(i: PlanInputs, dir: string, disk: string | undefined): SandboxPaths {
  const paths: SandboxPaths = {
    root: i.rootfs.dir,
    rootWritable: false,
    tmp: path.join(disk ?? dir, "tmp"),
    home: path.join(disk ?? dir, "home"),
    empty: path.join(dir, "empty"),
    files: [],
    volumes: [],
  };
  if (i.gpuDevices.length) {
    paths.devices = [...i.gpuDevices, ...(i.o.gpus?.shared ?? [])];
    if (i.procDriver) paths.procDriver = i.procDriver;
  }
  return paths;
}

const overlayOf = (lower: string, dir: string, disk: string | undefined): OverlayLayers => ({
  lower,
  upper: path.join(disk ?? dir, "upper"),
  work: path.join(disk ?? dir, "work"),
  target: path.join(dir, "root"),
});

/** Without its own disk (made with its layout), the sandbox's dirs get their owners once its ids are mapped. */
function ownersOf(
  root: number,
  user: number,
  paths: SandboxPaths,
  overlay: OverlayLayers | undefined,
  disk: string | undefined,
  scratch: string[],
) {
  const own: StartPlan["owners"] = [];
  if (!disk) {
    if (overlay) own.push({ path: overlay.upper, uid: root, gid: root });
    own.push({ path: paths.tmp, uid: root, gid: root, mode: 0o1777 }, { path: paths.home, uid: user, gid: user });
  }
  for (const h of scratch) own.push({ path: h, uid: user, gid: user });
  return own;
}

function launchOf(i: PlanInputs, paths: SandboxPaths, hostname: string, env: Record<string, string>, secrets?: Record<string, string>) {
  const { o, rootfs } = i;
  // An image holds nothing of the host's; a mapped directory (the host's root, say) gets its secrets masked.
  const mask = rootfs.mapped ? [...o.maskPaths, o.dataDir].filter((p) => p !== "/" && !isUnder(paths.tmp, p)) : [];
  paths.maskSecrets = rootfs.mapped;
  // Secret values go to bubblewrap through a pipe (--args), never on a command line (ps shows those to every host user).
  const plainEnv = Object.fromEntries(Object.entries(env).filter(([k]) => !secrets || !(k in secrets)));
  return {
    paths,
    spec: i.record.spec,
    hostname,
    uid: o.sandboxUid,
    maskPaths: mask,
    env: plainEnv,
    argsFd: secrets ? LAUNCH_FDS.args : undefined,
    ptyHelper: i.helpers.ptyHelper,
    guard: i.helpers.guard,
    procMasks: i.helpers.procMasks,
  };
}

function tailNotes(o: PlanOptions, isolated: boolean, network: boolean, disk: string | undefined, copyOnWrite: string[]): string[] {
  if (!isolated) return ["UNSAFE: no isolation (HANGAR_LOCAL_UNSAFE_NO_ISOLATION)"];
  return [
    ...(disk ? [`own disk of ${o.diskBytes} bytes (root's writes, /tmp, home, unsized volumes)`] : []),
    ...(copyOnWrite.length ? [`copy-on-write restore of ${copyOnWrite.join(", ")}`] : []),
    network
      ? "network: own namespace, egress through pasta (no host address, private or link-local range)"
      : "network: own namespace, loopback only (egress denied)",
  ];
}

const isUnder = (p: string, dir: string) => p === dir || p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
