// An error nothing handled: logged fatal, then the process exits (70) for its orchestrator to restart it.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { crashHandler, EXIT_UNHANDLED } from "../../cmd/crash-policy.js";

const policy = path.resolve(import.meta.dirname, "../../cmd/crash-policy.ts");

function run(body: string) {
  const script = `const { installCrashPolicy } = await import(${JSON.stringify(policy)});
installCrashPolicy({ fatal: (o, m) => process.stdout.write(JSON.stringify({ ...o, msg: m }) + "\\n") });
setTimeout(() => { process.stdout.write("still serving\\n"); }, 300);
${body}`;
  return spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
}

describe("the crash policy", () => {
  it("an unhandled rejection is logged, then the process exits 70", () => {
    const r = run(`Promise.reject(new Error("lost promise"));`);
    expect(r.status).toBe(EXIT_UNHANDLED);
    const line = JSON.parse(r.stdout.trim().split("\n")[0] ?? "{}");
    expect(line).toMatchObject({ kind: "unhandledRejection", err: { message: "lost promise" } });
    expect(r.stdout).not.toContain("still serving");
  });

  it("an uncaught exception too", () => {
    const r = run(`setTimeout(() => { throw new Error("thrown in a timer"); }, 10);`);
    expect(r.status).toBe(EXIT_UNHANDLED);
    expect(r.stdout).toContain('"kind":"uncaughtException"');
    expect(r.stdout).toContain("thrown in a timer");
  });

  it("exits once, after the log is flushed", () => {
    const exits: number[] = [];
    const logged: string[] = [];
    let flush: (() => void) | undefined;
    const h = crashHandler(
      {
        fatal: (_o, m) => logged.push(m),
        flush: (cb) => {
          flush = () => cb?.();
        },
      },
      (c) => exits.push(c),
      60_000,
    );
    h(new Error("a"), "unhandledRejection");
    h(new Error("b"), "uncaughtException");
    expect(logged).toEqual(["unhandledRejection: exiting for a restart"]);
    expect(exits).toEqual([]);
    flush?.();
    expect(exits).toEqual([EXIT_UNHANDLED]);
  });
});
