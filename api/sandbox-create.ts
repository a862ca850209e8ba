/** The three ways to create a sandbox: a spec (CreateSandbox), a template with overrides, a Compose file. */
import type protobuf from "protobufjs";
import { errors } from "../core/errors.js";
import { shareToken } from "../core/share-token.js";
import type { SandboxRecord } from "../core/types.js";
import type { Controller } from "../controller/controller.js";
import type { CallContext } from "./call.js";
import { composeCreate, renameFields } from "./compose-request.js";
import { guardRequest } from "./field-policy.js";
import type { CreateSandboxFromFileRequest__Output } from "./generated/coreweave/sandbox/v1/CreateSandboxFromFileRequest.js";
import type { CreateSandboxFromTemplateRequest__Output } from "./generated/coreweave/sandbox/v1/CreateSandboxFromTemplateRequest.js";
import type { CreateSandboxRequest__Output } from "./generated/coreweave/sandbox/v1/CreateSandboxRequest.js";
import type { Sandbox } from "./generated/coreweave/sandbox/v1/Sandbox.js";
import { LIMITS } from "./limits.js";
import { toDomainSpec, type SpecLimits } from "./spec.js";
import { applyOverrides } from "./template-view.js";

export interface CreateOptions {
  specLimits: SpecLimits;
  /** The contract's SandboxSpec type: a template's spec with its overrides is guarded as CreateSandbox's is. */
  sandboxSpecType?: protobuf.Type;
  /** HANGAR_SHARE_TOKEN_KEY_FILE's key: a create answers a sandbox's share token (core/share-token.ts). */
  shareTokenKey?: Buffer;
}

type View = (r: SandboxRecord) => Sandbox;

function requestId(id: string | undefined): void {
  if ((id ?? "").length > LIMITS.requestIdLength) throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
}

function displayNameOf(name: string | undefined, field: string): string {
  const displayName = name ?? "";
  if (displayName.length > LIMITS.displayNameLength || /[\u0000-\u001f\u007f]/.test(displayName))
    throw errors.invalidField(field, `at most ${LIMITS.displayNameLength} characters, no control characters`);
  return displayName;
}

export function createCreateHandlers(controller: Controller, o: CreateOptions, view: View) {
  // Only a create's answer carries the share token (a replay with the same request_id recomputes
  // it); Get and List never do (the SDK: "Get, list, and from_id omit it").
  const created = (r: SandboxRecord) => {
    const v = view(r);
    return o.shareTokenKey && r.spec.services?.some((s) => s.shareToken)
      ? { ...v, endpoint_share_token: shareToken(o.shareTokenKey, r.id) }
      : v;
  };
  return {
    async createSandbox(req: CreateSandboxRequest__Output, ctx: CallContext) {
      requestId(req.request_id);
      if (!req.sandbox) throw errors.invalidField("sandbox", "required");
      if (req.sandbox.sandbox_id) throw errors.invalidField("sandbox.sandbox_id", "output only: Hangar assigns sandbox ids");
      const displayName = displayNameOf(req.sandbox.display_name, "sandbox.display_name");
      const spec = toDomainSpec(req.sandbox.spec, o.specLimits);
      const r = await controller.create(ctx.tenant, {
        spec,
        echo: req.sandbox.spec,
        requestId: req.request_id ?? "",
        displayName: displayName || undefined,
      });
      ctx.log.info({ sandbox_id: r.id, tenant: ctx.tenant, image: spec.image }, "sandbox created");
      return created(r);
    },
    async fromTemplate(req: CreateSandboxFromTemplateRequest__Output, ctx: CallContext) {
      requestId(req.request_id);
      if (!req.template_id) throw errors.invalidField("template_id", "required");
      const displayName = displayNameOf(req.display_name, "display_name");
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
    },
    async fromFile(req: CreateSandboxFromFileRequest__Output, ctx: CallContext) {
      const c = composeCreate(req, o.specLimits);
      const services = (c.echo.containers ?? []).map((x) => x.name ?? "");
      const r = await controller
        .create(ctx.tenant, { spec: c.spec, echo: c.echo, requestId: req.request_id ?? "", displayName: c.displayName })
        .catch((e: unknown) => {
          throw renameFields(e, services);
        });
      ctx.log.info({ sandbox_id: r.id, tenant: ctx.tenant, services: services.length }, "sandbox created from a Compose file");
      return view(r);
    },
  };
}
