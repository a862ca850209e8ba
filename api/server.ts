/**
 * Builds the grpc-js server: SandboxService and DiscoveryService, typed refusals for the
 * services Hangar does not offer, the methods only newer SDKs know, gRPC health and
 * server reflection. 100 MiB messages both ways.
 */
import * as grpc from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation } from "grpc-health-check";
import type { Logger } from "pino";
import { errors } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { Authenticator } from "./auth.js";
import { createCallWrapper } from "./call.js";
import { createDiscoveryService } from "./discovery-service.js";
import { createErrorMapper } from "./grpc-errors.js";
import type { Metrics } from "./metrics.js";
import { methodGuard } from "./request-guard.js";
import { refuseService, registerSdkOnlyMethods } from "./server-refusals.js";
import { createVolumeService } from "./volume-service.js";
import { loadApi, loadContractRoot, loadRpcTypes } from "./proto.js";
import { createSandboxService, type SandboxServiceOptions } from "./sandbox-service.js";
import { createTemplateService } from "./template-service.js";

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
  const root = loadContractRoot(d.protoDir);
  const guard = methodGuard(root);
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

  server.addService(v1.SandboxTemplateService.service, createTemplateService(d.controller, wrap, sandboxSpecType, d.sandbox.specLimits));
  server.addService(v1.VolumeService.service, createVolumeService(d.controller, wrap));
  refuseService(server, plain, v1.SandboxDataPlaneService.service, (m) =>
    errors.notImplemented(`SandboxDataPlaneService/${m} (the direct data plane)`),
  );
  refuseService(server, plain, v1.SettingsService.service, (m) =>
    /FileSystemSnapshotBucketConfig/.test(m)
      ? errors.notImplemented(
          `SettingsService/${m} (Hangar keeps snapshots in the directory the operator configures, HANGAR_SNAPSHOT_DIR, not in a bucket)`,
        )
      : errors.notImplemented(`SettingsService/${m}`),
  );

  registerSdkOnlyMethods(server, wrap);

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
