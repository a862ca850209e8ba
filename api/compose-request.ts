/**
 * CreateSandboxFromFile: the request -> the Compose file's translated spec (api/compose.ts),
 * checked exactly as CreateSandbox's, then the domain spec's Compose parts (start order, image
 * entrypoints, service names on loopback). Refusals name the request's fields and the file's
 * services, never `sandbox.spec` (which the caller did not send).
 */
import { createHash } from "node:crypto";
import { errors, HangarError, isHangarError, type FieldViolation } from "../core/errors.js";
import { registryOf } from "../core/secrets.js";
import type { SandboxSpec } from "../core/types.js";
import { parseCompose } from "./compose.js";
import type { CreateSandboxFromFileRequest__Output } from "./generated/coreweave/sandbox/v1/CreateSandboxFromFileRequest.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { LIMITS } from "./limits.js";
import { wireField } from "./wire-fields.js";
import { toDomainSpec, type SpecLimits } from "./spec.js";

export interface ComposeCreate {
  spec: SandboxSpec;
  echo: SandboxSpec__Output;
  displayName?: string;
}

/** `sandbox.spec.containers[i]...` -> `contents.services.<service>...`; `sandbox.spec.x` -> `x` (the request's own field). */
export function renameFields(e: unknown, services: string[]): unknown {
  if (!isHangarError(e) || !e.violations.length) return e;
  const rename = (f: string) =>
    wireField(f) // a domain subject from below (a placement refusal) first becomes its sandbox.spec field
      .replace(/^sandbox\.spec\.containers\[(\d+)\]/, (_, i: string) => `contents.services.${services[Number(i)] ?? i}`)
      .replace(/^sandbox\.spec\.volumes\[(\d+)\]/, "contents.volumes")
      .replace(/^sandbox\.spec\./, "");
  const v: FieldViolation[] = e.violations.map((x) => ({ field: rename(x.field), description: x.description }));
  if (e.code === "INVALID_ARGUMENT") return errors.invalid(v);
  return new HangarError({
    code: e.code,
    message: v.map((x) => `${x.field}: ${x.description}`).join("; "),
    ...(e.reason ? { reason: e.reason } : {}),
    metadata: { ...e.metadata },
    violations: v,
  });
}

export function composeCreate(req: CreateSandboxFromFileRequest__Output, limits: SpecLimits): ComposeCreate {
  if ((req.request_id ?? "").length > LIMITS.requestIdLength)
    throw errors.invalidField("request_id", `at most ${LIMITS.requestIdLength} characters`);
  const displayName = req.display_name ?? "";
  if (displayName.length > LIMITS.displayNameLength || /[\u0000-\u001f\u007f]/.test(displayName))
    throw errors.invalidField("display_name", `at most ${LIMITS.displayNameLength} characters, no control characters`);
  const type = req.type ?? "SANDBOX_FILE_TYPE_UNSPECIFIED";
  if (type === "SANDBOX_FILE_TYPE_UNSPECIFIED") throw errors.invalidField("type", "required: SANDBOX_FILE_TYPE_COMPOSE");
  if (type !== "SANDBOX_FILE_TYPE_COMPOSE")
    throw errors.notImplemented(`file type ${String(type)} (field type): Hangar reads Compose files`);
  const control = req.control ?? "CONTROL_UNSPECIFIED";
  if (control === "CONTROL_CONTAINER_ENGINE")
    throw errors.notImplemented(
      "CONTROL_CONTAINER_ENGINE (field control: a Docker engine inside a sandbox needs a privileged or nested-virtualisation runtime, which sandboxes never get; with control PLATFORM Hangar runs the file's services as the sandbox's own containers)",
    );
  if (control !== "CONTROL_PLATFORM" && control !== "CONTROL_UNSPECIFIED")
    throw errors.invalidField("control", `unknown control ${String(control)}`);
  const contents = Buffer.from(req.contents ?? Buffer.alloc(0));
  if (!contents.length) throw errors.invalidField("contents", "required: the Compose file's bytes");
  const c = parseCompose({
    contents,
    primaryService: req.primary_service ?? "",
    imageOverrides: { ...(req.image_overrides ?? {}) },
    defaultResources: req.default_resources,
  });
  const containers = c.spec.containers ?? [];
  // One credential per registry, for the primary service's image (a sidecar's image comes from the node's credentials).
  const v: FieldViolation[] = [];
  const seen = new Set<string>();
  (req.image_pull_credentials ?? []).forEach((p, i) => {
    const registry = (p.registry ?? "").replace(/^https?:\/\//, "").replace(/\/+$/, "");
    const at = `image_pull_credentials[${i}]`;
    if (seen.has(registry))
      return v.push({ field: `${at}.registry`, description: `${registry} is named twice (one credential per registry)` });
    seen.add(registry);
    const users = containers.filter((x) => registryOf(x.image ?? "") === registry).map((x) => x.name as string);
    if (!users.length) return v.push({ field: `${at}.registry`, description: `no service's image comes from ${registry}` });
    if (!users.includes(c.primary))
      return v.push({
        field: `${at}.registry`,
        description: `only ${users.join(", ")} pull from ${registry}: pull credentials apply to the primary service's image on this Hangar`,
      });
    const primary = containers.find((x) => x.name === c.primary);
    if (primary) primary.image_pull_credentials = p;
  });
  if (v.length) throw errors.invalid(v);
  const echo = {
    ...c.spec,
    tags: req.tags ?? [],
    max_lifetime_seconds: req.max_lifetime_seconds ?? 0,
    mode: req.mode ?? "SANDBOX_MODE_UNSPECIFIED",
    runner_ids: req.runner_ids ?? [],
    annotations: req.annotations ?? {},
    ...(req.network ? { network: req.network } : {}),
  } as SandboxSpec__Output;
  let spec: SandboxSpec;
  try {
    spec = toDomainSpec(echo, limits, "sandbox.spec");
  } catch (e) {
    throw renameFields(e, c.services);
  }
  // The Compose parts: the argv each service runs (and whether the image's ENTRYPOINT runs it), the start order, names on loopback.
  const primaryRun = c.run.argv[c.primary] ?? { argv: [], imageEntrypoint: true };
  spec.argv = primaryRun.argv;
  if (primaryRun.imageEntrypoint || !primaryRun.argv.length) spec.imageEntrypoint = true;
  const sidecars = new Map((spec.sidecars ?? []).map((s) => [s.name, s]));
  spec.sidecars = c.sidecarOrder.flatMap((name) => {
    const s = sidecars.get(name);
    if (!s) return [];
    const r = c.run.argv[name] ?? { argv: [], imageEntrypoint: true };
    return [{ ...s, argv: r.argv, ...(r.imageEntrypoint || !r.argv.length ? { imageEntrypoint: true } : {}) }];
  });
  if (!spec.sidecars.length) delete spec.sidecars;
  if (c.services.length > 1) spec.hostAliases = [...c.services];
  spec.compose = { digest: createHash("sha256").update(contents).digest("hex") };
  const name = displayName || (c.project ?? "").slice(0, LIMITS.displayNameLength).replace(/[\u0000-\u001f\u007f]/g, "");
  return { spec, echo, ...(name ? { displayName: name } : {}) };
}
