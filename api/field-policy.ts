/**
 * Every request field of every RPC Hangar serves is honoured or refused, never ignored.
 * FIELD_RULES classifies each field reachable from SandboxService and DiscoveryService
 * requests; METHOD_RULES refuses whole methods. test/unit/field-policy.test.ts walks the
 * descriptors and fails on a field without a rule (a new SDK field cannot slip through),
 * and docs/fields.md is generated from these tables (scripts/gen-field-table.mjs).
 *
 * At run time the guard refuses a request that sets a `refused` field to anything but its
 * default (INVALID_ARGUMENT naming the field, or UNIMPLEMENTED where the rule says so);
 * `checked` fields are decided by the handler's own validation (api/spec.ts and the
 * handlers), which owns their whole subtree; `output` fields are OUTPUT_ONLY in the
 * contract and ignored on input (AIP-203).
 *
 * The rules themselves are tables by area in api/field-policy/ (create, container, network,
 * storage, lifecycle, exec, discovery, templates, compose); this file assembles them and guards.
 */
import protobuf from "protobufjs";
import { errors, type FieldViolation } from "../core/errors.js";
import { COMPOSE_RULES } from "./field-policy/compose.js";
import { CONTAINER_RULES } from "./field-policy/container.js";
import { CREATE_RULES } from "./field-policy/create.js";
import { DISCOVERY_RULES } from "./field-policy/discovery.js";
import { EXEC_RULES } from "./field-policy/exec.js";
import { LIFECYCLE_RULES } from "./field-policy/lifecycle.js";
import { NETWORK_RULES } from "./field-policy/network.js";
import { SPEC_VOLUME_RULES, STORAGE_RULES } from "./field-policy/storage.js";
import { TEMPLATE_RULES } from "./field-policy/templates.js";
import type { Rule } from "./field-policy/rule.js";

export type { Rule, TestRef } from "./field-policy/rule.js";

/** Services whose requests the guard walks; every other service is refused method by method. */
export const GUARDED_SERVICES = [
  "coreweave.sandbox.v1.SandboxService",
  "coreweave.sandbox.v1.DiscoveryService",
  "coreweave.sandbox.v1.SandboxTemplateService",
  "coreweave.sandbox.v1.VolumeService",
];

/** Methods of the guarded services refused as a whole (their fields are never read). */
export const METHOD_RULES: Record<string, string> = {
  "VolumeService.CreateVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): volumes are registered by the operator (a PersistentVolumeClaim labelled hangar.dev/volume-tenant=<tenant>; HANGAR_LOCAL_VOLUMES), not through the API",
  "VolumeService.UpdateVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): the operator changes a registration (the claim's annotations; HANGAR_LOCAL_VOLUMES)",
  "VolumeService.DeleteVolume":
    "FAILED_PRECONDITION (CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED): the operator removes a registration (the claim's label; HANGAR_LOCAL_VOLUMES)",
  "SandboxService.GetSandboxBuildLogs": "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): Hangar builds no images",
  "SandboxService.ConnectSandbox":
    "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): no direct data plane; the SDK's AUTO mode then uses this API (ADR 0011)",
};

/** Services refused as a whole (server.ts): every method answers with this. */
export const SERVICE_RULES: Record<string, string> = {
  "coreweave.sandbox.v1.SettingsService":
    "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED); the snapshot-bucket methods too: snapshots are kept in HANGAR_SNAPSHOT_DIR, not a bucket",
  "coreweave.sandbox.v1.SandboxDataPlaneService": "UNIMPLEMENTED (CWSANDBOX_NOT_IMPLEMENTED): no direct data plane (ADR 0011)",
};

/** Every field's rule, by `<Message>.<field>`; each area's table lives in api/field-policy/. */
export const FIELD_RULES: Record<string, Rule> = {
  ...CREATE_RULES,
  ...CONTAINER_RULES,
  ...SPEC_VOLUME_RULES,
  ...NETWORK_RULES,
  ...LIFECYCLE_RULES,
  ...EXEC_RULES,
  ...DISCOVERY_RULES,
  ...TEMPLATE_RULES,
  ...COMPOSE_RULES,
  ...STORAGE_RULES,
};

// A template's PartialSandboxSpec / PartialContainer carry SandboxSpec's / Container's fields, with their rules.
for (const [k, rule] of Object.entries(FIELD_RULES)) {
  const m = /^(SandboxSpec|Container)\.(.+)$/.exec(k);
  if (m) FIELD_RULES[`Partial${m[1]}.${m[2]}`] ??= rule;
}

/** A value that is its type's default: absent, empty, zero, false or the enum's zero value. */
function isDefault(f: protobuf.Field, v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return v.length === 0;
  if (f.map) return Object.keys(v as object).length === 0;
  if (f.resolvedType instanceof protobuf.Enum) return v === f.resolvedType.valuesById[0] || v === 0;
  if (f.resolvedType instanceof protobuf.Type) return false;
  return v === "" || v === 0 || v === "0" || v === false;
}

export interface RuleTrip {
  field: string;
  rule: Extract<Rule, { refused: string }>;
}

/** Every refused field the message sets, with its path (`sandbox.spec.containers[0].primary`). */
export function refusedFields(type: protobuf.Type, msg: unknown, base = ""): RuleTrip[] {
  const out: RuleTrip[] = [];
  if (!msg || typeof msg !== "object") return out;
  for (const f of type.fieldsArray) {
    f.resolve();
    const v = (msg as Record<string, unknown>)[f.name];
    if (isDefault(f, v)) continue;
    const at = base ? `${base}.${f.name}` : f.name;
    const rule = FIELD_RULES[`${type.name}.${f.name}`] ?? { refused: "Hangar does not know this field" };
    if ("refused" in rule) {
      out.push({ field: at, rule });
      continue;
    }
    if (!("honoured" in rule)) continue; // checked: the handler owns the subtree; output: ignored on input
    const t = f.resolvedType;
    if (!(t instanceof protobuf.Type) || t.fullName.startsWith(".google.")) continue;
    if (f.map) for (const [k, x] of Object.entries(v as object)) out.push(...refusedFields(t, x, `${at}[${JSON.stringify(k)}]`));
    else if (Array.isArray(v)) v.forEach((x, i) => out.push(...refusedFields(t, x, `${at}[${i}]`)));
    else out.push(...refusedFields(t, v, at));
  }
  return out;
}

/** Throws the typed refusal for a request that sets refused fields: UNIMPLEMENTED first, else every violation at once. */
export function guardRequest(type: protobuf.Type, msg: unknown, base = ""): void {
  const trips = refusedFields(type, msg, base);
  if (!trips.length) return;
  const unimpl = trips.find((t) => t.rule.unimplemented);
  if (unimpl) throw errors.notImplemented(`${unimpl.rule.refused} (field ${unimpl.field})`);
  const v: FieldViolation[] = trips.map((t) => ({ field: t.field, description: `not supported by this Hangar: ${t.rule.refused}` }));
  throw errors.invalid(v);
}
