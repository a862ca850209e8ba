/** Loads proto/ once: grpc-js service definitions and the google.rpc types for error details. */
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import type { ProtoGrpcType as DiscoveryGrpc } from "./generated/discovery.js";
import type { ProtoGrpcType as SandboxGrpc } from "./generated/sandbox.js";
import type { ProtoGrpcType as SettingsGrpc } from "./generated/settings.js";
import type { ProtoGrpcType as TemplateGrpc } from "./generated/sandbox_template.js";
import type { ProtoGrpcType as VolumeGrpc } from "./generated/volume.js";
import type { ProtoGrpcType as DataPlaneGrpc } from "./generated/sandbox_data_plane.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** proto/ from either the source tree (api/) or the build (dist/api/). */
export const PROTO_DIR = [path.resolve(here, "../proto"), path.resolve(here, "../../proto")].find((p) =>
  existsSync(path.join(p, "coreweave/sandbox/v1/sandbox.proto")),
) as string;

export const PROTO_FILES = [
  "coreweave/sandbox/v1/sandbox.proto",
  "coreweave/sandbox/v1/discovery.proto",
  "coreweave/sandbox/v1/settings.proto",
  "coreweave/sandbox/v1/sandbox_template.proto",
  "coreweave/sandbox/v1/volume.proto",
  "coreweave/sandbox/v1/runtime_class.proto",
  "coreweave/sandbox/v1/sandbox_data_plane.proto",
];

/** Must match scripts/gen-types.mjs so the generated types describe these objects. */
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
  includeDirs: [],
};

export function loadApi(protoDir: string) {
  const packageDefinition = protoLoader.loadSync(PROTO_FILES, { ...LOADER_OPTIONS, includeDirs: [protoDir] });
  const loaded = grpc.loadPackageDefinition(packageDefinition) as unknown as SandboxGrpc &
    DiscoveryGrpc &
    SettingsGrpc &
    TemplateGrpc &
    VolumeGrpc &
    DataPlaneGrpc;
  return { packageDefinition, v1: loaded.coreweave.sandbox.v1 };
}

/** proto/ as a protobufjs Root: the descriptors the field guard (api/field-policy.ts) walks. */
export function loadContractRoot(protoDir: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith("google/protobuf/") ? target : path.join(protoDir, target));
  return root.loadSync(PROTO_FILES, { keepCase: true }).resolveAll() as protobuf.Root;
}

export function loadRpcTypes(protoDir: string) {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith("google/protobuf/") ? target : path.join(protoDir, target));
  root.loadSync(["google/rpc/status.proto", "google/rpc/error_details.proto"], { keepCase: true });
  return {
    Status: root.lookupType("google.rpc.Status"),
    ErrorInfo: root.lookupType("google.rpc.ErrorInfo"),
    RetryInfo: root.lookupType("google.rpc.RetryInfo"),
    BadRequest: root.lookupType("google.rpc.BadRequest"),
  };
}
export type RpcTypes = ReturnType<typeof loadRpcTypes>;
