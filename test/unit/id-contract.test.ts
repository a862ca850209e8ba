/**
 * The id contract (docs/errors.md): every RPC that takes a sandbox id, against sandboxes in every
 * condition a caller can meet, through the real grpc-js server on 127.0.0.1:0 (in-memory runtime
 * below). An id that names no sandbox of the caller is NOT_FOUND, whatever its shape and whoever
 * owns it, so ids cannot be probed; a deleted sandbox is gone for every call but Get (and List),
 * which keep its terminal record because the SDK's stop() polls Get after the delete.
 */
import * as grpc from "@grpc/grpc-js";
import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAuthenticator } from "../../api/auth.js";
import { createMetrics } from "../../api/metrics.js";
import { loadApi, PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { createController } from "../../controller/controller.js";
import { fakeRuntime } from "./fake-runtime.js";

const KEYS = { alpha: "alpha-0123456789abcdef", beta: "beta-0123456789abcdef0" };
type Tenant = keyof typeof KEYS;
type Client = Record<string, (...a: unknown[]) => unknown> & { close(): void };
let api: ReturnType<typeof createGrpcServer>;
let controller: ReturnType<typeof createController>;
let rt: ReturnType<typeof fakeRuntime>;
let client: Client;

const md = (t: Tenant) => {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${KEYS[t]}`);
  return m;
};
const code = (e: grpc.ServiceError | null | undefined) => (e ? grpc.status[e.code] : "OK");

function unary(method: string, req: object, t: Tenant = "alpha"): Promise<{ code: string; res?: Record<string, unknown> }> {
  return new Promise((resolve) =>
    client[method]?.(req, md(t), (e: grpc.ServiceError | null, res: Record<string, unknown>) => resolve({ code: code(e), res })),
  );
}

/** A server stream or bidi call: its final status. */
function streamStatus(call: grpc.ClientReadableStream<unknown>): Promise<string> {
  return new Promise((resolve) => {
    call.on("data", () => undefined);
    call.on("error", (e: grpc.ServiceError) => resolve(code(e)));
    call.on("end", () => resolve("OK"));
  });
}

const RPCS: Record<string, (id: string) => Promise<string>> = {
  GetSandbox: async (id) => (await unary("GetSandbox", { sandbox_id: id })).code,
  DeleteSandbox: async (id) => (await unary("DeleteSandbox", { sandbox_id: id })).code,
  "DeleteSandbox allow_missing": async (id) => {
    const r = await unary("DeleteSandbox", { sandbox_id: id, allow_missing: true });
    return r.code === "OK" && !r.res?.sandbox ? "OK empty" : r.code;
  },
  Exec: async (id) => (await unary("Exec", { sandbox_id: id, command: ["echo", "hi"] })).code,
  StreamExec: (id) => {
    const call = client.StreamExec?.(md("alpha")) as grpc.ClientDuplexStream<object, unknown>;
    call.write({ init: { sandbox_id: id, command: ["cat"] } });
    call.write({ stdin: Buffer.from("hi") });
    call.end();
    return streamStatus(call);
  },
  StreamLogs: (id) => streamStatus(client.StreamLogs?.({ sandbox_id: id }, md("alpha")) as grpc.ClientReadableStream<unknown>),
  ReadFile: async (id) => (await unary("ReadFile", { sandbox_id: id, path: "/etc/hostname" })).code,
  WriteFile: async (id) => (await unary("WriteFile", { sandbox_id: id, path: "/tmp/x", content: Buffer.from("x") })).code,
  CreateFileSystemSnapshot: async (id) => (await unary("CreateFileSystemSnapshot", { sandbox_id: id })).code,
};

// live, stopped (ended on its own), deleted, never existed, malformed, another tenant's live sandbox.
const NF = "NOT_FOUND";
const WANT: Record<string, [string, string, string, string, string, string]> = {
  GetSandbox: ["OK", "OK", "OK", NF, NF, NF],
  DeleteSandbox: ["OK", "OK", NF, NF, NF, NF],
  "DeleteSandbox allow_missing": ["OK", "OK empty", "OK empty", "OK empty", "OK empty", "OK empty"],
  Exec: ["OK", "FAILED_PRECONDITION", NF, NF, NF, NF],
  StreamExec: ["OK", "FAILED_PRECONDITION", NF, NF, NF, NF],
  StreamLogs: ["OK", "OK", NF, NF, NF, NF],
  ReadFile: ["OK", "FAILED_PRECONDITION", NF, NF, NF, NF],
  WriteFile: ["OK", "FAILED_PRECONDITION", NF, NF, NF, NF],
  CreateFileSystemSnapshot: ["FAILED_PRECONDITION", "FAILED_PRECONDITION", NF, NF, NF, NF],
};
const CONDITIONS = ["live", "stopped", "deleted", "never existed", "malformed", "other tenant's"] as const;

beforeAll(async () => {
  const log = pino({ level: "silent" });
  rt = fakeRuntime();
  controller = createController({
    runtime: rt,
    policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 1000 },
    defaultLifetimeSeconds: 60,
    maxLifetimeSeconds: 600,
    maxSandboxes: 500,
    maxExecsPerSandbox: 4,
    maxExecs: 100,
    maxFileBytes: 1 << 20,
    reapIntervalMs: 1000,
    log,
  });
  api = createGrpcServer({
    controller,
    authenticate: createAuthenticator([
      { tenant: "alpha", key: KEYS.alpha },
      { tenant: "beta", key: KEYS.beta },
    ]),
    metrics: createMetrics(() => controller.counts()),
    log,
    protoDir: PROTO_DIR,
    sandbox: {
      specLimits: { maxLifetimeSeconds: 600 },
      exec: { deadlineMarginMs: 5000, defaultMaxOutputBytes: 1 << 20, maxOutputBytes: 1 << 24 },
      maxGraceSeconds: 60,
      getHoldMs: 2000,
    },
  });
  const port = await api.listen("127.0.0.1:0");
  const { v1 } = loadApi(PROTO_DIR);
  client = new v1.SandboxService(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as Client;
});
afterAll(async () => {
  client.close();
  await api.shutdown(1000);
  await controller.close();
});

async function running(t: Tenant): Promise<string> {
  const r = await unary("CreateSandbox", { sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } }, t);
  const id = r.res?.sandbox_id as string;
  expect((await unary("GetSandbox", { sandbox_id: id }, t)).res).toMatchObject({ status: { state: "STATE_RUNNING" } });
  return id;
}

/** A fresh sandbox id in the given condition, for one call. */
async function idIn(c: (typeof CONDITIONS)[number]): Promise<string> {
  if (c === "never existed") return randomUUID();
  if (c === "malformed") return "sandbox-abc123";
  if (c === "other tenant's") return running("beta");
  const id = await running("alpha");
  if (c === "stopped") rt.exit(id, 0);
  if (c === "deleted") {
    expect((await unary("DeleteSandbox", { sandbox_id: id, grace_period_seconds: 0 })).code).toBe("OK");
    expect((await unary("GetSandbox", { sandbox_id: id })).res).toMatchObject({ status: { state: "STATE_COMPLETED" } });
  }
  if (c !== "live") expect(controller.get("alpha", id).state).toBe("COMPLETED");
  return id;
}

describe("the id contract: RPC x sandbox condition -> exact code", () => {
  for (const [rpc, want] of Object.entries(WANT)) {
    it(rpc, async () => {
      const got: string[] = [];
      for (const c of CONDITIONS) got.push(await (RPCS[rpc] as (id: string) => Promise<string>)(await idIn(c)));
      expect(Object.fromEntries(CONDITIONS.map((c, i) => [c, got[i]]))).toEqual(Object.fromEntries(CONDITIONS.map((c, i) => [c, want[i]])));
    });
  }

  it("an empty id or one over 256 characters is INVALID_ARGUMENT naming the field", async () => {
    for (const id of ["", "x".repeat(257)]) {
      for (const rpc of ["GetSandbox", "DeleteSandbox", "ReadFile"]) {
        const r = await new Promise<grpc.ServiceError | null>((resolve) =>
          client[rpc]?.({ sandbox_id: id, path: "/x" }, md("alpha"), (e: grpc.ServiceError | null) => resolve(e)),
        );
        expect(code(r), `${rpc} ${id.length}`).toBe("INVALID_ARGUMENT");
        expect(r?.details).toContain("sandbox_id");
      }
    }
  });

  it("the other tenant's sandbox is untouched by every call", async () => {
    const id = await running("beta");
    for (const call of Object.values(RPCS)) await call(id);
    expect(controller.get("beta", id).state).toBe("RUNNING");
    expect(controller.get("beta", id).deletedAtMs).toBeUndefined();
  });

  it("a held GetSandbox answers the moment a stop ends, never past the client's deadline", async () => {
    const id = await running("alpha");
    const stop = rt.stop;
    rt.stop = async () => undefined; // the sandbox ignores the stop: it stays TERMINATING
    try {
      expect((await unary("DeleteSandbox", { sandbox_id: id, grace_period_seconds: 30 })).code).toBe("OK");
      const deadline = new Date(Date.now() + 600);
      const t0 = Date.now();
      const held = await new Promise<{ e: grpc.ServiceError | null; s?: { status: { state: string } } }>((resolve) =>
        client.GetSandbox?.(
          { sandbox_id: id },
          md("alpha"),
          { deadline },
          (e: grpc.ServiceError | null, s: { status: { state: string } }) => resolve({ e, s }),
        ),
      );
      expect(held.e).toBeNull();
      expect(held.s?.status.state).toBe("STATE_TERMINATING");
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
      const t1 = Date.now();
      const answer = unary("GetSandbox", { sandbox_id: id });
      setTimeout(() => rt.exit(id, 0), 100);
      expect((await answer).res).toMatchObject({ status: { state: "STATE_COMPLETED", exit_code: 0 } });
      expect(Date.now() - t1).toBeLessThan(1500);
    } finally {
      rt.stop = stop;
    }
  });
});
