/**
 * Shared templates: sandbox templates the operator defines for every tenant
 * (HANGAR_SHARED_TEMPLATES_FILE, YAML or JSON). Read once at start; each spec is checked field by
 * field against the contract's PartialSandboxSpec (an unknown key fails the start, naming it) and
 * then as a template a tenant would make, so a shared template that could never run stops Hangar
 * from starting instead of failing every sandbox made from it.
 */
import protobuf from "protobufjs";
import { parse } from "yaml";
import { SHARED_TEMPLATE_ID, type TemplateRecord } from "../core/templates.js";
import { loadContractRoot } from "./proto.js";
import type { SpecLimits } from "./spec.js";
import { checkTemplateSpec } from "./template-service.js";

export const SHARED_TENANT = "";

/** Keys the message type does not have, with their paths (protobufjs' fromObject would drop them silently). */
function unknownKeys(type: protobuf.Type, x: unknown, at: string): string[] {
  if (!x || typeof x !== "object" || Array.isArray(x)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(x)) {
    const f = type.fields[k];
    if (!f) {
      out.push(`${at}.${k}`);
      continue;
    }
    f.resolve();
    const t = f.resolvedType;
    if (!(t instanceof protobuf.Type) || t.fullName.startsWith(".google.")) continue;
    if (f.map && v && typeof v === "object")
      for (const [mk, mv] of Object.entries(v)) out.push(...unknownKeys(t, mv, `${at}.${k}[${JSON.stringify(mk)}]`));
    else if (Array.isArray(v)) v.forEach((y, i) => out.push(...unknownKeys(t, y, `${at}.${k}[${i}]`)));
    else out.push(...unknownKeys(t, v, `${at}.${k}`));
  }
  return out;
}

export function parseSharedTemplates(text: string, protoDir: string, limits: SpecLimits, nowMs = Date.now()): TemplateRecord[] {
  let doc: unknown;
  try {
    doc = parse(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (e) {
    throw new Error(`not YAML or JSON: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!Array.isArray(doc)) throw new Error("expected a list of templates ({id, display_name, spec})");
  const root = loadContractRoot(protoDir);
  const partial = root.lookupType("coreweave.sandbox.v1.PartialSandboxSpec");
  const full = root.lookupType("coreweave.sandbox.v1.SandboxSpec");
  const seen = new Set<string>();
  return doc.map((t: unknown, i) => {
    const at = `[${i}]`;
    if (!t || typeof t !== "object") throw new Error(`${at}: a map with id, display_name and spec`);
    const { id, display_name: name, spec, ...rest } = t as Record<string, unknown>;
    if (Object.keys(rest).length) throw new Error(`${at}: unknown key ${Object.keys(rest)[0]} (a template has id, display_name, spec)`);
    if (typeof id !== "string" || !SHARED_TEMPLATE_ID.test(id))
      throw new Error(`${at}.id: a DNS label (a-z, 0-9, '-'), at most 64: the id sandboxes are run from`);
    if (seen.has(id)) throw new Error(`${at}.id: ${id} appears twice`);
    seen.add(id);
    if (typeof name !== "string" || !name || name.length > 256) throw new Error(`${at}.display_name: required, at most 256 characters`);
    const bad = unknownKeys(partial, spec ?? {}, `${at}.spec`);
    if (bad.length) throw new Error(`${bad[0]}: not a field of PartialSandboxSpec`);
    // Normalised as the API reads requests (keepCase, enums and 64-bit numbers as strings).
    const normal = partial.toObject(partial.fromObject((spec ?? {}) as Record<string, unknown>), {
      longs: String,
      enums: String,
      defaults: false,
      oneofs: true,
    });
    try {
      checkTemplateSpec(normal, `${at}.spec`, full, limits);
    } catch (e) {
      throw new Error(`template ${id}: ${(e as Error).message}`);
    }
    return { id, tenant: SHARED_TENANT, displayName: name, spec: normal, revision: 1, createdAtMs: nowMs, updatedAtMs: nowMs };
  });
}
