// Generates TypeScript types for proto/ with @grpc/proto-loader's generator into api/generated/.
// `make gen` runs it; `make check-gen` fails when the committed output is stale.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";

const out = "api/generated";
rmSync(out, { recursive: true, force: true });
execFileSync(
  process.execPath,
  [
    "node_modules/@grpc/proto-loader/build/bin/proto-loader-gen-types.js",
    "--keepCase",
    "--longs=String",
    "--enums=String",
    "--defaults=false",
    "--oneofs",
    "--bytes=Buffer",
    "--grpcLib=@grpc/grpc-js",
    `--outDir=${out}`,
    "--importFileExtension=.js",
    "--includeDirs=proto",
    "--",
    "coreweave/sandbox/v1/sandbox.proto",
    "coreweave/sandbox/v1/discovery.proto",
    "coreweave/sandbox/v1/settings.proto",
    "coreweave/sandbox/v1/sandbox_template.proto",
    "coreweave/sandbox/v1/volume.proto",
    "coreweave/sandbox/v1/runtime_class.proto",
    "coreweave/sandbox/v1/sandbox_data_plane.proto",
    "google/rpc/status.proto",
    "google/rpc/error_details.proto",
  ],
  { stdio: "inherit" },
);
