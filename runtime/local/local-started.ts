/**
 * A launched local sandbox until it counts as started: bubblewrap names its init and the command
 * runs (or the spawn fails, or the sandbox exits while starting); then its egress relay (pasta).
 */
import type { ChildProcess } from "node:child_process";
import { errors } from "../../core/errors.js";
import { commandStarted } from "./command-started.js";
import { startPasta } from "./egress.js";
import type { LocalSandbox } from "./local-sandboxes.js";
import type { LogStore } from "./log-store.js";
import type { LocalRuntimeOptions } from "./options.js";
import type { Prepared } from "./prepare.js";
import { startTime, writeState } from "./sweep.js";

/** The sandbox's init pid once its command runs (isolated), or the main process's once spawned. */
export async function waitStarted(
  isolated: boolean,
  launcherExe: string,
  main: ChildProcess,
  logs: LogStore,
  mainClosed: Promise<void>,
): Promise<number | undefined> {
  const spawnError = new Promise<never>((_, reject) =>
    main.once("error", (e) => reject(errors.internal(`could not start sandbox: ${e.message}`, e))),
  );
  if (isolated) {
    const info = readInfo(main);
    const exitedEarly = mainClosed.then(() => {
      throw errors.invalidField("spec.command", `the sandbox exited while starting: ${tail(logs)}`);
    });
    exitedEarly.catch(() => undefined);
    spawnError.catch(() => undefined);
    const pid = await Promise.race([info, spawnError, exitedEarly]);
    // Once bwrap names its init, it has yet to write the user namespace's maps and to exec the
    // command: RUNNING before that let a prompt exec fail (nsenter: setgid) and a prompt stop
    // reach the command before it could set its signal handlers. A command that already ended
    // has started too.
    await Promise.race([commandStarted(pid, launcherExe), mainClosed]);
    return pid;
  }
  spawnError.catch(() => undefined);
  await Promise.race([new Promise((r) => main.once("spawn", r)), spawnError]);
  return main.pid;
}

/** pasta relays the sandbox's traffic (its pid recorded for the sweep after a crash); a failure is the start's. */
export async function startEgress(o: Pick<LocalRuntimeOptions, "egress">, helpers: Prepared, sb: LocalSandbox): Promise<void> {
  if (!sb.initPid || sb.slot === undefined || !o.egress || helpers.egress instanceof Error) return;
  try {
    sb.pasta = await startPasta(o.egress.tools, helpers.egress.tun, sb.slot, sb.initPid, sb.cgroups.procsFiles);
    const pid = sb.pasta.pid as number;
    await writeState(sb.dir, { pasta: { pid, start: (await startTime(pid)) ?? "" } });
  } catch (e) {
    throw errors.internal(`could not give the sandbox egress: ${(e as Error).message}`, e);
  }
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
