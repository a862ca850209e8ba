/** The real grpc-js server on 127.0.0.1:0 over the in-memory runtime, as the unit tests of the API use it. */
import pino from "pino";
import { createAuthenticator } from "../../api/auth.js";
import { createMetrics } from "../../api/metrics.js";
import { PROTO_DIR } from "../../api/proto.js";
import { createGrpcServer } from "../../api/server.js";
import { createController, type ControllerOptions } from "../../controller/controller.js";
import type { Runtime } from "../../runtime/types.js";

export const TEST_KEY = "alpha-0123456789abcdef";

export async function startTestServer(runtime: Runtime, over: { controller?: Partial<ControllerOptions>; exec?: { deadlineMarginMs: number }; getHoldMs?: number; keys?: { tenant: string; key: string }[]; metrics?: ReturnType<typeof createMetrics> } = {}) {
  const log = pino({ level: "silent" });
  const controller = createController({
    runtime, policy: { retentionMs: 60_000, expiryGraceMs: 0, stuckAfterMs: 1000 }, defaultLifetimeSeconds: 60, maxLifetimeSeconds: 600,
    maxSandboxes: 10, maxExecsPerSandbox: 4, maxExecs: 10, maxFileBytes: 1 << 20, reapIntervalMs: 1000, log, ...over.controller,
  });
  const api = createGrpcServer({
    controller, authenticate: createAuthenticator(over.keys ?? [{ tenant: "alpha", key: TEST_KEY }]), metrics: over.metrics ?? createMetrics(() => controller.counts()), log, protoDir: PROTO_DIR,
    sandbox: { specLimits: { maxLifetimeSeconds: 600 }, exec: { deadlineMarginMs: over.exec?.deadlineMarginMs ?? 5000, defaultMaxOutputBytes: 1 << 20, maxOutputBytes: 1 << 24 }, maxGraceSeconds: 60, getHoldMs: over.getHoldMs ?? 2000 },
  });
  const port = await api.listen("127.0.0.1:0");
  return { controller, api, port };
}
