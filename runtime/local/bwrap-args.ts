/** Pure builders for the command lines the local runtime runs (table-tested). */
import type { SandboxSpec } from "../../core/types.js";

export interface SandboxPaths {
  /** The sandbox's root: an overlay of the image rootfs (root) or the rootfs itself, read-only. */
  root: string;
  rootWritable: boolean;
  tmp: string;
  home: string;
  /** An empty read-only file, mounted over masked /proc entries and (maskSecrets) host secrets such as /etc/shadow. */
  empty: string;
  /** The root is a directory of the host's: /etc/shadow and /etc/gshadow read as empty. */
  maskSecrets?: boolean;
  /** host file -> path in the sandbox, mounted read-only (Container.files). */
  files: { host: string; path: string }[];
  /** host dir -> path in the sandbox (scratch volumes). */
  volumes: { host: string; path: string; readOnly?: boolean }[];
  /** Device nodes bound at their own paths in the sandbox's /dev (its GPUs and the driver's shared nodes: runtime/local/gpus.ts). */
  devices?: string[];
  /** The driver's /proc directory (/proc/driver/nvidia) shown read-only inside the masked /proc/driver (GPU sandboxes). */
  procDriver?: string;
}

export interface BwrapInputs {
  paths: SandboxPaths;
  spec: SandboxSpec;
  hostname: string;
  uid: number;
  maskPaths: string[];
  env: Record<string, string>;
  /** The static pty helper, mounted at PTY_HELPER_PATH so TTY sessions start inside the sandbox. */
  ptyHelper?: string;
  /** The static guard (drops capabilities, applies seccomp) mounted at GUARD_PATH for commands that join the sandbox. */
  guard?: string;
  /** An fd on a user namespace made for the sandbox (Hangar is root): joined instead of making one. */
  usernsFd?: number;
  /** Entries of /proc hidden (those that exist on this kernel; see PROC_MASKED_*). */
  procMasks?: { files: string[]; dirs: string[] };
  /** An fd on the seccomp BPF program for the main process. */
  seccompFd?: number;
  /** An fd bubblewrap reads more arguments from (--args): the secrets' --setenv pairs, kept off every command line the host can read. */
  argsFd?: number;
}

export const SANDBOX_HOME = "/root";

/** What --args reads: NUL-separated arguments (here --setenv pairs for secret values). */
export const setenvArgs = (env: Record<string, string>): Buffer =>
  Buffer.from(
    Object.entries(env)
      .map(([k, v]) => `--setenv\0${k}\0${v}\0`)
      .join(""),
  );
export const PTY_HELPER_PATH = "/dev/.hangar-pty";
export const GUARD_PATH = "/dev/.hangar-guard";
/** Kernel interfaces hidden inside every sandbox (as the OCI default spec's maskedPaths). */
export const PROC_MASKED_FILES = [
  "/proc/kcore",
  "/proc/keys",
  "/proc/timer_list",
  "/proc/sysrq-trigger",
  "/proc/sched_debug",
  "/proc/latency_stats",
  "/proc/key-users",
];
export const PROC_MASKED_DIRS = ["/proc/acpi", "/proc/scsi", "/proc/asound", "/proc/driver"];

export function bwrapArgs(i: BwrapInputs): string[] {
  const a: string[] = [];
  a.push(i.paths.rootWritable ? "--bind" : "--ro-bind", i.paths.root, "/");
  a.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run");
  for (const d of i.paths.devices ?? []) a.push("--dev-bind", d, d);
  a.push("--ro-bind", "/proc/sys", "/proc/sys");
  for (const f of i.procMasks?.files ?? []) a.push("--ro-bind", i.paths.empty, f);
  for (const d of i.procMasks?.dirs ?? []) {
    const shown = i.paths.procDriver && i.paths.procDriver.startsWith(`${d}/`) ? ["--ro-bind", i.paths.procDriver, i.paths.procDriver] : [];
    a.push("--tmpfs", d, ...shown, "--remount-ro", d);
  }
  a.push("--bind", i.paths.tmp, "/tmp", "--bind", i.paths.home, SANDBOX_HOME);
  for (const m of i.maskPaths) a.push("--tmpfs", m);
  if (i.paths.maskSecrets) a.push("--ro-bind-try", i.paths.empty, "/etc/shadow", "--ro-bind-try", i.paths.empty, "/etc/gshadow");
  for (const v of i.paths.volumes) a.push(v.readOnly ? "--ro-bind" : "--bind", v.host, v.path);
  for (const f of i.paths.files) a.push("--ro-bind", f.host, f.path);
  if (i.ptyHelper) a.push("--ro-bind", i.ptyHelper, PTY_HELPER_PATH);
  if (i.guard) a.push("--ro-bind", i.guard, GUARD_PATH);
  if (i.usernsFd !== undefined) a.push("--userns", String(i.usernsFd));
  // Nested user namespaces are refused by the seccomp filter (--disable-userns would nest one more namespace, which nsenter as an ordinary user then cannot join past).
  else a.push("--unshare-user");
  a.push("--uid", String(i.uid), "--gid", String(i.uid));
  if (i.seccompFd !== undefined) a.push("--seccomp", String(i.seccompFd));
  a.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  a.push("--unshare-net");
  a.push("--hostname", i.hostname, "--die-with-parent", "--new-session", "--cap-drop", "ALL");
  a.push("--chdir", i.spec.workingDir || SANDBOX_HOME, "--clearenv");
  for (const [k, v] of Object.entries(i.env)) a.push("--setenv", k, v);
  if (i.argsFd !== undefined) a.push("--args", String(i.argsFd));
  a.push("--info-fd", "3", "--");
  a.push(...i.spec.argv);
  return a;
}

/**
 * argv that runs `argv` inside the namespaces of the sandbox whose init has host pid `initPid`,
 * as `uid` of the sandbox ("own": Hangar is an ordinary user, whose uid is mapped to the sandbox
 * uid), through the guard (no capabilities, the sandbox's seccomp filter).
 */
export function nsenterArgv(tools: { setpriv: string; nsenter: string }, initPid: number, uid: number | "own", argv: string[]): string[] {
  // An ordinary user may not call setgroups in the sandbox's namespace (bubblewrap denied it);
  // its own uid is the sandbox uid there already.
  const ids = uid === "own" ? ["--preserve-credentials"] : ["-S", String(uid), "-G", String(uid)];
  return [
    tools.setpriv,
    "--no-new-privs",
    "--",
    tools.nsenter,
    "-t",
    String(initPid),
    "-U",
    "-m",
    "-p",
    "-i",
    "-u",
    "-n",
    "-r",
    "-w",
    ...ids,
    "--",
    GUARD_PATH,
    ...argv,
  ];
}

/** argv that runs `argv` as `slotUid` (the owner of the sandbox's user namespace), with no supplementary groups. */
export const asSlot = (setpriv: string, slotUid: number, argv: string[]): string[] => [
  setpriv,
  "--reuid",
  String(slotUid),
  "--regid",
  String(slotUid),
  "--clear-groups",
  "--",
  ...argv,
];

export interface OverlayLayers {
  lower: string;
  upper: string;
  work: string;
  target: string;
}

/** One step of what is mounted for a sandbox before bubblewrap starts (in order). */
export type MountStep =
  | ({ t: "overlay" } & OverlayLayers)
  /** A file system image of the volume's size, mounted (nosuid, nodev) on target; its lost+found removed. */
  | { t: "ext4"; image: string; target: string; keepLostFound?: boolean }
  /** A directory made on a mounted file system, with its owner and mode. */
  | { t: "dir"; path: string; uid: number; gid: number; mode: number };

const MOUNT_SCRIPT = `while [ $# -gt 0 ]; do case $1 in
overlay) mount -t overlay overlay -o "$2" "$3" || exit 125; shift 3;;
ext4) mount -t ext4 -o loop,nosuid,nodev,noinit_itable "$2" "$3" || exit 125; shift 3;;
ext4-volume) mount -t ext4 -o loop,nosuid,nodev,noinit_itable "$2" "$3" && rmdir "$3/lost+found" || exit 125; shift 3;;
dir) mkdir -p "$2" && chown "$3" "$2" && chmod "$4" "$2" || exit 125; shift 4;;
--) shift; exec "$@";;
*) exit 125;;
esac; done; exit 125`;

/**
 * Runs argv in a mount namespace of its own after mounting what the sandbox needs there (its root
 * overlay; each sized scratch volume's file system; each volume restored copy-on-write from a
 * snapshot layer): the mounts live exactly as long as the sandbox (no umount, none left behind by a
 * crash; a loop device goes with its mount), and Hangar starts one process per sandbox instead of two.
 */
export function withMounts(unshare: string, steps: MountStep[], argv: string[]): string[] {
  const args = steps.flatMap((m) => {
    if (m.t === "overlay") return ["overlay", `lowerdir=${m.lower},upperdir=${m.upper},workdir=${m.work}`, m.target];
    // A volume's root is the sandbox's to see: its lost+found goes; a disk's root is not mounted into the sandbox.
    if (m.t === "ext4") return [m.keepLostFound ? "ext4" : "ext4-volume", m.image, m.target];
    return ["dir", m.path, `${m.uid}:${m.gid}`, (m.mode & 0o7777).toString(8)];
  });
  return [unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c", MOUNT_SCRIPT, "hangar-mounts", ...args, "--", ...argv];
}

/** Runs argv after moving itself into the given cgroup.procs files (so children start capped). */
export function inCgroups(procsFiles: string[], argv: string[]): string[] {
  if (procsFiles.length === 0) return argv;
  return [
    "/bin/sh",
    "-c",
    'for f in $1; do echo $$ > "$f" || exit 125; done; shift; exec "$@"',
    "hangar-cgroup",
    procsFiles.join(" "),
    ...argv,
  ];
}

export const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** The main process's environment: defaults, then the image's (PATH, LANG, …), then the request's. */
export function sandboxEnv(spec: SandboxSpec, hostname: string, imageEnv: Record<string, string> = {}): Record<string, string> {
  return { PATH: DEFAULT_PATH, LANG: "C.UTF-8", ...imageEnv, HOME: SANDBOX_HOME, HOSTNAME: hostname, ...spec.env };
}
