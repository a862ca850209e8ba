/**
 * What the local runtime does once, before its first sandbox: sweep what a killed predecessor
 * left, start the watchdog that kills this instance's sandboxes if Hangar dies, copy the helpers
 * that are mounted into sandboxes where slot uids can reach them, and set up egress (or record
 * why it cannot be offered).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, rename } from "node:fs/promises";
import path from "node:path";
import { errors } from "../../core/errors.js";
import { PROC_MASKED_DIRS, PROC_MASKED_FILES } from "./bwrap-args.js";
import { checkDataDir } from "./data-dir-reach.js";
import { installEgressFirewall } from "./egress.js";
import type { LocalRuntimeOptions } from "./options.js";
import { instanceCgroupDirs, startWatchdog, sweepLeftovers } from "./sweep.js";

export interface Prepared {
  ptyHelper: string;
  guard: string;
  procMasks: { files: string[]; dirs: string[] };
  /** The 0666 tun node pasta opens, or why egress cannot be offered. */
  egress: { tun: string } | Error;
}

/** Helpers are copied into the data dir: slot uids must reach every path bubblewrap mounts. */
export async function prepareLocalRuntime(o: LocalRuntimeOptions, instance: string): Promise<Prepared> {
  const swept = await sweepLeftovers({ dataDir: o.dataDir, cgroupRoot: o.cgroupRoot, instance });
  if (o.isolation === "bubblewrap")
    startWatchdog(
      o.tools.setpriv,
      instanceCgroupDirs(o.cgroupRoot, instance)
        .filter((d) => d.kill)
        .map((d) => d.dir),
    );
  if (swept) o.log.warn({ sandboxes: swept }, "removed what sandboxes of an earlier run of Hangar left behind (processes, cgroups, files)");
  const bin = path.join(o.dataDir, "bin");
  await mkdir(path.join(o.dataDir, "sandboxes"), { recursive: true });
  await mkdir(bin, { recursive: true });
  const copy = async (from: string, name: string) => {
    const to = path.join(bin, name);
    const tmp = `${to}.${process.pid}`;
    await copyFile(from, tmp);
    await chmod(tmp, 0o755);
    await rename(tmp, to);
    return to;
  };
  if (o.users) {
    await chmod(o.dataDir, 0o711);
    await chmod(bin, 0o755);
    await chmod(path.join(o.dataDir, "sandboxes"), 0o711);
    const unreachable = checkDataDir(o.dataDir); // cmd/main.ts refuses to start on this; checked again here
    if (unreachable) throw errors.internal(unreachable);
  }
  // Egress is set up once; if it cannot be, sandboxes that ask for egress are refused with the reason.
  const egress = await (async () => {
    if (!o.users || !o.egress)
      return new Error(
        o.users
          ? "egress is not configured"
          : "egress from local sandboxes needs Hangar to run as root (a host firewall rule confines the sandbox's relay)",
      );
    const tun = path.join(o.dataDir, "net-tun");
    if (!existsSync(tun))
      await new Promise<void>((resolve, reject) =>
        spawn("mknod", ["-m", "666", tun, "c", "10", "200"], { stdio: "ignore" })
          .once("close", (c) => (c === 0 ? resolve() : reject(new Error(`mknod ${tun} failed`))))
          .once("error", reject),
      );
    await installEgressFirewall(o.egress.tools, o.users.slots.base, o.users.slots.size, o.egress.deniedCidrs);
    return { tun };
  })().catch((e: Error) => {
    o.log.warn({ err: e }, "egress from local sandboxes is unavailable; sandboxes that ask for it are refused");
    return e;
  });
  return {
    egress,
    ptyHelper: o.isolation === "bubblewrap" ? await copy(o.tools.ptyHelper, "hangar-pty") : o.tools.ptyHelper,
    guard: o.isolation === "bubblewrap" ? await copy(o.tools.guard, "hangar-guard") : o.tools.guard,
    procMasks: { files: PROC_MASKED_FILES.filter((f) => existsSync(f)), dirs: PROC_MASKED_DIRS.filter((d) => existsSync(d)) },
  };
}
