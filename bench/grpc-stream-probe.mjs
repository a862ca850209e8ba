// A bare grpc-js StreamExec (Hangar's proto, no runtime, no Kubernetes): the server writes 1 MiB of
// output in CH-byte messages (32 KiB, the agent's read size), 100 times; prints wall time and the CPU
// of each side per MiB (ADR 0020). PROF="<node flags>" starts the server with them (e.g.
// "--trace-gc"); SETFLAG=1 makes the server set Hangar's V8 flags at start, as cmd/v8-flags.ts does.
import * as grpc from "@grpc/grpc-js";
import { loadApi, PROTO_DIR } from "../dist/api/proto.js";
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
const CH = Number(process.env.CH ?? 32768),
  SIZE = 1 << 20,
  N = 100;
if (process.argv[2] === "server") {
  if (process.env.SETFLAG) await import("../dist/cmd/v8-flags.js");
  const { v1 } = loadApi(PROTO_DIR);
  const s = new grpc.Server();
  const payload = Buffer.alloc(CH);
  s.addService(v1.SandboxService.service, {
    StreamExec: async (call) => {
      call.once("data", async () => {
        call.write({ ready: {} });
        for (let off = 0; off < SIZE; off += CH) {
          if (!call.write({ output: { stream: "STREAM_STDOUT", data: Buffer.from(payload) } }))
            await new Promise((r) => call.once("drain", r));
        }
        call.write({ exit: { exit_code: 0 } });
        call.end();
      });
    },
  });
  s.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, port) => {
    process.send({ port });
  });
  process.on("SIGINT", () => process.exit(0));
  process.on("message", (m) => {
    if (m === "cpu") {
      const u = process.cpuUsage();
      process.send({ cpu: (u.user + u.system) / 1000 });
    }
  });
} else {
  const srv = fork(fileURLToPath(import.meta.url), ["server"], { execArgv: process.env.PROF ? process.env.PROF.split(" ") : [] });
  const { port } = await new Promise((r) => srv.once("message", r));
  const { v1 } = loadApi(PROTO_DIR);
  const c = new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const one = () =>
    new Promise((res, rej) => {
      let n = 0;
      const call = c.StreamExec();
      call.on("data", (m) => {
        if (m.output) n += m.output.data.length;
        if (m.exit) res(n);
      });
      call.on("error", rej);
      call.write({ init: { sandbox_id: "x", command: ["a"] } });
      call.end();
    });
  for (let i = 0; i < 10; i++) await one();
  const cpu = () =>
    new Promise((r) => {
      srv.once("message", (m) => r(m.cpu));
      srv.send("cpu");
    });
  const c0 = await cpu();
  const t0 = performance.now();
  const u0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await one();
  const ms = (performance.now() - t0) / N;
  const c1 = await cpu();
  const u = process.cpuUsage(u0);
  console.log({
    chunk: CH,
    wall_ms_per_mib: ms.toFixed(2),
    server_cpu_ms_per_mib: ((c1 - c0) / N).toFixed(2),
    client_cpu_ms_per_mib: ((u.user + u.system) / 1000 / N).toFixed(2),
  });
  srv.kill("SIGINT");
  await new Promise((r) => srv.once("exit", r));
  process.exit(0);
}
