/**
 * The launcher seam (ADR 0010): what starts a local sandbox's process tree and joins it later.
 * The runtime prepares everything around it (image, overlay, user namespace, cgroups, network,
 * seccomp program) and asks the launcher for two command lines. Bubblewrap is the launcher
 * today; an OCI engine (runc, or gVisor's runsc for a VM-grade boundary) can implement the same
 * interface from the same inputs: a bundle whose config.json carries these namespaces, mounts,
 * ids and filter.
 */
import { asSlot, bwrapArgs, nsenterArgv, type BwrapInputs } from "./bwrap-args.js";

/** Fds the runtime passes to the main command line. */
export const LAUNCH_FDS = { info: 3, userns: 4, seccomp: 5, args: 6 } as const;

export interface LaunchInputs extends Omit<BwrapInputs, "usernsFd" | "seccompFd"> {
  /** Hangar is root: the slot uid that owns the user namespace open at LAUNCH_FDS.userns. */
  slot?: number;
}

export interface Launcher {
  readonly name: string;
  /** The path of the executable that sets the sandbox up (its init is that executable until the command runs). */
  readonly exe: string;
  /** Starts the sandbox (run as root inside its cgroups and mount namespace); writes {"child-pid": N} (its init) to fd LAUNCH_FDS.info. */
  mainArgv(i: LaunchInputs): string[];
  /** Runs argv inside the sandbox whose init has host pid initPid, as uid, confined as the main process is. */
  joinArgv(initPid: number, uid: number, argv: string[]): string[];
}

/** privileged: Hangar is root and maps the sandbox's ids itself (LaunchInputs.slot). */
export function bubblewrapLauncher(tools: { bwrap: string; setpriv: string; nsenter: string }, exe: string, privileged = true): Launcher {
  return {
    name: "bubblewrap",
    exe,
    mainArgv(i) {
      const argv = [
        tools.bwrap,
        ...bwrapArgs({ ...i, usernsFd: i.slot === undefined ? undefined : LAUNCH_FDS.userns, seccompFd: LAUNCH_FDS.seccomp }),
      ];
      return i.slot === undefined ? argv : asSlot(tools.setpriv, i.slot, argv);
    },
    joinArgv: (initPid, uid, argv) => nsenterArgv(tools, initPid, privileged ? uid : "own", argv),
  };
}
