/**
 * SandboxSpec.containers: which one is the primary (its exit ends the sandbox), the names of
 * all of them, and each sidecar beside the primary.
 */
import type { FieldViolation } from "../core/errors.js";
import type { SidecarSpec } from "../core/types.js";
import { reservedMountPath } from "../core/volumes.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import { LIMITS } from "./limits.js";
import { probeOf } from "./spec-probe.js";
import { quantities } from "./spec-resources.js";
import { ENV_NAME, envBytes, hasNul, validPath } from "./spec-text.js";

const CONTAINER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The index of the primary container, with the count and primary flags checked. */
export function primaryIndex(containers: Container__Output[], base: string, v: FieldViolation[]): number {
  if (!containers.length) v.push({ field: `${base}.containers`, description: "required: at least one container" });
  if (containers.length > LIMITS.containers)
    v.push({ field: `${base}.containers`, description: `at most ${LIMITS.containers} containers` });
  // With more than one, exactly one is the primary (its exit ends the sandbox); the others are sidecars.
  const primaries = containers.flatMap((x, i) => (x.primary === true ? [i] : []));
  if (containers.length > 1 && primaries.length !== 1)
    v.push({
      field: `${base}.containers`,
      description: `exactly one container must be primary (got ${primaries.length} of ${containers.length})`,
    });
  return containers.length > 1 ? (primaries[0] ?? 0) : 0;
}

/** The containers' names: with more than one, each a unique DNS label, and "main" only for the primary. */
export function containerNames(containers: Container__Output[], pi: number, base: string, v: FieldViolation[]): string[] {
  const names = containers.map((x) => x.name ?? "");
  if (containers.length > 1) {
    names.forEach((n, i) => {
      if (!CONTAINER_NAME.test(n))
        v.push({
          field: `${base}.containers[${i}].name`,
          description: "required with more than one container: a DNS label (a-z, 0-9, '-'), at most 63",
        });
      else if (names.indexOf(n) !== i) v.push({ field: `${base}.containers[${i}].name`, description: `${n} is used twice` });
      else if (n === "main" && i !== pi)
        v.push({ field: `${base}.containers[${i}].name`, description: '"main" is the primary container\'s name here' });
    });
  }
  return names;
}

/** A container beside the primary: what it runs and mounts; what only the primary can have is refused naming the field. */
export function sidecarOf(
  x: Container__Output,
  at: string,
  volumes: { name: string; size?: string; registered?: unknown }[],
  v: FieldViolation[],
): SidecarSpec {
  const image = x.image ?? "";
  if (!image) v.push({ field: `${at}.image`, description: "required" });
  else if (image.length > LIMITS.imageLength || /[\s\u0000]/.test(image))
    v.push({ field: `${at}.image`, description: `must be an image reference of at most ${LIMITS.imageLength} characters without spaces` });
  const argv = x.command ? [x.command, ...(x.args ?? [])] : [...(x.args ?? [])];
  if (argv.length > LIMITS.args || argv.some(hasNul) || argv.reduce((a, s) => a + Buffer.byteLength(s), 0) > LIMITS.argvBytes)
    v.push({ field: `${at}.args`, description: `at most ${LIMITS.args} arguments, ${LIMITS.argvBytes} bytes, no NUL` });
  const env = x.environment_variables ?? {};
  if (Object.keys(env).length > LIMITS.env || envBytes(env) > LIMITS.envBytes)
    v.push({ field: `${at}.environment_variables`, description: `at most ${LIMITS.env} variables, ${LIMITS.envBytes} bytes` });
  for (const [k, val] of Object.entries(env))
    if (!ENV_NAME.test(k) || hasNul(val))
      v.push({ field: `${at}.environment_variables[${JSON.stringify(k.slice(0, 64))}]`, description: "not a valid environment variable" });
  if (x.working_dir && validPath(x.working_dir)) v.push({ field: `${at}.working_dir`, description: validPath(x.working_dir) as string });
  const only = (field: string, set: boolean) =>
    set &&
    v.push({ field: `${at}.${field}`, description: "only the primary container takes this (put it on the container with primary=true)" });
  only("files", !!x.files?.length);
  only("secret_stores", !!x.secret_stores?.length);
  only("image_pull_credentials", !!x.image_pull_credentials);
  const rr = x.resource_requirements;
  const requests = quantities(rr?.requests ?? x.resources ?? undefined, `${at}.resource_requirements.requests`, v);
  const limits = quantities(rr?.limits ?? x.resources ?? undefined, `${at}.resource_requirements.limits`, v);
  if (requests.gpuCount || limits.gpuCount) v.push({ field: `${at}.resources.gpu`, description: "GPUs go to the primary container only" });
  const mounts = (x.volume_mounts ?? []).map((m, i) => {
    if (!volumes.some((vol) => vol.name === m.volume))
      v.push({ field: `${at}.volume_mounts[${i}].volume`, description: `no volume named "${m.volume ?? ""}" in spec.volumes` });
    const p = validPath(m.mount_path ?? "") ?? reservedMountPath(m.mount_path ?? "");
    if (p) v.push({ field: `${at}.volume_mounts[${i}].mount_path`, description: p });
    if (m.sub_path)
      v.push({ field: `${at}.volume_mounts[${i}].sub_path`, description: "sub paths are offered on the primary container only" });
    const size = volumes.find((vol) => vol.name === m.volume)?.size;
    if (volumes.find((vol) => vol.name === m.volume)?.registered)
      v.push({ field: `${at}.volume_mounts[${i}].volume`, description: "registered volumes mount on the primary container only" });
    return { name: m.volume ?? "", mountPath: m.mount_path ?? "", ...(size ? { size } : {}), ...(m.read_only ? { readOnly: true } : {}) };
  });
  const startupProbe = probeOf(x.startup_probe, `${at}.startup_probe`, v);
  return {
    name: x.name ?? "",
    image,
    argv,
    env: { ...env },
    ...(x.working_dir ? { workingDir: x.working_dir } : {}),
    requests,
    limits,
    volumes: mounts,
    ...(startupProbe ? { startupProbe } : {}),
  };
}
