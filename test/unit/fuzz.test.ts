/**
 * Fuzzing of the gRPC surface (fast-check, ADR 0013): every unary method of every service in the
 * contract gets random well-formed messages (random values for every field, huge and odd ones
 * included, unknown enum numbers, deep nesting) and random bytes, over the real grpc-js server on
 * 127.0.0.1:0 with an in-memory runtime. Hangar must answer each call, before a deadline, with OK
 * or a typed status — never UNKNOWN, INTERNAL or DATA_LOSS for a message that parsed — keep
 * serving, and leave no sandbox behind. Inputs that once failed live in test/fuzz-corpus/ and are
 * replayed first. HANGAR_FUZZ_RUNS scales the run (make fuzz); CI uses the default.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import fc from "fast-check";
import type protobuf from "protobufjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadContractRoot, PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { createController } from "../../controller/controller.js";
import { fakeRuntime } from "./fake-runtime.js";
import { startTestServer, TEST_KEY } from "./test-server.js";

const KEY = TEST_KEY;
const RUNS = Number(process.env.HANGAR_FUZZ_RUNS ?? 25);
const CORPUS = "test/fuzz-corpus";
const root = loadContractRoot(PROTO_DIR);
const rt = fakeRuntime();
let port = 0;
let api: ReturnType<typeof createGrpcServer>;
let controller: ReturnType<typeof createController>;
let client: grpc.Client;

beforeAll(async () => {
  ({ controller, api, port } = await startTestServer(rt, {
    controller: { maxSandboxes: 10_000, maxExecsPerSandbox: 100, maxExecs: 1000 },
    exec: { deadlineMarginMs: 500 },
    getHoldMs: 200,
  }));
  client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
});
afterAll(async () => {
  client.close();
  await api.shutdown(1000);
  await controller.close();
});

/** Every unary method of the contract's services: the path and its request type. */
function unaryMethods(): { path: string; type: protobuf.Type }[] {
  const out: { path: string; type: protobuf.Type }[] = [];
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const o of ns.nestedArray) {
      if ("methods" in o && (o as protobuf.Service).methodsArray) {
        const svc = o as protobuf.Service;
        for (const m of svc.methodsArray) {
          if (m.requestStream || m.responseStream) continue;
          m.resolve();
          out.push({ path: `/${svc.fullName.slice(1)}/${m.name}`, type: m.resolvedRequestType as protobuf.Type });
        }
      } else if ("nestedArray" in o) walk(o as protobuf.NamespaceBase);
    }
  };
  walk(root);
  return out.filter((m) => m.path.startsWith("/coreweave."));
}

const odd = fc.constantFrom(
  "",
  "..",
  "../../etc/passwd",
  "/",
  "\u0000",
  "x".repeat(5000),
  "💥".repeat(100),
  "sandbox.spec",
  "-1",
  "9".repeat(30),
  " ",
  "a:b",
  "*.",
);
const scalar = (t: string): fc.Arbitrary<unknown> => {
  switch (t) {
    case "string":
      return fc.oneof(fc.string({ maxLength: 40 }), odd);
    case "bytes":
      return fc.uint8Array({ maxLength: 64 });
    case "bool":
      return fc.boolean();
    case "double":
    case "float":
      return fc.oneof(fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -0));
    case "int32":
    case "sint32":
    case "sfixed32":
      return fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(0, -1, 2 ** 31 - 1));
    case "uint32":
    case "fixed32":
      return fc.oneof(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.constant(0));
    default:
      return fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String), fc.constantFrom("0", "-1", "9223372036854775807")); // 64-bit
  }
};

const cache = new Map<string, fc.Arbitrary<Record<string, unknown>>>();
function messageOf(type: protobuf.Type, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const key = `${type.fullName}@${depth}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of type.fieldsArray) {
    f.resolve();
    let v: fc.Arbitrary<unknown>;
    if (f.resolvedType && "fieldsArray" in f.resolvedType) {
      if (depth >= 3) continue;
      v = messageOf(f.resolvedType as protobuf.Type, depth + 1);
    } else if (f.resolvedType && "values" in f.resolvedType) {
      const n = Object.keys((f.resolvedType as protobuf.Enum).values).length;
      v = fc.integer({ min: 0, max: n + 2 }); // includes numbers the enum does not have
    } else v = scalar(f.type);
    if (f.map)
      v = fc.dictionary(
        fc.oneof(fc.string({ maxLength: 12 }), odd),
        f.resolvedType && "fieldsArray" in f.resolvedType ? messageOf(f.resolvedType as protobuf.Type, depth + 1) : scalar(f.type),
        { maxKeys: 3 },
      );
    else if (f.repeated) v = fc.array(v, { maxLength: 3 });
    fields[f.name] = v;
  }
  const arb = fc.record(fields, { requiredKeys: [] });
  cache.set(key, arb);
  return arb;
}

/** The message with its sandbox id (at any depth it has one) set to a real sandbox's. */
function withId(obj: Record<string, unknown>, id: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...obj };
  for (const [k, v] of Object.entries(out)) {
    if (k === "sandbox_id") out[k] = id;
    else if (v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array))
      out[k] = withId(v as Record<string, unknown>, id);
  }
  return out;
}

function encodeOrEmpty(type: protobuf.Type, obj: Record<string, unknown>): Buffer {
  try {
    return Buffer.from(type.encode(type.fromObject(obj)).finish());
  } catch {
    return Buffer.alloc(0); // a value protobufjs cannot encode: send the empty message instead
  }
}

const FORBIDDEN = new Set([grpc.status.UNKNOWN, grpc.status.INTERNAL, grpc.status.DATA_LOSS]);

function call(p: string, payload: Buffer, ms = 5000): Promise<{ code: number; details: string }> {
  const md = new grpc.Metadata();
  md.set("authorization", `Bearer ${KEY}`);
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      p,
      (b: Buffer) => b,
      (b: Buffer) => b,
      payload,
      md,
      { deadline: Date.now() + ms },
      (err) =>
        resolve(
          err ? { code: err.code ?? grpc.status.UNKNOWN, details: err.details ?? err.message } : { code: grpc.status.OK, details: "" },
        ),
    );
  });
}

const methods = unaryMethods();

/** The streaming methods: StreamExec (both ways) and StreamLogs (server). */
function streamingMethods(): { path: string; type: protobuf.Type; clientStream: boolean }[] {
  const out: { path: string; type: protobuf.Type; clientStream: boolean }[] = [];
  const svc = root.lookupService("coreweave.sandbox.v1.SandboxService");
  for (const m of svc.methodsArray) {
    if (!m.requestStream && !m.responseStream) continue;
    m.resolve();
    out.push({
      path: `/${svc.fullName.slice(1)}/${m.name}`,
      type: m.resolvedRequestType as protobuf.Type,
      clientStream: !!m.requestStream,
    });
  }
  return out;
}

/**
 * One streaming call: the messages written (then the write side closed), everything read until the
 * status. A stream may legitimately outlive its deadline (a follow of logs): only a status that says
 * Hangar broke counts against it.
 */
function callStream(m: { path: string; clientStream: boolean }, payloads: Buffer[], ms = 3000): Promise<{ code: number; details: string }> {
  const md = new grpc.Metadata();
  md.set("authorization", `Bearer ${KEY}`);
  return new Promise((resolve) => {
    const id = (b: Buffer) => b;
    const opts = { deadline: Date.now() + ms };
    const c = m.clientStream
      ? client.makeBidiStreamRequest(m.path, id, id, md, opts)
      : client.makeServerStreamRequest(m.path, id, id, payloads[0] ?? Buffer.alloc(0), md, opts);
    c.on("data", () => undefined);
    c.on("error", (e: grpc.ServiceError) => resolve({ code: e.code ?? grpc.status.UNKNOWN, details: e.details ?? e.message }));
    c.on("status", (st: grpc.StatusObject) => {
      if (st.code === grpc.status.OK) resolve({ code: st.code, details: st.details });
    });
    if (m.clientStream) {
      const w = c as grpc.ClientDuplexStream<Buffer, Buffer>;
      for (const p of payloads) w.write(p);
      w.end();
    }
  });
}
const streams = streamingMethods();

describe("fuzzing the gRPC surface", () => {
  it("covers every unary method of the contract", () => {
    expect(methods.map((m) => m.path)).toEqual(
      expect.arrayContaining([
        "/coreweave.sandbox.v1.SandboxService/CreateSandbox",
        "/coreweave.sandbox.v1.SandboxService/Exec",
        "/coreweave.sandbox.v1.DiscoveryService/ListAvailableRunners",
      ]),
    );
    expect(methods.length).toBeGreaterThan(20);
  });

  it("replays the corpus of inputs that once failed", async () => {
    const files = existsSync(CORPUS) ? readdirSync(CORPUS).filter((f) => f.endsWith(".txt")) : [];
    for (const f of files) {
      for (const line of readFileSync(path.join(CORPUS, f), "utf8")
        .split("\n")
        .filter((l) => l && !l.startsWith("#"))) {
        const [p = "", b64 = ""] = line.split(" ");
        const r = await call(p, Buffer.from(b64, "base64"));
        expect(FORBIDDEN.has(r.code), `${f}: ${p} answered ${r.code} ${r.details}`).toBe(false);
      }
    }
  });

  for (const m of methods) {
    it(`${m.path}: random well-formed messages get OK or a typed error, in time`, async () => {
      await fc.assert(
        fc.asyncProperty(messageOf(m.type, 0), async (obj) => {
          let payload: Buffer;
          try {
            payload = Buffer.from(m.type.encode(m.type.fromObject(obj)).finish());
          } catch {
            return; // a value protobufjs cannot encode is not a message anyone can send
          }
          const r = await call(m.path, payload);
          if (FORBIDDEN.has(r.code) || r.code === grpc.status.DEADLINE_EXCEEDED) {
            throw new Error(`${m.path} answered ${grpc.status[r.code]} ${r.details}; replay: ${m.path} ${payload.toString("base64")}`);
          }
        }),
        { numRuns: RUNS, seed: 20261124, endOnFailure: true },
      );
    }, 120_000);
  }

  it("covers the streaming methods", () => {
    expect(streams.map((m) => m.path).sort()).toEqual([
      "/coreweave.sandbox.v1.SandboxService/StreamExec",
      "/coreweave.sandbox.v1.SandboxService/StreamLogs",
    ]);
  });

  for (const m of streams) {
    it(`${m.path}: random message sequences and bytes get OK or a typed error, and the server keeps serving`, async () => {
      // Some messages name a real sandbox, so the fuzz reaches past the id check.
      const made = await call(
        "/coreweave.sandbox.v1.SandboxService/CreateSandbox",
        Buffer.from(
          root
            .lookupType("coreweave.sandbox.v1.CreateSandboxRequest")
            .encode({ sandbox: { spec: { containers: [{ name: "main", image: "python:3.11" }] } } })
            .finish(),
        ),
      );
      expect(made.code).toBe(grpc.status.OK);
      const real =
        rt.calls
          .filter((c) => c.startsWith("start "))
          .map((c) => c.slice(6))
          .at(-1) ?? "";
      const message = messageOf(m.type, 0).chain((obj) => fc.constantFrom(obj, withId(obj, real)));
      const item = fc.oneof(
        message.map((obj) => encodeOrEmpty(m.type, obj)),
        fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: m.clientStream ? 4 : 1 }), async (payloads) => {
          const r = await callStream(m, payloads);
          // Bytes that are no message: grpc-js answers INTERNAL "Error deserializing request" itself (the gRPC
          // spec's code for it) before Hangar sees the call; any other INTERNAL is Hangar's.
          const undecodable = r.code === grpc.status.INTERNAL && r.details === "Error deserializing request";
          if (FORBIDDEN.has(r.code) && !undecodable)
            throw new Error(
              `${m.path} answered ${grpc.status[r.code]} ${r.details}; replay: ${m.path} ${payloads.map((p) => p.toString("base64")).join(" ")}`,
            );
        }),
        { numRuns: RUNS * 2, seed: 20261128, endOnFailure: true },
      );
      expect((await call("/coreweave.sandbox.v1.DiscoveryService/ListAvailableRunners", Buffer.alloc(0))).code).toBe(grpc.status.OK);
    }, 180_000);
  }

  it("random bytes as any request: every call is answered and the server keeps serving", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...methods), fc.uint8Array({ maxLength: 512 }), async (m, bytes) => {
        const r = await call(m.path, Buffer.from(bytes));
        if (r.code === grpc.status.DEADLINE_EXCEEDED) throw new Error(`${m.path} hung on ${Buffer.from(bytes).toString("base64")}`);
      }),
      { numRuns: RUNS * 8, seed: 20261124 },
    );
    expect((await call("/coreweave.sandbox.v1.DiscoveryService/ListAvailableRunners", Buffer.alloc(0))).code).toBe(grpc.status.OK);
  }, 120_000);

  it("leaves no sandbox behind once the ones it made are deleted", async () => {
    const ids = [...new Set(rt.calls.filter((c) => c.startsWith("start ")).map((c) => c.slice(6)))];
    for (const id of ids) {
      try {
        controller.remove("alpha", id, { graceMs: 0, allowMissing: true });
      } catch {
        // already gone
      }
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(rt.runners()[0]?.runningSandboxes).toBe(0);
  });
});
