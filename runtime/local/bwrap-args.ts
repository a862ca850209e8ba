/** Pure builders for the command lines the local runtime runs (table-tested). */
import type { SandboxSpec } from "../../core/types.js";

export interface SandboxPaths {
  /** The sandbox's root: an overlay of the image rootfs (root) or the rootfs itself, read-only. */
  root: string;
  rootWritable: boolean;
  tmp: string;
  home: string;
  /** An empty read-only file, mounted over host secrets such as /etc/shadow. */
  empty: string;
  /** host file -> path in the sandbox, mounted read-only (Container.files). */
  files: { host: string; path: string }[];
  /** host dir -> path in the sandbox (scratch volumes). */
  volumes: { host: string; path: string }[];
}

export interface BwrapInputs {
  paths: SandboxPaths;
  spec: SandboxSpec;
  hostname: string;
  uid: number;
  network: boolean;
  maskPaths: string[];
  env: Record<string, string>;
  /** The static pty helper, mounted at PTY_HELPER_PATH so TTY sessions start inside the sandbox. */
  ptyHelper?: string;
}

export const SANDBOX_HOME = "/root";
export const PTY_HELPER_PATH = "/dev/.hangar-pty";

export function bwrapArgs(i: BwrapInputs): string[] {
  const a: string[] = [];
  a.push(i.paths.rootWritable ? "--bind" : "--ro-bind", i.paths.root, "/");
  a.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/run");
  a.push("--bind", i.paths.tmp, "/tmp", "--bind", i.paths.home, SANDBOX_HOME);
  for (const m of i.maskPaths) a.push("--tmpfs", m);
  a.push("--ro-bind-try", i.paths.empty, "/etc/shadow", "--ro-bind-try", i.paths.empty, "/etc/gshadow");
  for (const v of i.paths.volumes) a.push("--bind", v.host, v.path);
  for (const f of i.paths.files) a.push("--ro-bind", f.host, f.path);
  if (i.ptyHelper) a.push("--ro-bind", i.ptyHelper, PTY_HELPER_PATH);
  a.push("--unshare-user", "--uid", String(i.uid), "--gid", String(i.uid));
  a.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
  if (!i.network) a.push("--unshare-net");
  a.push("--hostname", i.hostname, "--die-with-parent", "--new-session", "--cap-drop", "ALL");
  a.push("--chdir", i.spec.workingDir || SANDBOX_HOME, "--clearenv");
  for (const [k, v] of Object.entries(i.env)) a.push("--setenv", k, v);
  a.push("--info-fd", "3", "--");
  a.push(...i.spec.argv);
  return a;
}

/** argv that runs `argv` inside the namespaces of the sandbox whose init has host pid `initPid`. */
export function nsenterArgv(tools: { setpriv: string; nsenter: string }, initPid: number, uid: number, argv: string[]): string[] {
  return [
    tools.setpriv, "--no-new-privs", "--",
    tools.nsenter, "-t", String(initPid), "-U", "-m", "-p", "-i", "-u", "-n", "-r", "-w",
    "-S", String(uid), "-G", String(uid), "--", ...argv,
  ];
}

/**
 * Runs argv in a mount namespace of its own after mounting the sandbox's overlay root there: the
 * mount lives exactly as long as the sandbox (no umount, none left behind by a crash), and Hangar
 * starts one process per sandbox instead of two.
 */
export function withOverlay(unshare: string, layers: { lower: string; upper: string; work: string; target: string }, argv: string[]): string[] {
  const opts = `lowerdir=${layers.lower},upperdir=${layers.upper},workdir=${layers.work}`;
  return [unshare, "--mount", "--propagation", "private", "--", "/bin/sh", "-c", 'mount -t overlay overlay -o "$1" "$2" || exit 125; shift 2; exec "$@"', "hangar-overlay", opts, layers.target, ...argv];
}

/** Runs argv after moving itself into the given cgroup.procs files (so children start capped). */
export function inCgroups(procsFiles: string[], argv: string[]): string[] {
  if (procsFiles.length === 0) return argv;
  return ["/bin/sh", "-c", 'for f in $1; do echo $$ > "$f" || exit 125; done; shift; exec "$@"', "hangar-cgroup", procsFiles.join(" "), ...argv];
}

export const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

export function sandboxEnv(spec: SandboxSpec, hostname: string): Record<string, string> {
  return { PATH: DEFAULT_PATH, HOME: SANDBOX_HOME, HOSTNAME: hostname, LANG: "C.UTF-8", ...spec.env };
}
