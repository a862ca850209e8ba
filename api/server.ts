/**
 * Builds the grpc-js server: SandboxService and DiscoveryService, typed refusals for the
 * services Hangar does not offer, the methods only newer SDKs know, gRPC health and
 * server reflection. 100 MiB messages both ways.
 */
import * as grpc from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import type protobuf from "protobufjs";
import type { Logger } from "pino";
import { errors } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { Authenticator } from "./auth.js";
import { createCallWrapper } from "./call.js";
import { createDiscoveryService } from "./discovery-service.js";
import { createErrorMapper } from "./grpc-errors.js";
import type { Metrics } from "./metrics.js";
import { guardRequest, GUARDED_SERVICES, METHOD_RULES } from "./field-policy.js";
import { createVolumeService } from "./volume-service.js";
import { loadApi, loadContractRoot, loadRpcTypes } from "./proto.js";
import { createSandboxService, type SandboxServiceOptions } from "./sandbox-service.js";
import { createTemplateService } from "./template-service.js";
import { SDK_ONLY_METHODS } from "./sdk-only-methods.js";

export const MAX_MESSAGE_BYTES = 100 * 1024 * 1024;

export interface ServerDeps {
  controller: Controller;
  authenticate: Authenticator;
  metrics: Metrics;
  log: Logger;
  protoDir: string;
  sandbox: SandboxServiceOptions;
}

export function createGrpcServer(d: ServerDeps) {
  const { packageDefinition, v1 } = loadApi(d.protoDir);
  const toError = createErrorMapper(loadRpcTypes(d.protoDir), d.log);
  // The services Hangar serves refuse fields they do not honour; the refused ones need no guard.
  const root = loadContractRoot(d.protoDir);
  const inputs = new Map<string, protobuf.Type>();
  for (const svc of GUARDED_SERVICES.map((s) => root.lookupService(s))) {
    for (const m of svc.methodsArray)
      if (!METHOD_RULES[`${svc.name}.${m.name}`]) inputs.set(m.name, (m.resolve(), m.resolvedRequestType as protobuf.Type));
  }
  const guard = (method: string, request: unknown) => {
    const type = inputs.get(method);
    if (type) guardRequest(type, request);
  };
  const wrap = createCallWrapper({ authenticate: d.authenticate, toError, metrics: d.metrics, log: d.log, guard });
  const plain = createCallWrapper({ authenticate: d.authenticate, toError, metrics: d.metrics, log: d.log });
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    "grpc.keepalive_time_ms": 60_000,
    "grpc.keepalive_timeout_ms": 20_000,
    "grpc.keepalive_permit_without_calls": 1,
    "grpc-node.max_session_memory": 256,
  });
  const sandboxSpecType = root.lookupType("coreweave.sandbox.v1.SandboxSpec");
  server.addService(v1.SandboxService.service, createSandboxService(d.controller, wrap, { ...d.sandbox, sandboxSpecType }, d.metrics));
  server.addService(v1.DiscoveryService.service, createDiscoveryService(d.controller.runners, wrap));

  // Services Hangar does not offer: every method answers with a typed reason.
  const refuse = (service: grpc.ServiceDefinition, why: (method: string) => Error) => {
    const impl: grpc.UntypedServiceImplementation = {};
    for (const [name, def] of Object.entries(service)) {
      const method = def.originalName ?? name;
      if (def.requestStream || def.responseStream)
        impl[method] = plain.stream(method, async () => {
          throw why(method);
        }) as unknown as grpc.UntypedHandleCall;
      else
        impl[method] = plain.unary(method, () => {
          throw why(method);
        });
    }
    server.addService(service, impl);
  };
  server.addService(v1.SandboxTemplateService.service, createTemplateService(d.controller, wrap, sandboxSpecType, d.sandbox.specLimits));
  server.addService(v1.VolumeService.service, createVolumeService(d.controller, wrap));
  refuse(v1.SandboxDataPlaneService.service, (m) => errors.notImplemented(`SandboxDataPlaneService/${m} (the direct data plane)`));
  refuse(v1.SettingsService.service, (m) =>
    /FileSystemSnapshotBucketConfig/.test(m)
      ? errors.notImplemented(
          `SettingsService/${m} (Hangar keeps snapshots in the directory the operator configures, HANGAR_SNAPSHOT_DIR, not in a bucket)`,
        )
      : errors.notImplemented(`SettingsService/${m}`),
  );

  // Methods that only newer SDK releases know: raw handlers, typed UNIMPLEMENTED.
  const raw = (b: Buffer) => b;
  for (const m of SDK_ONLY_METHODS) {
    const name = m.path.split("/")[2] as string;
    const why = () => errors.notImplemented(name);
    const type = m.clientStream ? (m.serverStream ? "bidi" : "clientStream") : m.serverStream ? "serverStream" : "unary";
    const handler =
      type === "unary"
        ? wrap.unary(name, () => {
            throw why();
          })
        : wrap.stream(name, async () => {
            throw why();
          });
    if (type === "clientStream") continue;
    server.register(m.path, handler as unknown as grpc.handleUnaryCall<Buffer, Buffer>, raw, raw, type);
  }

  const health = new HealthImplementation({
    "": "SERVING",
    "coreweave.sandbox.v1.SandboxService": "SERVING",
    "coreweave.sandbox.v1.DiscoveryService": "SERVING",
  });
  health.addToServer(server);
  new ReflectionService(packageDefinition).addToServer(server);

  return {
    server,
    health,
    listen(address: string): Promise<number> {
      return new Promise((resolve, reject) =>
        server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
      );
    },
    async shutdown(graceMs: number): Promise<void> {
      health.setStatus("", "NOT_SERVING");
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}
