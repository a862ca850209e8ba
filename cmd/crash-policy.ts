/**
 * What Hangar does with an error nothing handled (an unhandled promise rejection, an uncaught
 * exception): it logs it, fatal, and exits with EXIT_UNHANDLED, for its orchestrator (the Deployment,
 * systemd, tini in the image) to start it again. Going on would serve from a state nobody reasoned
 * about; records are durable on both runtimes, so a restart loses no acknowledged sandbox. The exit
 * waits for the log line to be written (pino writes asynchronously) at most `flushMs`.
 */
export const EXIT_UNHANDLED = 70; // EX_SOFTWARE

export interface CrashLog {
  fatal(obj: object, msg: string): void;
  flush?(cb?: (err?: Error) => void): void;
}

export function crashHandler(log: CrashLog, exit: (code: number) => void, flushMs = 500): (err: unknown, kind: string) => void {
  let exiting = false;
  return (err, kind) => {
    if (exiting) return;
    exiting = true;
    const e = err instanceof Error ? err : new Error(String(err));
    try {
      log.fatal({ err: { message: e.message, stack: e.stack }, kind }, `${kind}: exiting for a restart`);
    } catch {
      process.stderr.write(`hangar: ${kind}: ${e.stack ?? e.message}\n`);
    }
    const done = () => exit(EXIT_UNHANDLED);
    if (!log.flush) return done();
    const timer = setTimeout(done, flushMs); // referenced: the process must not end with code 0 first
    log.flush(() => {
      clearTimeout(timer);
      done();
    });
  };
}

/** Installs the policy on this process (cmd/main.ts, first thing after the logger exists). */
export function installCrashPolicy(log: CrashLog, exit: (code: number) => void = (c) => process.exit(c)): void {
  const handle = crashHandler(log, exit);
  process.on("unhandledRejection", (reason) => handle(reason, "unhandledRejection"));
  process.on("uncaughtException", (err) => handle(err, "uncaughtException"));
}
