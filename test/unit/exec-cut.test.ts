/**
 * A client whose exec stream is cut does not leave its command running (issue 38): a real local
 * sandbox (bubblewrap, cgroups; as root, as make test runs) behind the real gRPC server; the
 * client starts a long command that also leaves a daemon (setsid), reads its first output, then
 * destroys its stream; the command, the daemon and the exec's cgroup are gone. Polled, not slept.
 */
import * as grpc from "@grpc/grpc-js";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createLocalRuntime } from "../../runtime/local/local-runtime.js";
import { slotPool } from "../../runtime/local/userns.js";
import { startTestServer, TEST_KEY } from "./test-server.js";

const silent = { info() {}, warn() {} };
const MARK = `hangar-cut-${process.pid}`;
/** Live (not zombie) processes whose command line holds `text`. */
const live = (text: string) =>
  readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => {
      try {
        return (
          readFileSync(`/proc/${p}/cmdline`, "latin1").includes(text) && !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${p}/stat`, "latin1"))
        );
      } catch {
        return false;
      }
    });
const until = async (what: () => boolean, ms: number) => {
  for (const t0 = Date.now(); !what() && Date.now() - t0 < ms;) await new Promise((r) => setTimeout(r, 20));
  return what();
};

describe("a cut exec stream", () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  let rt: ReturnType<typeof createLocalRuntime>;
  type Client = {
    CreateSandbox(r: object, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, s: { sandbox_id: string }) => void): void;
    GetSandbox(r: object, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, s: { sandbox_status: string }) => void): void;
    StreamExec(m: grpc.Metadata): grpc.ClientDuplexStream<object, Record<string, unknown>>;
    close(): void;
  };
  let c: Client;
  const md = () => {
    const m = new grpc.Metadata();
    m.set("authorization", `Bearer ${TEST_KEY}`);
    return m;
  };
  beforeAll(async () => {
    rt = createLocalRuntime({
      dataDir: mkdtempSync(path.join(os.tmpdir(), "hangar-cut-")),
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
      users: { range: { start: 200_000, size: 65_536 }, slots: slotPool(300_000 + (process.pid % 1000) * 64 + 32, 16) },
      maskPaths: [],
      sandboxUid: 1000,
      pidsMax: 256,
      defaultMemoryBytes: 256 * 1024 * 1024,
      defaultCpuMillicores: 1000,
      cgroupRoot: "/sys/fs/cgroup",
      runner: { runnerId: "t", runnerGroupId: "t", organizationId: "t" },
      log: silent,
    });
    s = await startTestServer(rt);
    const { v1 } = loadApi(PROTO_DIR);
    c = new v1.SandboxService(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure()) as unknown as Client;
  });
  afterAll(async () => {
    c?.close();
    await s?.api.shutdown(1000);
    await s?.controller.close();
  });

  it("kills the command, its daemon and the exec's cgroup once the client destroyed its stream", async () => {
    expect(process.getuid?.(), "this test drives a real bubblewrap sandbox as root").toBe(0);
    const id = (
      await new Promise<{ sandbox_id: string }>((res, rej) =>
        c.CreateSandbox({ sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } }, md(), (e, r) =>
          e ? rej(e) : res(r),
        ),
      )
    ).sandbox_id;
    const call = c.StreamExec(md());
    call.on("error", () => undefined);
    const up = new Promise<void>((resolve) =>
      call.on("data", (m: { output?: { data: Buffer } }) => {
        if (m.output && String(m.output.data).includes("up")) resolve();
      }),
    );
    // The command, and a daemon that left its process tree: both must die with the stream.
    call.write({
      init: {
        sandbox_id: id,
        command: ["/bin/sh", "-c", `setsid sh -c 'sleep 301; true' ${MARK}-daemon & echo up; sleep 302; true`, `${MARK}-main`],
      },
    });
    await up;
    expect(
      await until(() => live(`${MARK}-daemon`).length >= 1 && live(`${MARK}-main`).length >= 1, 10_000),
      `daemon ${live(`${MARK}-daemon`).join(" ")} main ${live(`${MARK}-main`).join(" ")}`,
    ).toBe(true);
    const leaves = () =>
      readdirSync(`/sys/fs/cgroup/${existsSync("/sys/fs/cgroup/cgroup.controllers") ? "" : "unified/"}hangar`, { recursive: true })
        .map(String)
        .filter((d) => d.includes(id) && /exec-\d+$/.test(d));
    expect(leaves().length).toBe(1);
    call.cancel(); // the client's stream is destroyed: RST_STREAM, no half-close, no further message
    expect(await until(() => live(MARK).length === 0, 15_000), `still running: ${live(MARK).join(" ")}`).toBe(true);
    expect(await until(() => leaves().length === 0, 15_000), `exec cgroup left: ${leaves().join(" ")}`).toBe(true);
  });
});
