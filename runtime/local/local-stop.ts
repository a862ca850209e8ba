/**
 * How local sandboxes end: stop (SIGTERM, then a hard kill after the grace), teardown (kill
 * everything, free the cgroup, GPUs, layers, slot uid and disk), remove and close.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { killFailures } from "../../core/kill.js";
import type { LocalRecords } from "./record-file.js";
import { ended, type LocalSandbox, type LocalState } from "./local-sandboxes.js";
import { descendants, killTree } from "./proc-tree.js";

/** Kills every process of the sandbox (its cgroup); one that stays after the retries is logged and counted, never dropped quietly (ADR 0032). */
export async function killAll(sb: LocalSandbox, reason: string): Promise<void> {
  await sb.cgroups.kill().catch((e: unknown) => killFailures.report("local", sb.id, e, `the sandbox's processes (${reason})`));
}

export async function teardown(s: LocalState, sb: LocalSandbox): Promise<void> {
  await killAll(sb, "teardown");
  if (sb.initPid) await killTree(sb.initPid).catch(() => undefined);
  if (sb.pasta?.pid) await killTree(sb.pasta.pid).catch(() => undefined);
  await sb.cgroups.remove();
  s.gpuPool?.release(sb.id);
  await (await s.layers?.catch(() => undefined))?.release(sb.id);
  if (sb.slot !== undefined) s.o.users?.slots.release(sb.slot);
  sb.slot = undefined;
  // Nothing can run in the sandbox any more: free its disk now; the logs stay until remove().
  await rm(sb.dir, { recursive: true, force: true }).catch((e) => s.o.log.warn({ err: e, id: sb.id }, "could not remove sandbox files"));
}

export async function stop(s: LocalState, id: string, graceMs: number): Promise<void> {
  const sb = s.sandboxes.get(id);
  if (!sb || ended(sb)) return;
  const targets =
    s.o.isolation === "bubblewrap" && sb.initPid ? await descendants(sb.initPid).then((d) => d.slice(0, 1)) : [sb.main.pid ?? 0];
  const hardKill = () => {
    sb.killedBySignal ??= 9;
    void killAll(sb, "stop");
    if (sb.initPid) void killTree(sb.initPid);
    if (sb.main.pid) void killTree(sb.main.pid);
  };
  if (graceMs <= 0 || targets.length === 0) return hardKill();
  for (const p of targets) {
    try {
      process.kill(s.o.isolation === "none" ? -p : p, "SIGTERM");
    } catch {
      // gone already
    }
  }
  const timer = setTimeout(hardKill, graceMs);
  void sb.exited.then(() => clearTimeout(timer));
}

export async function remove(s: LocalState, durable: Pick<LocalRecords, "remove">, id: string): Promise<void> {
  const sb = s.sandboxes.get(id);
  if (sb) {
    await stop(s, id, 0);
    await sb.exited;
    s.sandboxes.delete(id);
    sb.logs.close();
  }
  await rm(path.join(s.o.dataDir, "sandboxes", id), { recursive: true, force: true }).catch((e) =>
    s.o.log.warn({ err: e, id }, "could not remove sandbox files"),
  );
  await durable.remove(id);
}

export async function close(s: LocalState, durable: Pick<LocalRecords, "idle">): Promise<void> {
  await Promise.all([...s.sandboxes.keys()].map((id) => stop(s, id, 0)));
  await Promise.all([...s.sandboxes.values()].map((sb) => sb.exited));
  await durable.idle(); // the ends just reported are on disk before Hangar exits
}
