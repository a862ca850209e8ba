/**
 * SandboxTemplateService: templates scoped to the caller's tenant (controller/templates.ts),
 * their specs checked as a sandbox spec would be, so a template that could never run is refused
 * when it is made, naming the field.
 */
import type protobuf from "protobufjs";
import { errors } from "../core/errors.js";
import type { Controller } from "../controller/controller.js";
import type { CallWrapper } from "./call.js";
import { guardRequest } from "./field-policy.js";
import type { PartialSandboxSpec__Output } from "./generated/coreweave/sandbox/v1/PartialSandboxSpec.js";
import type { SandboxTemplate__Output } from "./generated/coreweave/sandbox/v1/SandboxTemplate.js";
import type { SandboxTemplateServiceHandlers } from "./generated/coreweave/sandbox/v1/SandboxTemplateService.js";
import { LIMITS } from "./limits.js";
import { toDomainSpec, type SpecLimits } from "./spec.js";
import { applyOverrides, toProtoTemplate } from "./template-view.js";

/** Templates may leave the image to the run's overrides; checked with a stand-in where they do. */
const STAND_IN_IMAGE = "template-check/image:unset";

/** Refuses a template spec that no run could start (the guard's refused fields, then the spec's own checks). */
export function checkTemplateSpec(
  spec: PartialSandboxSpec__Output | undefined,
  at: string,
  sandboxSpecType: protobuf.Type,
  limits: SpecLimits,
): void {
  const full = applyOverrides(spec, undefined);
  guardRequest(sandboxSpecType, full, at);
  const containers = (full.containers ?? []).map((c) => ({ ...c, image: c.image || STAND_IN_IMAGE }));
  toDomainSpec({ ...full, containers: containers.length ? containers : [{ name: "main", image: STAND_IN_IMAGE }] } as never, limits, at);
}

function checkTemplate(t: SandboxTemplate__Output | undefined, at: string, type: protobuf.Type, limits: SpecLimits, needName: boolean) {
  if (!t) throw errors.invalidField(at, "required");
  if (t.sandbox_template_id) throw errors.invalidField(`${at}.sandbox_template_id`, "output only: Hangar assigns template ids");
  const name = t.display_name ?? "";
  if ((needName && !name) || name.length > LIMITS.displayNameLength || /[\u0000-\u001f\u007f]/.test(name))
    throw errors.invalidField(`${at}.display_name`, `required, at most ${LIMITS.displayNameLength} characters, no control characters`);
  if (t.spec) checkTemplateSpec(t.spec, `${at}.spec`, type, limits);
  if (t.attachments && Buffer.byteLength(JSON.stringify(t.attachments)) > 64 * 1024)
    throw errors.invalidField(`${at}.attachments`, "at most 64 KiB");
}

const templateId = (id: string | undefined, field = "sandbox_template_id") => {
  if (!id) throw errors.invalidField(field, "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField(field, `at most ${LIMITS.idLength} characters`);
  return id;
};

export function createTemplateService(
  controller: Controller,
  wrap: CallWrapper,
  sandboxSpecType: protobuf.Type,
  limits: SpecLimits,
): SandboxTemplateServiceHandlers {
  const tpl = controller.templates;
  return {
    CreateSandboxTemplate: wrap.unary("CreateSandboxTemplate", async (req, ctx) => {
      if ((req.request_id ?? "").length > LIMITS.requestIdLength)
        throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
      checkTemplate(req.sandbox_template, "sandbox_template", sandboxSpecType, limits, true);
      const t = req.sandbox_template as SandboxTemplate__Output;
      const rec = await tpl.create(
        ctx.tenant,
        { displayName: t.display_name ?? "", spec: t.spec ?? {}, ...(t.attachments ? { attachments: t.attachments } : {}) },
        req.request_id ?? "",
      );
      ctx.log.info({ template_id: rec.id, tenant: ctx.tenant }, "template created");
      return toProtoTemplate(rec);
    }),
    GetSandboxTemplate: wrap.unary("GetSandboxTemplate", async (req, ctx) =>
      toProtoTemplate(await tpl.get(ctx.tenant, templateId(req.sandbox_template_id), !!req.show_deleted)),
    ),
    ListSandboxTemplates: wrap.unary("ListSandboxTemplates", async (req, ctx) => {
      if ((req.page_size ?? 0) < 0) throw errors.invalidField("page_size", "must not be negative");
      const all = await tpl.list(ctx.tenant, !!req.show_deleted);
      const size = Math.min(req.page_size || 100, 1000);
      const start = req.page_token ? all.findIndex((t) => t.id === req.page_token) : 0;
      if (start < 0) throw errors.invalidField("page_token", "not a page token from a previous response");
      const page = all.slice(start, start + size);
      return { sandbox_templates: page.map(toProtoTemplate), next_page_token: all[start + size]?.id ?? "" };
    }),
    UpdateSandboxTemplate: wrap.unary("UpdateSandboxTemplate", async (req, ctx) => {
      const id = templateId(req.sandbox_template_id);
      const paths = req.update_mask?.paths ?? [];
      const known = ["display_name", "spec", "attachments"];
      const bad = paths.find((p) => !known.includes(p));
      if (bad !== undefined)
        throw errors.invalidField("update_mask.paths", `"${bad.slice(0, 64)}" cannot be updated (only ${known.join(", ")})`);
      const t = req.sandbox_template;
      checkTemplate(t, "sandbox_template", sandboxSpecType, limits, paths.length === 0 || paths.includes("display_name"));
      const set = (p: string) => (paths.length ? paths.includes(p) : p !== "attachments" || !!t?.attachments);
      const rec = await tpl.update(ctx.tenant, id, {
        ...(set("display_name") ? { displayName: t?.display_name ?? "" } : {}),
        ...(set("spec") ? { spec: t?.spec ?? {} } : {}),
        ...(set("attachments") ? { attachments: t?.attachments ?? undefined } : {}),
      });
      return toProtoTemplate(rec);
    }),
    DeleteSandboxTemplate: wrap.unary("DeleteSandboxTemplate", async (req, ctx) => {
      await tpl.remove(ctx.tenant, templateId(req.sandbox_template_id));
      return {};
    }),
  };
}
