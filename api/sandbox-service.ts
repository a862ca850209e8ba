/** SandboxService handlers: request validation, then the controller; proto types stay here. */
import type { SandboxRecord } from "../core/types.js";
import type * as grpc from "@grpc/grpc-js";
import type protobuf from "protobufjs";
import { composeCreate, renameFields } from "./compose-request.js";
import { guardRequest } from "./field-policy.js";
import { applyOverrides } from "./template-view.js";
import { logSessionId, parseLogSession } from "./log-session.js";
import { LogResumeError } from "../controller/controller.js";
import { errors, HangarError, type FieldViolation } from "../core/errors.js";
import { toProtoSnapshot } from "./snapshot-view.js";
import type { State } from "../core/types.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext, CallWrapper } from "./call.js";
import { writeWithBackpressure } from "./call.js";
import { createExecHandlers, type ExecPolicy } from "./exec.js";
import type { CreateSandboxRequest__Output } from "./generated/coreweave/sandbox/v1/CreateSandboxRequest.js";
import type { DeleteSandboxRequest__Output } from "./generated/coreweave/sandbox/v1/DeleteSandboxRequest.js";
import type { DeleteSandboxResponse } from "./generated/coreweave/sandbox/v1/DeleteSandboxResponse.js";
import type { ListSandboxesRequest__Output } from "./generated/coreweave/sandbox/v1/ListSandboxesRequest.js";
import type { LogEntry } from "./generated/coreweave/sandbox/v1/LogEntry.js";
import type { PurgeSandboxesRequest__Output } from "./generated/coreweave/sandbox/v1/PurgeSandboxesRequest.js";
import type { SandboxServiceHandlers } from "./generated/coreweave/sandbox/v1/SandboxService.js";
import type { StreamLogsRequest__Output } from "./generated/coreweave/sandbox/v1/StreamLogsRequest.js";
import type { Metrics } from "./metrics.js";
import { shareToken } from "../core/share-token.js";
import { timestamp, toProtoSandbox } from "./sandbox-view.js";
import { LIMITS } from "./limits.js";
import { sandboxId, toDomainSpec, type SpecLimits } from "./spec.js";
import { validPath } from "./spec-text.js";

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

/** States a held GetSandbox waits out; every other state is answered at once. */
const TRANSITIONAL = new Set<State>(["PENDING", "CREATING", "TERMINATING"]);
/** A held GetSandbox answers this long before the caller's deadline. */
const HOLD_MARGIN_MS = 200;

const STATES: Record<string, State | "TERMINATED" | "PREPARING" | undefined> = {
  STATE_UNSPECIFIED: undefined,
  STATE_PENDING: "PENDING",
  STATE_CREATING: "CREATING",
  STATE_RUNNING: "RUNNING",
  STATE_TERMINATING: "TERMINATING",
  STATE_COMPLETED: "COMPLETED",
  STATE_FAILED: "FAILED",
  STATE_TERMINATED: "TERMINATED",
  STATE_PAUSED: "TERMINATED", // never used by Hangar: matches nothing
  STATE_PREPARING: "PREPARING", // CREATING while the image is pulled (Kubernetes)
};

function tagsViolations(tags: string[], field: string, v: FieldViolation[]) {
  if (tags.length > LIMITS.tags) v.push({ field, description: `at most ${LIMITS.tags} tags` });
  tags.forEach((t, i) => {
    if (!t || t.length > LIMITS.tagLength || /[\u0000-\u001f]/.test(t))
      v.push({ field: `${field}[${i}]`, description: `must be 1-${LIMITS.tagLength} characters without control characters` });
  });
}

const checkContainer = (c: string | undefined, v: FieldViolation[]) => {
  if ((c ?? "").length > 63) v.push({ field: "container", description: "a container name (at most 63 characters)" });
};

/** The validated sandbox id and path of a ReadFile/WriteFile request. */
function fileTarget(req: { sandbox_id?: string; path?: string; container?: string }): { id: string; path: string } {
  const id = sandboxId(req.sandbox_id);
  const v: FieldViolation[] = [];
  const bad = validPath(req.path ?? "");
  if (bad) v.push({ field: "path", description: bad });
  checkContainer(req.container, v);
  if (v.length) throw errors.invalid(v);
  return { id, path: req.path as string };
}

const snapshotId = (id: string | undefined) => {
  if (!id) throw errors.invalidField("file_system_snapshot_id", "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField("file_system_snapshot_id", `at most ${LIMITS.idLength} characters`);
  return id;
};

export function createSandboxService(
  controller: Controller,
  wrap: CallWrapper,
  o: SandboxServiceOptions,
  metrics: Metrics,
): SandboxServiceHandlers {
  const execs = createExecHandlers(controller, o.exec, metrics);
  const view = (r: SandboxRecord) => toProtoSandbox(r, o.reportPreparing ?? true);
  // Only a create's answer carries the share token (a replay with the same request_id recomputes
  // it); Get and List never do (the SDK: "Get, list, and from_id omit it").
  const created = (r: SandboxRecord) => {
    const v = view(r);
    return o.shareTokenKey && r.spec.services?.some((s) => s.shareToken)
      ? { ...v, endpoint_share_token: shareToken(o.shareTokenKey, r.id) }
      : v;
  };
  const fss = () => Promise.reject(errors.snapshotsNotSupported());

  async function streamLogs(call: grpc.ServerWritableStream<StreamLogsRequest__Output, LogEntry>, ctx: CallContext) {
    const req = call.request;
    const id = sandboxId(req.sandbox_id);
    const v: FieldViolation[] = [];
    if ((req.tail_lines ?? 0) < 0) v.push({ field: "tail_lines", description: "must not be negative" });
    if (Number(req.resume_log_offset ?? 0) > 0 && !req.resume_log_session_id)
      v.push({ field: "resume_log_offset", description: "an offset needs the resume_log_session_id it belongs to" });
    checkContainer(req.container, v);
    if (v.length) throw errors.invalid(v);
    await controller.ensure(id, ctx.tenant);
    controller.get(ctx.tenant, id);
    const reject = (code: string, message: string) => {
      call.write({ error: { code, message } });
      call.end();
    };
    // A log session names the sandbox, its log's timeline and the stream's format (api/log-session.ts).
    const current = controller.logSession(ctx.tenant, id, req.container || undefined);
    let fromOffset: number | undefined;
    let timestamps = !!req.timestamps;
    if (req.resume_log_session_id) {
      const s = parseLogSession(req.resume_log_session_id);
      if (!s || s.sandboxId !== id || !current || s.epoch !== current)
        return reject("SESSION_NOT_FOUND", "log session not found (another sandbox's, or its log restarted): start a new stream");
      const offset = Number(req.resume_log_offset ?? 0);
      if (!Number.isSafeInteger(offset) || offset < 0) return reject("INVALID_RESUME_OFFSET", "resume_log_offset is not a byte offset");
      fromOffset = offset;
      timestamps = s.timestamps;
    }
    const session = current ? logSessionId(id, current, timestamps) : undefined;
    const since = req.since_time ? Number(req.since_time.seconds ?? 0) * 1000 + Math.floor((req.since_time.nanos ?? 0) / 1e6) : undefined;
    const stream = controller.logs(ctx.tenant, id, {
      follow: !!req.follow,
      tailLines: req.tail_lines ?? 0,
      sinceMs: since,
      timestamps,
      signal: ctx.signal,
      ...(fromOffset !== undefined ? { fromOffset } : {}),
      ...(req.container ? { container: req.container } : {}),
    });
    try {
      for await (const chunk of stream) {
        if (ctx.signal.aborted) return;
        const resumable = session && chunk.end !== undefined ? { log_session_id: session, next_log_offset: String(chunk.end) } : {};
        await writeWithBackpressure(call, { data: chunk.data, timestamp: timestamp(Date.now()), ...resumable }, ctx.signal);
      }
    } catch (e) {
      if (e instanceof LogResumeError) return reject(e.code, e.message);
      throw e;
    }
    if (!ctx.signal.aborted) call.end();
  }

  return {
    CreateSandbox: wrap.unary("CreateSandbox", async (req: CreateSandboxRequest__Output, ctx) => {
      if ((req.request_id ?? "").length > LIMITS.requestIdLength)
        throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
      if (!req.sandbox) throw errors.invalidField("sandbox", "required");
      if (req.sandbox.sandbox_id) throw errors.invalidField("sandbox.sandbox_id", "output only: Hangar assigns sandbox ids");
      const displayName = req.sandbox.display_name ?? "";
      if (displayName.length > LIMITS.displayNameLength || /[\u0000-\u001f\u007f]/.test(displayName))
        throw errors.invalidField("sandbox.display_name", `at most ${LIMITS.displayNameLength} characters, no control characters`);
      const spec = toDomainSpec(req.sandbox.spec, o.specLimits);
      const r = await controller.create(ctx.tenant, {
        spec,
        echo: req.sandbox.spec,
        requestId: req.request_id ?? "",
        displayName: displayName || undefined,
      });
      ctx.log.info({ sandbox_id: r.id, tenant: ctx.tenant, image: spec.image }, "sandbox created");
      return created(r);
    }),
    CreateSandboxFromTemplate: wrap.unary("CreateSandboxFromTemplate", async (req, ctx) => {
      if ((req.request_id ?? "").length > LIMITS.requestIdLength)
        throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
      if (!req.template_id) throw errors.invalidField("template_id", "required");
      const displayName = req.display_name ?? "";
      if (displayName.length > LIMITS.displayNameLength || /[\u0000-\u001f\u007f]/.test(displayName))
        throw errors.invalidField("display_name", `at most ${LIMITS.displayNameLength} characters, no control characters`);
      const t = await controller.templates.get(ctx.tenant, req.template_id.slice(0, LIMITS.idLength));
      // The template's spec with the overrides replacing what they set, then exactly CreateSandbox's checks.
      const merged = applyOverrides(t.spec as never, req.overrides ?? undefined);
      if (o.sandboxSpecType) guardRequest(o.sandboxSpecType, merged, "sandbox.spec");
      const spec = toDomainSpec(merged, o.specLimits);
      const r = await controller.create(ctx.tenant, {
        spec,
        echo: merged,
        requestId: req.request_id ?? "",
        displayName: displayName || t.displayName || undefined,
      });
      ctx.log.info({ sandbox_id: r.id, tenant: ctx.tenant, template_id: t.id, image: spec.image }, "sandbox created from a template");
      return created(r);
    }),
    GetSandbox: wrap.unary("GetSandbox", async (req, ctx) => {
      const id = sandboxId(req.sandbox_id);
      await controller.ensure(id, ctx.tenant);
      const r = controller.get(ctx.tenant, id);
      // PREPARING (an image pull, seconds to minutes) is answered at once, so pollers see it.
      if (!TRANSITIONAL.has(r.state) || (r.preparing && (o.reportPreparing ?? true))) return view(r);
      const holdMs = Math.min(o.getHoldMs, (ctx.deadlineMs ?? Infinity) - Date.now() - HOLD_MARGIN_MS);
      return view(await controller.getChanged(ctx.tenant, id, r.state, holdMs, ctx.signal));
    }),
    ListSandboxes: wrap.unary("ListSandboxes", (req: ListSandboxesRequest__Output, ctx) => {
      const v: FieldViolation[] = [];
      if ((req.page_size ?? 0) < 0) v.push({ field: "page_size", description: "must not be negative" });
      tagsViolations(req.tags ?? [], "tags", v);
      const stateName = req.state ?? "STATE_UNSPECIFIED";
      if (typeof stateName !== "string" || !(stateName in STATES))
        v.push({ field: "state", description: `unknown state ${String(stateName)}` });
      if (v.length) throw errors.invalid(v);
      const res = controller.list(ctx.tenant, {
        tags: req.tags ?? [],
        state: STATES[stateName as string],
        showTerminated: !!req.show_terminated,
        runnerIds: req.runner_ids ?? [],
        pageSize: req.page_size ?? 0,
        pageToken: req.page_token ?? "",
        descending: req.sort_direction === "SORT_DIRECTION_DESCENDING",
        volumeIds: req.volume_ids ?? [],
      });
      return { sandboxes: res.items.map(view), next_page_token: res.nextPageToken };
    }),
    DeleteSandbox: wrap.unary("DeleteSandbox", async (req: DeleteSandboxRequest__Output, ctx): Promise<DeleteSandboxResponse> => {
      const id = sandboxId(req.sandbox_id);
      const grace = req.grace_period_seconds ?? 0;
      if (grace < 0 || grace > o.maxGraceSeconds)
        throw errors.invalidField("grace_period_seconds", `must be between 0 and ${o.maxGraceSeconds}`);
      await controller.ensure(id, ctx.tenant);
      const snapshotIds: string[] = [];
      if (req.snapshot_volumes?.length) {
        if (req.allow_missing) {
          try {
            controller.get(ctx.tenant, id);
          } catch {
            throw errors.invalidRequest("cannot snapshot volumes of a sandbox that does not exist");
          }
        }
        if (!controller.snapshots.enabled()) throw errors.snapshotsNotSupported();
        // Archived before the stop; one that fails leaves the sandbox running (the caller may retry).
        for (const [i, name] of req.snapshot_volumes.entries()) {
          const snap = await controller.snapshot(ctx.tenant, id, name, "ON_DELETE", req.request_id ? `${req.request_id}/${i}` : "", true);
          if (snap.state !== "READY")
            throw new HangarError({
              code: "FAILED_PRECONDITION",
              message: `the snapshot of volume ${name} failed (${snap.stateReason}); the sandbox was not stopped`,
              reason: "CWSANDBOX_FSS_NOT_READY",
              metadata: { file_system_snapshot_id: snap.id },
            });
          snapshotIds.push(snap.id);
        }
      }
      const r = controller.remove(ctx.tenant, id, { graceMs: grace * 1000, allowMissing: !!req.allow_missing });
      if (r) ctx.log.info({ sandbox_id: id, grace_s: grace }, "sandbox stop requested");
      // Answered once the stop is stored: a replica killed right after must not lose it (ADR 0014).
      await controller.stored(id);
      return r ? { sandbox: view(r), file_system_snapshot_ids: snapshotIds } : {};
    }),
    PurgeSandboxes: wrap.unary("PurgeSandboxes", async (req: PurgeSandboxesRequest__Output, ctx) => {
      const v: FieldViolation[] = [];
      tagsViolations(req.tags ?? [], "tags", v);
      if (v.length) throw errors.invalid(v);
      const res = controller.purge(ctx.tenant, { tags: req.tags ?? [], dryRun: !!req.dry_run, purgeAll: !!req.purge_all });
      await Promise.all(res.ids.map((id) => controller.stored(id)));
      return { purge_count: res.count, failed_sandbox_ids: res.failed, retryable_failed_sandbox_ids: [] };
    }),
    Exec: wrap.unary("Exec", execs.exec),
    StreamExec: wrap.stream("StreamExec", execs.streamExec),
    StreamLogs: wrap.stream("StreamLogs", streamLogs),
    WriteFile: wrap.unary("WriteFile", async (req, ctx) => {
      const { id, path } = fileTarget(req);
      await controller.writeFile(ctx.tenant, id, path, Buffer.from(req.content ?? Buffer.alloc(0)), ctx.signal, req.container || undefined);
      return {};
    }),
    ReadFile: wrap.unary("ReadFile", async (req, ctx) => {
      const { id, path } = fileTarget(req);
      return { content: await controller.readFile(ctx.tenant, id, path, ctx.signal, req.container || undefined) };
    }),
    CreateFileSystemSnapshot: wrap.unary("CreateFileSystemSnapshot", async (req, ctx) => {
      const id = sandboxId(req.sandbox_id);
      if ((req.request_id ?? "").length > LIMITS.requestIdLength)
        throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
      await controller.ensure(id, ctx.tenant);
      controller.present(ctx.tenant, id); // an unknown sandbox is NOT_FOUND, as everywhere
      if (!controller.snapshots.enabled()) return fss();
      const snap = await controller.snapshot(ctx.tenant, id, req.scratch_volume_name || undefined, "MANUAL", req.request_id ?? "", false);
      ctx.log.info({ sandbox_id: id, snapshot_id: snap.id }, "snapshot started");
      return toProtoSnapshot(snap);
    }),
    GetFileSystemSnapshot: wrap.unary("GetFileSystemSnapshot", async (req, ctx) =>
      toProtoSnapshot(await controller.snapshots.get(ctx.tenant, snapshotId(req.file_system_snapshot_id))),
    ),
    ListFileSystemSnapshots: wrap.unary("ListFileSystemSnapshots", async (req, ctx) => {
      if ((req.page_size ?? 0) < 0) throw errors.invalidField("page_size", "must not be negative");
      const all = await controller.snapshots.list(ctx.tenant, req.source_sandbox_id || undefined);
      const size = Math.min(req.page_size || 100, 1000);
      const start = req.page_token ? all.findIndex((x) => x.id === req.page_token) : 0;
      if (start < 0) throw errors.invalidField("page_token", "not a page token from a previous response");
      return { file_system_snapshots: all.slice(start, start + size).map(toProtoSnapshot), next_page_token: all[start + size]?.id ?? "" };
    }),
    DeleteFileSystemSnapshot: wrap.unary("DeleteFileSystemSnapshot", async (req, ctx) => {
      const r = await controller.snapshots.remove(ctx.tenant, snapshotId(req.file_system_snapshot_id), !!req.allow_missing);
      return r ? toProtoSnapshot(r) : {};
    }),
    // The direct data plane (ADR 0011): UNIMPLEMENTED makes the SDK's AUTO mode use this gateway path.
    ConnectSandbox: wrap.unary("ConnectSandbox", () => {
      throw errors.notImplemented("ConnectSandbox (the direct data plane; exec, files and logs go through this API)");
    }),
    CreateSandboxFromFile: wrap.unary("CreateSandboxFromFile", async (req, ctx) => {
      const c = composeCreate(req, o.specLimits);
      const services = (c.echo.containers ?? []).map((x) => x.name ?? "");
      const r = await controller
        .create(ctx.tenant, { spec: c.spec, echo: c.echo, requestId: req.request_id ?? "", displayName: c.displayName })
        .catch((e: unknown) => {
          throw renameFields(e, services);
        });
      ctx.log.info({ sandbox_id: r.id, tenant: ctx.tenant, services: services.length }, "sandbox created from a Compose file");
      return view(r);
    }),
    GetSandboxBuildLogs: wrap.unary("GetSandboxBuildLogs", () => {
      throw errors.notImplemented("GetSandboxBuildLogs (image builds)");
    }),
  };
}
