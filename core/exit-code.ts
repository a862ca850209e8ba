/**
 * How Hangar reads an exit code, in one place. A process killed by signal N ends with 128 + N, as a
 * shell reports it (SIGKILL: 137); a code of 128 or more therefore says "ended by a signal", which is
 * how a command cut short by its sandbox's stop is told from one that failed on its own.
 */

/** The exit code Hangar gives a sandbox or command it killed, or lost before it could report one (SIGKILL). */
export const KILLED_EXIT_CODE = 137;

const SIGNALS: Partial<Record<NodeJS.Signals, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGABRT: 6,
  SIGKILL: 9,
  SIGSEGV: 11,
  SIGPIPE: 13,
  SIGALRM: 14,
  SIGTERM: 15,
};

/** The number of a signal Node names (1 for one it does not know, 0 for none). */
export const signalNumber = (s: NodeJS.Signals | null): number => (s ? (SIGNALS[s] ?? 1) : 0);

/** The exit code of a process ended by signal number `signal`. */
export const exitCodeOfSignal = (signal: number): number => 128 + signal;

/** A Node child's exit: its code, or 128 + the signal that ended it. */
export const exitCodeOf = (code: number | null, signal: NodeJS.Signals | null): number => code ?? exitCodeOfSignal(signalNumber(signal));

/** Whether an exit code says the process was ended by a signal (128 or more). */
export const endedBySignal = (exitCode: number): boolean => exitCode >= 128;
