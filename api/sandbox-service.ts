/**
 * SandboxService handlers: request validation, then the controller; proto types stay in api/.
 * Each group of methods has its room (sandbox-create, sandbox-lifecycle, exec, sandbox-logs,
 * sandbox-files, sandbox-snapshots); this file wires them to the method names.
 */
import type protobuf from "protobufjs";
import { errors } from "../core/errors.js";
import type { SandboxRecord } from "../core/types.js";
import type { Controller } from "../controller/controller.js";
import type { CallWrapper } from "./call.js";
import { createExecHandlers, type ExecPolicy } from "./exec.js";
import type { SandboxServiceHandlers } from "./generated/coreweave/sandbox/v1/SandboxService.js";
import type { Metrics } from "./metrics.js";
import { createCreateHandlers } from "./sandbox-create.js";
import { createFileHandlers } from "./sandbox-files.js";
import { deleteSandbox, getSandbox, listSandboxes, purgeSandboxes } from "./sandbox-lifecycle.js";
import { streamLogs } from "./sandbox-logs.js";
import { createSnapshotHandlers } from "./sandbox-snapshots.js";
import { toProtoSandbox } from "./sandbox-view.js";
import type { SpecLimits } from "./spec.js";

export interface SandboxServiceOptions {
  specLimits: SpecLimits;
  exec: ExecPolicy;
  maxGraceSeconds: number;
  /** How long a GetSandbox of a sandbox in a transitional state may wait for it to change (ADR 0009). */
  getHoldMs: number;
  /** The contract's SandboxSpec type: a template's spec with its overrides is guarded as CreateSandbox's is. */
  sandboxSpecType?: protobuf.Type;
  /** HANGAR_REPORT_PREPARING: show STATE_PREPARING while a sandbox's image is pulled (default true). */
  reportPreparing?: boolean;
  /** HANGAR_SHARE_TOKEN_KEY_FILE's key: a create answers a sandbox's share token (core/share-token.ts). */
  shareTokenKey?: Buffer;
}

export function createSandboxService(
  controller: Controller,
  wrap: CallWrapper,
  o: SandboxServiceOptions,
  metrics: Metrics,
): SandboxServiceHandlers {
  const view = (r: SandboxRecord) => toProtoSandbox(r, o.reportPreparing ?? true);
  const create = createCreateHandlers(controller, o, view);
  const execs = createExecHandlers(controller, o.exec, metrics);
  const files = createFileHandlers(controller);
  const snapshots = createSnapshotHandlers(controller);
  return {
    CreateSandbox: wrap.unary("CreateSandbox", create.createSandbox),
    CreateSandboxFromTemplate: wrap.unary("CreateSandboxFromTemplate", create.fromTemplate),
    GetSandbox: wrap.unary("GetSandbox", getSandbox(controller, o, view)),
    ListSandboxes: wrap.unary("ListSandboxes", listSandboxes(controller, view)),
    DeleteSandbox: wrap.unary("DeleteSandbox", deleteSandbox(controller, o.maxGraceSeconds, view)),
    PurgeSandboxes: wrap.unary("PurgeSandboxes", purgeSandboxes(controller)),
    Exec: wrap.unary("Exec", execs.exec),
    StreamExec: wrap.stream("StreamExec", execs.streamExec),
    StreamLogs: wrap.stream("StreamLogs", streamLogs(controller)),
    WriteFile: wrap.unary("WriteFile", files.writeFile),
    ReadFile: wrap.unary("ReadFile", files.readFile),
    CreateFileSystemSnapshot: wrap.unary("CreateFileSystemSnapshot", snapshots.create),
    GetFileSystemSnapshot: wrap.unary("GetFileSystemSnapshot", snapshots.get),
    ListFileSystemSnapshots: wrap.unary("ListFileSystemSnapshots", snapshots.list),
    DeleteFileSystemSnapshot: wrap.unary("DeleteFileSystemSnapshot", snapshots.remove),
    // The direct data plane (ADR 0011): UNIMPLEMENTED makes the SDK's AUTO mode use this gateway path.
    ConnectSandbox: wrap.unary("ConnectSandbox", () => {
      throw errors.notImplemented("ConnectSandbox (the direct data plane; exec, files and logs go through this API)");
    }),
    CreateSandboxFromFile: wrap.unary("CreateSandboxFromFile", create.fromFile),
    GetSandboxBuildLogs: wrap.unary("GetSandboxBuildLogs", () => {
      throw errors.notImplemented("GetSandboxBuildLogs (image builds)");
    }),
  };
}
