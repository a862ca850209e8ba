/**
 * VolumeService: the caller's registered volumes (core/volumes.ts), read fresh from where the
 * operator registered them. Registration is the operator's (a labelled claim, a listed directory),
 * so Create, Update and Delete are refused with the reason the SDK maps to VolumeTypeNotSupportedError.
 */
import { errors, type FieldViolation } from "../core/errors.js";
import type { RegisteredVolume } from "../core/volumes.js";
import type { Controller } from "../controller/controller.js";
import type { CallWrapper } from "./call.js";
import type { Volume } from "./generated/coreweave/sandbox/v1/Volume.js";
import type { VolumeServiceHandlers } from "./generated/coreweave/sandbox/v1/VolumeService.js";
import { timestamp } from "./sandbox-view.js";
import { LIMITS } from "./limits.js";

type VolumeState = "VOLUME_STATE_READY" | "VOLUME_STATE_ERROR" | "VOLUME_STATE_VALIDATING";
const stateOf = (v: RegisteredVolume): VolumeState => (v.ready ? "VOLUME_STATE_READY" : "VOLUME_STATE_ERROR");

export function toProtoVolume(v: RegisteredVolume, attached: number, runnerId: string, nowMs: number): Volume {
  return {
    volume_id: v.id,
    spec: {
      ...("claimName" in v.source
        ? { pvc: { runner_id: runnerId, namespace: v.source.namespace, claim_name: v.source.claimName, sub_path: "" } }
        : {}),
      read_only: v.readOnly,
      description: v.description ?? "",
    },
    status: {
      state: stateOf(v),
      state_reason: v.reason,
      locality: "VOLUME_LOCALITY_CLUSTER_LOCAL",
      create_time: timestamp(v.createdAtMs),
      update_time: timestamp(v.createdAtMs),
      last_validated_time: timestamp(nowMs),
      access_modes: v.accessModes,
      capacity: v.capacity ?? "",
      attached_sandbox_count: attached,
    },
  };
}

const volumeId = (id: string | undefined) => {
  if (!id) throw errors.invalidField("volume_id", "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField("volume_id", `at most ${LIMITS.idLength} characters`);
  return id;
};

const STATES = new Set(["VOLUME_STATE_VALIDATING", "VOLUME_STATE_READY", "VOLUME_STATE_ERROR", "VOLUME_STATE_DELETING"]);

export function createVolumeService(controller: Controller, wrap: CallWrapper): VolumeServiceHandlers {
  const runnerId = () => controller.runners()[0]?.runnerId ?? "";
  const one = async (tenant: string, id: string): Promise<Volume> => {
    const found = (await controller.volumes.list(tenant)).find((x) => x.volume.id === id);
    if (!found) throw errors.volumeNotFound(id, "volume_id");
    return toProtoVolume(found.volume, found.attached, runnerId(), Date.now());
  };
  return {
    GetVolume: wrap.unary("GetVolume", (req, ctx) => one(ctx.tenant, volumeId(req.volume_id))),
    // Registrations are read fresh on every call: validating is reading again.
    ValidateVolume: wrap.unary("ValidateVolume", (req, ctx) => one(ctx.tenant, volumeId(req.volume_id))),
    ListVolumes: wrap.unary("ListVolumes", async (req, ctx) => {
      const v: FieldViolation[] = [];
      const size = req.page_size ?? 0;
      if (size < 0) v.push({ field: "page_size", description: "must not be negative" });
      (req.states ?? []).forEach(
        (s, i) => STATES.has(String(s)) || v.push({ field: `states[${i}]`, description: `unknown state ${String(s)}` }),
      );
      let offset = 0;
      if (req.page_token) {
        const m = /^v1:(\d{1,6})$/.exec(Buffer.from(req.page_token, "base64url").toString());
        if (!m) v.push({ field: "page_token", description: "not a page token from a previous ListVolumes response" });
        else offset = Number(m[1]);
      }
      if (v.length) throw errors.invalid(v);
      const runner = runnerId();
      const all = (await controller.volumes.list(ctx.tenant))
        .filter((x) => !req.states?.length || req.states.includes(stateOf(x.volume)))
        .filter(() => !req.runner_ids?.length || req.runner_ids.includes(runner))
        .sort((a, b) => (a.volume.id < b.volume.id ? -1 : 1));
      const n = size > 0 ? Math.min(size, 1000) : 100;
      const items = all.slice(offset, offset + n);
      const now = Date.now();
      return {
        volumes: items.map((x) => toProtoVolume(x.volume, x.attached, runner, now)),
        next_page_token: offset + n < all.length ? Buffer.from(`v1:${offset + n}`).toString("base64url") : "",
      };
    }),
    CreateVolume: wrap.unary("CreateVolume", () => {
      throw errors.volumesByOperator("CreateVolume");
    }),
    UpdateVolume: wrap.unary("UpdateVolume", () => {
      throw errors.volumesByOperator("UpdateVolume");
    }),
    DeleteVolume: wrap.unary("DeleteVolume", () => {
      throw errors.volumesByOperator("DeleteVolume");
    }),
  };
}
