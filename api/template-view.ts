/** Templates on the wire: the stored record <-> proto, and run-time overrides (pure, table-tested). */
import type { TemplateRecord } from "../core/templates.js";
import type { PartialSandboxSpec__Output } from "./generated/coreweave/sandbox/v1/PartialSandboxSpec.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import type { SandboxTemplate } from "./generated/coreweave/sandbox/v1/SandboxTemplate.js";
import { timestamp } from "./sandbox-view.js";

export function toProtoTemplate(t: TemplateRecord): SandboxTemplate {
  return {
    sandbox_template_id: t.id,
    display_name: t.displayName,
    spec: (t.spec ?? {}) as SandboxTemplate["spec"],
    revision: String(t.revision),
    create_time: timestamp(t.createdAtMs),
    update_time: timestamp(t.updatedAtMs),
    ...(t.deletedAtMs !== undefined ? { delete_time: timestamp(t.deletedAtMs), deleted: true } : {}),
    create_user_id: t.tenant || "operator (shared)",
    ...(t.attachments ? { attachments: t.attachments as SandboxTemplate["attachments"] } : {}),
  };
}

/** Set on the wire (proto3 cannot tell a zero from an unset field, except `optional` ones). */
const present = (v: unknown): boolean => {
  if (v === undefined || v === null || v === "" || v === 0 || v === "0" || v === false) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object" && !Buffer.isBuffer(v)) return Object.keys(v as object).length > 0;
  return true;
};

/**
 * The spec a sandbox from a template runs: every top-level field the overrides set replaces the
 * template's whole (replace on presence, as the SDK documents: the container list is replaced,
 * never patched). A template's partial spec has SandboxSpec's field names, so the result is one.
 */
export function applyOverrides(
  template: PartialSandboxSpec__Output | undefined,
  overrides: PartialSandboxSpec__Output | undefined,
): SandboxSpec__Output {
  const out: Record<string, unknown> = { ...(template ?? {}) };
  for (const [k, v] of Object.entries(overrides ?? {})) if (present(v)) out[k] = v;
  return out as SandboxSpec__Output;
}
