/** The real grpc-js server on 127.0.0.1:0 over the in-memory runtime, as the unit tests of the API use it. */
import * as grpc from "@grpc/grpc-js";
import pino from "pino";
import { createAuthenticator, type KeyEntry, type TokenIdentities } from "../../api/auth.js";
import { createMetrics } from "../../api/metrics.js";
import { PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { createController, type ControllerOptions } from "../../controller/controller.js";
import type { Runtime } from "../../runtime/types.js";

export const TEST_KEY = "alpha-0123456789abcdef";

export async function startTestServer(
  runtime: Runtime,
  over: {
    controller?: Partial<ControllerOptions>;
    exec?: { deadlineMarginMs: number };
    getHoldMs?: number;
    keys?: KeyEntry[];
    /** ServiceAccount or OIDC tokens taken besides the keys (api/auth.ts). */
    identities?: TokenIdentities;
    metrics?: ReturnType<typeof createMetrics>;
  } = {},
) {
  const log = pino({ level: "silent" });
  const controller = createController({
    runtime,
    policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 1000 },
    defaultLifetimeSeconds: 60,
    maxLifetimeSeconds: 600,
    maxSandboxes: 10,
    maxExecsPerSandbox: 4,
    maxExecs: 10,
    maxFileBytes: 1 << 20,
    reapIntervalMs: 1000,
    log,
    ...over.controller,
  });
  const api = createGrpcServer({
    controller,
    authenticate: createAuthenticator(over.keys ?? [{ tenant: "alpha", key: TEST_KEY }], over.identities),
    metrics: over.metrics ?? createMetrics(() => controller.counts()),
    log,
    protoDir: PROTO_DIR,
    sandbox: {
      specLimits: { maxLifetimeSeconds: 600 },
      exec: { deadlineMarginMs: over.exec?.deadlineMarginMs ?? 5000, defaultMaxOutputBytes: 1 << 20, maxOutputBytes: 1 << 24 },
      maxGraceSeconds: 60,
      getHoldMs: over.getHoldMs ?? 2000,
    },
  });
  const port = await api.listen("127.0.0.1:0");
  return { controller, api, port };
}

export type Unary = (req: object, md: grpc.Metadata, cb: (e: grpc.ServiceError | null, res: never) => void) => void;
export type UnaryClient = Record<string, Unary> & grpc.Client;

/** The bearer metadata of a tenant's key (TEST_KEY: alpha). */
export function authMetadata(key = TEST_KEY): grpc.Metadata {
  const m = new grpc.Metadata();
  m.set("authorization", `Bearer ${key}`);
  return m;
}

/** One unary call through a loaded client, as the given key. */
export const unaryCall = <T = Record<string, unknown>>(c: UnaryClient, method: string, req: object, key = TEST_KEY): Promise<T> =>
  new Promise((resolve, reject) => (c[method] as Unary).call(c, req, authMetadata(key), (e, r) => (e ? reject(e) : resolve(r as T))));
