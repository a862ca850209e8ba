/** A sandbox's life after its create: Get (held while it changes), List, Delete (with snapshots first) and Purge. */
import { errors, HangarError, type FieldViolation } from "../core/errors.js";
import type { SandboxRecord, State } from "../core/types.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import type { DeleteSandboxRequest__Output } from "./generated/coreweave/sandbox/v1/DeleteSandboxRequest.js";
import type { DeleteSandboxResponse } from "./generated/coreweave/sandbox/v1/DeleteSandboxResponse.js";
import type { GetSandboxRequest__Output } from "./generated/coreweave/sandbox/v1/GetSandboxRequest.js";
import type { ListSandboxesRequest__Output } from "./generated/coreweave/sandbox/v1/ListSandboxesRequest.js";
import type { PurgeSandboxesRequest__Output } from "./generated/coreweave/sandbox/v1/PurgeSandboxesRequest.js";
import type { Sandbox } from "./generated/coreweave/sandbox/v1/Sandbox.js";
import { LIMITS } from "./limits.js";
import { sandboxId } from "./spec.js";

type View = (r: SandboxRecord) => Sandbox;

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

export function getSandbox(controller: Controller, o: { getHoldMs: number; reportPreparing?: boolean }, view: View) {
  return async (req: GetSandboxRequest__Output, ctx: CallContext) => {
    const id = sandboxId(req.sandbox_id);
    await controller.ensure(id, ctx.tenant);
    const r = controller.get(ctx.tenant, id);
    // PREPARING (an image pull, seconds to minutes) is answered at once, so pollers see it.
    if (!TRANSITIONAL.has(r.state) || (r.preparing && (o.reportPreparing ?? true))) return view(r);
    const holdMs = Math.min(o.getHoldMs, (ctx.deadlineMs ?? Infinity) - Date.now() - HOLD_MARGIN_MS);
    return view(await controller.getChanged(ctx.tenant, id, r.state, holdMs, ctx.signal));
  };
}

export function listSandboxes(controller: Controller, view: View) {
  return (req: ListSandboxesRequest__Output, ctx: CallContext) => {
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
  };
}

/** The volumes to snapshot before a delete, archived before the stop; one that fails leaves the sandbox running (the caller may retry). */
async function snapshotsBeforeDelete(controller: Controller, req: DeleteSandboxRequest__Output, id: string, ctx: CallContext) {
  const snapshotIds: string[] = [];
  if (!req.snapshot_volumes?.length) return snapshotIds;
  if (req.allow_missing) {
    try {
      controller.get(ctx.tenant, id);
    } catch {
      throw errors.invalidRequest("cannot snapshot volumes of a sandbox that does not exist");
    }
  }
  if (!controller.snapshots.enabled()) throw errors.snapshotsNotSupported();
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
  return snapshotIds;
}

export function deleteSandbox(controller: Controller, maxGraceSeconds: number, view: View) {
  return async (req: DeleteSandboxRequest__Output, ctx: CallContext): Promise<DeleteSandboxResponse> => {
    const id = sandboxId(req.sandbox_id);
    const grace = req.grace_period_seconds ?? 0;
    if (grace < 0 || grace > maxGraceSeconds) throw errors.invalidField("grace_period_seconds", `must be between 0 and ${maxGraceSeconds}`);
    await controller.ensure(id, ctx.tenant);
    const snapshotIds = await snapshotsBeforeDelete(controller, req, id, ctx);
    const r = controller.remove(ctx.tenant, id, { graceMs: grace * 1000, allowMissing: !!req.allow_missing });
    if (r) ctx.log.info({ sandbox_id: id, grace_s: grace }, "sandbox stop requested");
    // Answered once the stop is stored: a replica killed right after must not lose it (ADR 0014).
    await controller.stored(id);
    return r ? { sandbox: view(r), file_system_snapshot_ids: snapshotIds } : {};
  };
}

export function purgeSandboxes(controller: Controller) {
  return async (req: PurgeSandboxesRequest__Output, ctx: CallContext) => {
    const v: FieldViolation[] = [];
    tagsViolations(req.tags ?? [], "tags", v);
    if (v.length) throw errors.invalid(v);
    const res = controller.purge(ctx.tenant, { tags: req.tags ?? [], dryRun: !!req.dry_run, purgeAll: !!req.purge_all });
    await Promise.all(res.ids.map((id) => controller.stored(id)));
    return { purge_count: res.count, failed_sandbox_ids: res.failed, retryable_failed_sandbox_ids: [] };
  };
}
