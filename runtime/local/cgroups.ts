/**
 * Resource caps for local sandboxes with cgroup v1 (memory, pids, cpu) or v2. Where the
 * hierarchy is not writable at all (Hangar is not root) the sandbox runs uncapped and the
 * runtime says so in the sandbox's image note; once it is writable, a cap that cannot be
 * applied fails the start: one odd value never silently drops the others.
 */
import { existsSync } from "node:fs";
import { mkdir, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";

export interface Caps {
  memoryBytes?: number;
  cpuMillicores?: number;
  pidsMax: number;
}

const quota = (millicores: number) => Math.max(MIN_CFS_QUOTA_US, millicores * 100);

export interface CgroupSet {
  procsFiles: string[];
  note: string;
  remove(): Promise<void>;
}

/** The kernel refuses a CFS quota under 1 ms per period: like the kubelet, a smaller CPU limit gets that minimum (10m). */
export const MIN_CFS_QUOTA_US = 1000;

export async function createCgroups(root: string, name: string, caps: Caps): Promise<CgroupSet> {
  const dirs: string[] = [];
  const v2 = existsSync(path.join(root, "cgroup.controllers"));
  const applied: string[] = [];
  const setup = async (dir: string, files: [string, string][]) => {
    await mkdir(dir, { recursive: true });
    dirs.push(dir);
    for (const [f, v] of files) {
      await writeFile(path.join(dir, f), v);
      applied.push(`${f}=${v}`);
    }
  };
  try {
    if (v2) {
      const files: [string, string][] = [["pids.max", String(caps.pidsMax)]];
      if (caps.memoryBytes) files.push(["memory.max", String(caps.memoryBytes)]);
      if (caps.cpuMillicores) files.push(["cpu.max", `${quota(caps.cpuMillicores)} 100000`]);
      await setup(path.join(root, "hangar", name), files);
    } else {
      await setup(path.join(root, "pids", "hangar", name), [["pids.max", String(caps.pidsMax)]]);
      if (caps.memoryBytes) await setup(path.join(root, "memory", "hangar", name), [["memory.limit_in_bytes", String(caps.memoryBytes)]]);
      if (caps.cpuMillicores) await setup(path.join(root, "cpu", "hangar", name), [["cpu.cfs_period_us", "100000"], ["cpu.cfs_quota_us", String(quota(caps.cpuMillicores))]]);
    }
  } catch (e) {
    for (const d of dirs.reverse()) await rmdir(d).catch(() => undefined);
    const code = (e as NodeJS.ErrnoException).code;
    if (dirs.length === 0 && (code === "EACCES" || code === "EROFS" || code === "EPERM")) {
      return { procsFiles: [], note: `no resource caps (cgroups not writable: ${(e as Error).message})`, remove: async () => undefined };
    }
    throw new Error(`could not apply the sandbox's resource caps (${applied.join(", ") || "none applied"} before the failure): ${(e as Error).message}`, { cause: e });
  }
  return {
    procsFiles: dirs.map((d) => path.join(d, "cgroup.procs")),
    note: `cgroup caps ${applied.join(", ")}`,
    remove: async () => {
      for (const d of dirs.reverse()) {
        for (let i = 0; i < 20; i++) {
          try {
            await rmdir(d);
            break;
          } catch {
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      }
    },
  };
}
