/**
 * The local runtime's start resolves (the sandbox becomes RUNNING) only once the sandbox can take
 * a command and its main process runs: before, an exec at once failed with "nsenter: setgid
 * failed" (the user namespace's maps were not written yet) and a stop at once could reach the
 * command before it had set its signal handlers (bubblewrap had not even exec'd it). Real bubblewrap; needs root, as `make test` has.
 */
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { randomUUID } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createLocalRuntime } from "../../runtime/local/local-runtime.js";
import { slotPool } from "../../runtime/local/userns.js";
import { record, spec } from "./fixtures.js";

const silent = { info() {}, warn() {} };
const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
const pidsWhoseCmdlineHas = (text: string) =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, "latin1").includes(text);
      } catch {
        return false;
      }
    });

describe("local runtime start", () => {
  it("an exec right after start works, and the main process already runs", async () => {
    expect(process.getuid?.(), "this test drives real bubblewrap sandboxes as root").toBe(0);
    const rt = createLocalRuntime({
      dataDir: mkdtempSync(path.join(os.tmpdir(), "hangar-start-")),
      isolation: "bubblewrap",
      tools: {
        bwrap: "/usr/bin/bwrap",
        nsenter: "/usr/bin/nsenter",
        setpriv: "/usr/bin/setpriv",
        unshare: "/usr/bin/unshare",
        sleep: "/usr/bin/sleep",
        ptyHelper: path.resolve(".build/hangar-pty"),
        guard: path.resolve(".build/hangar-guard"),
      },
      images: { "*": "/" },
      imageStore: { resolve: () => Promise.reject(new Error("no images")) },
      seccompBpf: path.resolve(".build/seccomp.bpf"),
      users: { range: { start: 200_000, size: 65_536 }, slots: slotPool(300_000 + (process.pid % 1000) * 64, 64) },
      maskPaths: [],
      sandboxUid: 1000,
      pidsMax: 256,
      defaultMemoryBytes: 256 * 1024 * 1024,
      defaultCpuMillicores: 1000,
      cgroupRoot: "/sys/fs/cgroup",
      runner: { runnerId: "t", runnerGroupId: "t", organizationId: "t" },
      log: silent,
    });
    const failures: string[] = [];
    try {
      await Promise.all(
        Array.from({ length: 24 }, async () => {
          const id = randomUUID(); // a sandbox id, as records are kept by id
          await rt.start(record({ id, spec: spec({ argv: ["/bin/sh", "-c", "sleep 300"] }), runnerId: "t", state: "CREATING" }));
          const p = await rt.exec(id, { argv: ["/bin/sh", "-c", "id -u"] });
          p.closeStdin();
          let out = "";
          for await (const c of p.output()) out += c.data.toString();
          const { exitCode } = await p.exited;
          if (exitCode !== 0 || out.trim() !== "1000") failures.push(`${id}: exit ${exitCode}: ${out.trim()}`);
        }),
      );
      // Right after start the main process runs: bubblewrap's init has a child that is no longer bubblewrap.
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          const id = randomUUID();
          await rt.start(record({ id, spec: spec({ argv: ["/bin/sh", "-c", "sleep 300"] }), runnerId: "t", state: "CREATING" }));
          const outer = pidsWhoseCmdlineHas(`/sandboxes/${id}/`).find(
            (p) => readlinkSync(`/proc/${p}/exe`) === realpathSync("/usr/bin/bwrap"),
          );
          const init = outer ? childrenOf(outer)[0] : undefined;
          const mains = init ? childrenOf(init).map((c) => readlinkSync(`/proc/${c}/exe`)) : [];
          if (!mains.length || mains.includes(realpathSync("/usr/bin/bwrap")))
            failures.push(`${id}: main process not started yet when start resolved (${mains.join(", ") || "none"})`);
        }),
      );
      // A killed sandbox is no longer counted as running (its main process has a signal, no exit code).
      const killed = randomUUID();
      let exited!: () => void;
      const gone = new Promise<void>((r) => (exited = r));
      rt.subscribe((e) => {
        if (e.t === "exit" && e.id === killed) exited();
      });
      await rt.start(record({ id: killed, spec: spec({ argv: ["/bin/sh", "-c", "sleep 300"] }), runnerId: "t", state: "CREATING" }));
      const before = rt.runners()[0]?.runningSandboxes ?? 0;
      await rt.stop(killed, 0);
      await gone;
      if (rt.runners()[0]?.runningSandboxes !== before - 1)
        failures.push(`a killed sandbox still counts as running (${rt.runners()[0]?.runningSandboxes} of ${before})`);
    } finally {
      await rt.close();
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
