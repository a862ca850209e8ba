/** The real grpc-js server on 127.0.0.1:0 over an in-memory runtime: health, reflection, errors, exec stream. */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOADER_OPTIONS, loadApi, PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { createController } from "../../controller/controller.js";
import { fakeRuntime } from "./fake-runtime.js";
import { startTestServer, TEST_KEY } from "./test-server.js";

const KEY = TEST_KEY;
let port = 0;
let api: ReturnType<typeof createGrpcServer>;
let controller: ReturnType<typeof createController>;
const rt = fakeRuntime();
const md = () => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${KEY}`);
  return m;
};

beforeAll(async () => {
  ({ controller, api, port } = await startTestServer(rt));
});
afterAll(async () => {
  await api.shutdown(1000);
  await controller.close();
});

const client = () => {
  const { v1 } = loadApi(PROTO_DIR);
  return new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
};

describe("grpc server", () => {
  it("answers the gRPC health service", async () => {
    const def = protoLoader.loadSync("health.proto", {
      ...LOADER_OPTIONS,
      includeDirs: ["node_modules/grpc-health-check/proto/health/v1"],
    });
    const Health = (grpc.loadPackageDefinition(def) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } })
      .grpc.health.v1.Health;
    const h = new Health(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as {
      Check(r: object, cb: (e: Error | null, res: { status: string }) => void): void;
      close(): void;
    };
    const res = await new Promise<{ status: string }>((resolve, reject) =>
      h.Check({ service: "" }, (e, r) => (e ? reject(e) : resolve(r))),
    );
    expect(res.status).toBe("SERVING");
    h.close();
  });

  it("serves reflection listing the sandbox services", async () => {
    const def = protoLoader.loadSync("grpc/reflection/v1alpha/reflection.proto", {
      ...LOADER_OPTIONS,
      includeDirs: ["node_modules/@grpc/reflection/build/proto"],
    });
    const R = (
      grpc.loadPackageDefinition(def) as unknown as {
        grpc: { reflection: { v1alpha: { ServerReflection: grpc.ServiceClientConstructor } } };
      }
    ).grpc.reflection.v1alpha.ServerReflection;
    const r = new R(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as {
      ServerReflectionInfo(): grpc.ClientDuplexStream<object, { list_services_response?: { service: { name: string }[] } }>;
      close(): void;
    };
    const call = r.ServerReflectionInfo();
    const got = new Promise<string[]>((resolve) =>
      call.on("data", (m) => resolve(m.list_services_response?.service.map((s: { name: string }) => s.name) ?? [])),
    );
    call.write({ list_services: "" });
    const names = await got;
    call.end();
    expect(names).toEqual(expect.arrayContaining(["coreweave.sandbox.v1.SandboxService", "coreweave.sandbox.v1.DiscoveryService"]));
    r.close();
  });

  it("creates, gets, and runs a StreamExec with ready -> output -> exit", async () => {
    const c = client() as unknown as {
      CreateSandbox(
        r: object,
        m: grpc.Metadata,
        cb: (e: grpc.ServiceError | null, s: { sandbox_id: string; status: { state: string } }) => void,
      ): void;
      StreamExec(m: grpc.Metadata): grpc.ClientDuplexStream<object, Record<string, unknown>>;
      close(): void;
    };
    const sb = await new Promise<{ sandbox_id: string }>((resolve, reject) =>
      c.CreateSandbox({ sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } }, request_id: "r1" }, md(), (e, s) =>
        e ? reject(e) : resolve(s),
      ),
    );
    await new Promise((r) => setTimeout(r, 10));
    const call = c.StreamExec(md());
    const frames: string[] = [];
    const done = new Promise<void>((resolve) => call.on("end", () => resolve()));
    call.on("data", (m) => frames.push(Object.keys(m).find((k) => m[k] !== undefined && k !== "message") ?? "?"));
    call.write({ init: { sandbox_id: sb.sandbox_id, command: ["cat"] } });
    call.write({ stdin: Buffer.from("abc") });
    call.end();
    await done;
    expect(frames).toEqual(["ready", "output", "exit"]);
    // Input was still queued when the command started: it gets a stdin pipe.
    expect(rt.execs.at(-1)).toMatchObject({ argv: ["cat"], noInput: false });

    // init and an immediate half-close (the SDK's exec without stdin): no stdin stream at all.
    const bare = c.StreamExec(md());
    const ended = new Promise<void>((resolve) => bare.on("end", () => resolve()));
    bare.on("data", () => undefined);
    bare.write({ init: { sandbox_id: sb.sandbox_id, command: ["cat"] } });
    bare.end();
    await ended;
    expect(rt.execs.at(-1)).toMatchObject({ argv: ["cat"], noInput: true });

    // Output that comes after the client's input ended still arrives, with the exit and the status
    // (reading the client's messages to their end must not end or tear down the call).
    const late = c.StreamExec(md());
    const got: Record<string, unknown>[] = [];
    late.on("data", (m) => got.push(m));
    const status = new Promise<number>((resolve) => late.on("status", (st: grpc.StatusObject) => resolve(st.code)));
    late.write({ init: { sandbox_id: sb.sandbox_id, command: ["late", "100", "after", "eof"] } });
    late.end();
    const code = await Promise.race([status, new Promise((r) => setTimeout(() => r("no status after 3 s"), 3000))]);
    expect(code).toBe(grpc.status.OK);
    expect(got.map((m) => m.message)).toEqual(["ready", "output", "exit"]);
    expect(Buffer.from((got[1]?.output as { data: Buffer }).data).toString()).toBe("after eof\n");

    // stdin to a process that closed it (the write fails, EPIPE) is discarded; the output, the exit
    // and the status still arrive. Before, the failed write ended the read loop by a throw, which
    // destroyed the call: the client waited for its deadline (the SDK suite's stdin test, ~4% of runs).
    const deaf = c.StreamExec(md());
    const heard: Record<string, unknown>[] = [];
    deaf.on("data", (m) => heard.push(m));
    const deafStatus = new Promise<number>((resolve) => deaf.on("status", (st: grpc.StatusObject) => resolve(st.code)));
    deaf.write({ init: { sandbox_id: sb.sandbox_id, command: ["deaf", "100", "still", "here"] } });
    deaf.write({ stdin: Buffer.from("to nobody\n") });
    deaf.write({ stdin: Buffer.from("again\n") });
    deaf.write({ close: {} });
    deaf.end();
    const deafCode = await Promise.race([deafStatus, new Promise((r) => setTimeout(() => r("no status after 3 s"), 3000))]);
    expect(deafCode).toBe(grpc.status.OK);
    expect(heard.map((m) => m.message)).toEqual(["ready", "output", "exit"]);
    expect(Buffer.from((heard[1]?.output as { data: Buffer }).data).toString()).toBe("still here\n");
    c.close();
  });

  it("refuses calls without a key", async () => {
    const c = client() as unknown as { ListSandboxes(r: object, cb: (e: grpc.ServiceError | null) => void): void; close(): void };
    const err = await new Promise<grpc.ServiceError | null>((resolve) => c.ListSandboxes({}, (e) => resolve(e)));
    expect(err?.code).toBe(grpc.status.UNAUTHENTICATED);
    c.close();
  });
});
