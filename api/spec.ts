/**
 * CreateSandbox input: validates the proto spec and turns it into Hangar's domain spec.
 * Every problem becomes a BadRequest field violation (INVALID_ARGUMENT); features Hangar
 * does not offer get the typed reasons of the contract. Fields Hangar refuses whatever their
 * value were already refused by the field guard (api/field-policy.ts) before this runs.
 * Each part of the spec has its own converter (api/spec-*.ts), a pure function that appends
 * its violations; they run in the order the fields are listed here, so the violations do too.
 */
import { errors, type FieldViolation } from "../core/errors.js";
import type { SandboxSpec } from "../core/types.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { LIMITS } from "./limits.js";
import { containerNames, primaryIndex, sidecarOf } from "./spec-containers.js";
import { annotationsOf, tagsOf } from "./spec-labels.js";
import { networkOf } from "./spec-network.js";
import { placementOf } from "./spec-placement.js";
import { primaryOf } from "./spec-primary.js";
import { primaryMounts, volumesOf } from "./spec-volumes.js";

export interface SpecLimits {
  maxLifetimeSeconds: number;
  /** runtime_class_selection categories the operator mapped (HANGAR_RUNTIME_CLASS_SELECTION): category -> RuntimeClass, "" = the node's default. */
  runtimeClassSelection?: Record<string, string>;
  /** Secret stores the operator configured (HANGAR_SECRET_STORES); none: secret_stores is refused. */
  secretStores?: string[];
}

export function toDomainSpec(spec: SandboxSpec__Output | undefined, limits: SpecLimits, base = "sandbox.spec"): SandboxSpec {
  const v: FieldViolation[] = [];
  if (!spec) throw errors.invalidField(base, "required");
  const containers = spec.containers ?? [];
  const pi = primaryIndex(containers, base, v);
  const c = containers[pi] ?? {};
  const cf = `${base}.containers[${pi}]`;
  const main = primaryOf(c, cf, limits.secretStores ?? [], v);
  const tags = tagsOf(spec.tags ?? [], base, v);
  const place = placementOf(spec, limits, base, v);
  const annotations = annotationsOf(spec.annotations ?? {}, base, v);
  const net = networkOf(spec, base, v);
  const volumes = volumesOf(spec.volumes ?? [], base, v);
  const mounts = primaryMounts(c, volumes, cf, v);
  const names = containerNames(containers, pi, base, v);
  const sidecars = containers.flatMap((x, i) => (i === pi ? [] : [sidecarOf(x, `${base}.containers[${i}]`, volumes, v)]));
  if (v.length) throw errors.invalid(v);
  return {
    image: main.image,
    argv: main.argv,
    env: { ...main.env },
    workingDir: c.working_dir || undefined,
    files: main.files,
    requests: main.requests,
    limits: main.limits,
    tags: [...tags],
    maxLifetimeSeconds: place.maxLifetimeSeconds,
    runnerIds: [...place.runnerIds],
    denyEgress: net.denyEgress,
    ...(net.egress.length ? { egress: net.egress } : {}),
    denyIngress: net.denyIngress,
    annotations: { ...annotations },
    volumes: mounts,
    ...(place.runtimeClass ? { runtimeClass: place.runtimeClass } : {}),
    ...(main.secrets.length ? { secrets: main.secrets } : {}),
    ...(main.imagePull ? { imagePull: main.imagePull } : {}),
    ...(net.services.length ? { services: net.services } : {}),
    ...(main.startupProbe ? { startupProbe: main.startupProbe } : {}),
    ...(containers.length > 1 ? { primaryName: names[pi], sidecars } : c.name && c.name !== "main" ? { primaryName: c.name } : {}),
  };
}

/**
 * To a client a sandbox id is opaque: one that names no sandbox of the caller is NOT_FOUND
 * whatever its shape (the controller answers that), so ids cannot be probed. Only an empty
 * id or one over the size limit is a malformed request.
 */
export function sandboxId(id: string | undefined, field = "sandbox_id"): string {
  if (!id) throw errors.invalidField(field, "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField(field, `at most ${LIMITS.idLength} characters`);
  return id;
}
