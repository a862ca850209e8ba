/** Where and how long a sandbox runs: its lifetime, the runners it is pinned to, its mode and RuntimeClass. */
import type { FieldViolation } from "../core/errors.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { CONTROL } from "./spec-text.js";

export interface Placement {
  maxLifetimeSeconds: number;
  runnerIds: string[];
  runtimeClass: string;
}

/** runtime_class, or the operator's RuntimeClass for a runtime_class_selection category (HANGAR_RUNTIME_CLASS_SELECTION). */
function runtimeClassOf(spec: SandboxSpec__Output, mapped: Record<string, string>, base: string, v: FieldViolation[]): string {
  const runtimeClass = spec.runtime_class ?? "";
  if (runtimeClass && !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(runtimeClass))
    v.push({
      field: `${base}.runtime_class`,
      description: "must be a RuntimeClass name (lowercase DNS subdomain, at most 253 characters)",
    });
  const selection = spec.runtime_class_selection ?? "RUNTIME_CLASS_UNSPECIFIED";
  if (selection === "RUNTIME_CLASS_UNSPECIFIED") return runtimeClass;
  const category = String(selection).replace(/^RUNTIME_CLASS_/, "");
  if (runtimeClass)
    v.push({ field: `${base}.runtime_class_selection`, description: "set runtime_class or runtime_class_selection, not both" });
  else if (!(category in mapped))
    v.push({
      field: `${base}.runtime_class_selection`,
      description: `${category} is not mapped on this Hangar (mapped: ${Object.keys(mapped).join(", ") || "none"}; HANGAR_RUNTIME_CLASS_SELECTION)`,
    });
  else return mapped[category] ?? "";
  return runtimeClass;
}

export function placementOf(
  spec: SandboxSpec__Output,
  limits: { maxLifetimeSeconds: number; runtimeClassSelection?: Record<string, string> },
  base: string,
  v: FieldViolation[],
): Placement {
  const lifetime = spec.max_lifetime_seconds ?? 0;
  if (lifetime < 0 || lifetime > limits.maxLifetimeSeconds)
    v.push({ field: `${base}.max_lifetime_seconds`, description: `must be between 0 (default) and ${limits.maxLifetimeSeconds}` });
  const runnerIds = spec.runner_ids ?? [];
  runnerIds.forEach((r, i) => {
    if (!r || r.length > 253 || CONTROL.test(r))
      v.push({ field: `${base}.runner_ids[${i}]`, description: "must be a runner id from ListAvailableRunners" });
  });
  const mode = spec.mode ?? "SANDBOX_MODE_UNSPECIFIED";
  if (typeof mode !== "string") v.push({ field: `${base}.mode`, description: `unknown mode ${String(mode)}` });
  else if (mode === "SANDBOX_MODE_SERVERLESS" && runnerIds.length)
    v.push({ field: `${base}.runner_ids`, description: "serverless mode cannot be pinned to runners" });
  const runtimeClass = runtimeClassOf(spec, limits.runtimeClassSelection ?? {}, base, v);
  return { maxLifetimeSeconds: lifetime, runnerIds, runtimeClass };
}
