/** An in-memory Runtime for unit tests of the layers above it. */
import { KillFailed } from "../../core/kill.js";
import type { RunnerInfo, SandboxSpec } from "../../core/types.js";
import type { ExecOptions, ExecProcess, Runtime, RuntimeEvent } from "../../runtime/types.js";

export function fakeRuntime() {
  const live = new Map<string, { spec: SandboxSpec }>();
  let emitTo: (e: RuntimeEvent) => void = () => undefined;
  const calls: string[] = [];
  const execs: ExecOptions[] = [];
  const rt: Runtime & { exit(id: string, code: number): void; emit(e: RuntimeEvent): void; calls: string[]; execs: ExecOptions[] } = {
    name: "fake",
    calls,
    execs,
    runners: (): RunnerInfo[] => [
      {
        runnerId: "fake-1",
        runnerGroupId: "fake",
        organizationId: "org",
        architectures: ["amd64"],
        healthy: true,
        connectedAtMs: 0,
        maxCpuMillicores: 2000,
        maxMemoryBytes: 2 ** 30,
        availableCpuMillicores: 2000,
        availableMemoryBytes: 2 ** 30,
        runningSandboxes: live.size,
        runtimeClasses: [],
      },
    ],
    subscribe(to) {
      emitTo = to;
      return () => (emitTo = () => undefined);
    },
    emit: (e) => emitTo(e),
    async start({ id, spec }) {
      calls.push(`start ${id}`);
      live.set(id, { spec });
      return { imageNote: "fake", startedAtMs: 5 };
    },
    async stop(id, graceMs) {
      calls.push(`stop ${id} ${graceMs}`);
      const s = live.get(id);
      if (s) setImmediate(() => rt.exit(id, graceMs === 0 ? 137 : 0));
    },
    exit(id, code) {
      const s = live.get(id);
      if (!s) return;
      live.delete(id);
      emitTo({ t: "exit", id, exit: { exitCode: code, reason: "fake exit", endedAtMs: 10 } });
    },
    async exec(id, opts: ExecOptions): Promise<ExecProcess> {
      calls.push(`exec ${id} ${opts.argv.join(" ")}`);
      execs.push(opts);
      let resolveExit: (v: { exitCode: number }) => void = () => undefined;
      const exited = new Promise<{ exitCode: number }>((r) => (resolveExit = r));
      let stdin = Buffer.alloc(0);
      let closed = false;
      const wake: (() => void)[] = [];
      let killedNow: () => void = () => undefined;
      const killed = new Promise<void>((r) => (killedNow = r));
      return {
        async write(d) {
          // deaf MS TEXT: as late, but its stdin is closed (a write fails as a pipe's would: EPIPE).
          if (opts.argv[0] === "deaf") throw Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
          stdin = Buffer.concat([stdin, d]);
        },
        closeStdin() {
          closed = true;
          wake.splice(0).forEach((w) => w());
        },
        resize() {},
        async *output() {
          if (opts.argv[0] === "echo") yield { stream: "stdout" as const, data: Buffer.from(`${opts.argv.slice(1).join(" ")}\n`) };
          if (opts.argv[0] === "cat") {
            while (!closed) await new Promise<void>((r) => wake.push(r));
            yield { stream: "stdout" as const, data: stdin };
          }
          if (opts.argv[0] === "sleep") await new Promise<void>((r) => wake.push(r));
          if (opts.argv[0] === "stubborn" || opts.argv[0] === "sticky") await new Promise<void>(() => undefined); // runs on: its kill fails
          if (opts.argv[0] === "slowkill" || opts.argv[0] === "slowfail") await killed; // runs until its kill lands
          // late MS TEXT: prints TEXT after MS milliseconds (output that comes after the client's input ended).
          if (opts.argv[0] === "late" || opts.argv[0] === "deaf") {
            await new Promise((r) => setTimeout(r, Number(opts.argv[1])));
            yield { stream: "stdout" as const, data: Buffer.from(`${opts.argv.slice(2).join(" ")}\n`) };
          }
          resolveExit({ exitCode: 0 });
        },
        exited,
        async kill() {
          calls.push(`kill ${id}`);
          // stubborn: a command whose kill fails (its processes stay); sticky: one whose kill never answers.
          if (opts.argv[0] === "stubborn") throw new KillFailed("pids 4242 still there after SIGKILL", "still_running");
          if (opts.argv[0] === "sticky") return new Promise<void>(() => undefined);
          // slowkill MS: its kill confirms only after MS; slowfail MS: its kill fails after MS.
          if (opts.argv[0] === "slowkill" || opts.argv[0] === "slowfail") await new Promise((r) => setTimeout(r, Number(opts.argv[1])));
          if (opts.argv[0] === "slowfail") throw new KillFailed("pids 4343 still there after the retries", "still_running");
          killedNow();
          closed = true;
          wake.splice(0).forEach((w) => w());
          resolveExit({ exitCode: 137 });
        },
      };
    },
    async *logs() {
      yield { data: Buffer.from("log line\n"), end: 9 };
    },
    async remove(id) {
      calls.push(`remove ${id}`);
    },
    async close() {},
  };
  return rt;
}
