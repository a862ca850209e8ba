/**
 * CreateSandbox input: validates the proto spec and turns it into Hangar's domain spec.
 * Every problem becomes a BadRequest field violation (INVALID_ARGUMENT); features Hangar
 * does not offer get the typed reasons of the contract. Fields Hangar refuses whatever their
 * value were already refused by the field guard (api/field-policy.ts) before this runs.
 */
import { errors, type FieldViolation } from "../core/errors.js";
import { parseQuantity } from "../core/quantity.js";
import type { Quantities, SandboxSpec, ServicePort, SidecarSpec } from "../core/types.js";
import { egressGrants } from "./egress-rules.js";
import { PROBE_DEFAULTS, type StartupProbe } from "../core/probe.js";
import { registryOf, type PullCredentials, type SecretRef } from "../core/secrets.js";
import { reservedMountPath } from "../core/volumes.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import type { Resources__Output } from "./generated/coreweave/sandbox/v1/Resources.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { DEFAULT_MAIN_ARGV } from "../core/types.js";

export const LIMITS = {
  tags: 64,
  tagLength: 256,
  args: 4096,
  argvBytes: 256 * 1024,
  env: 1024,
  envBytes: 256 * 1024,
  filesBytes: 16 * 1024 * 1024,
  pathLength: 4096,
  imageLength: 512,
  requestIdLength: 128,
  displayNameLength: 256,
  idLength: 256,
  annotations: 128,
  annotationBytes: 64 * 1024,
  volumes: 32,
  egressRules: 32,
  egressExcepts: 32,
  egressPorts: 32,
  secrets: 64,
  services: 16,
  containers: 16,
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const VOLUME_NAME = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const hasNul = (s: string) => s.includes("\u0000");
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Bytes of an environment's names and values, as the kernel counts them against its argument space. */
export const envBytes = (env: Record<string, string>) =>
  Object.entries(env).reduce((a, [k, v]) => a + Buffer.byteLength(k) + Buffer.byteLength(v) + 2, 0);

export function validPath(p: string): string | undefined {
  if (!p) return "must not be empty";
  if (hasNul(p)) return "must not contain NUL";
  if (!p.startsWith("/")) return "must be an absolute path";
  if (p.length > LIMITS.pathLength) return `must be at most ${LIMITS.pathLength} characters`;
  return undefined;
}

function quantities(r: Resources__Output | undefined, field: string, v: FieldViolation[]): Quantities {
  const q: Quantities = {};
  if (!r) return q;
  for (const k of ["cpu", "memory"] as const) {
    const s = r[k];
    if (!s) continue;
    const n = parseQuantity(s);
    if (n === undefined || n < 0)
      v.push({ field: `${field}.${k}`, description: `"${s.slice(0, 64)}" is not a Kubernetes quantity (e.g. "500m", "512Mi")` });
    else q[k] = s;
  }
  if (r.gpu) {
    // Which runner and node can give them is the controller's placement (controller/placement.ts).
    const count = Number(r.gpu.count ?? 0);
    if (!Number.isSafeInteger(count) || count < 0 || count > 64)
      v.push({ field: `${field}.gpu.count`, description: "must be an integer from 0 to 64" });
    else if (count > 0) q.gpuCount = count;
    const type = r.gpu.type ?? "";
    if (type && (type.length > 128 || !/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/.test(type)))
      v.push({
        field: `${field}.gpu.type`,
        description: 'a GPU model such as "H100" or "A100-80GB" (letters, digits, " ._-", at most 128)',
      });
    else if (type) q.gpuType = type;
    const mem = Number(r.gpu.memory_gb ?? 0);
    if (!Number.isSafeInteger(mem) || mem < 0 || mem > 4096)
      v.push({ field: `${field}.gpu.memory_gb`, description: "must be an integer from 0 to 4096 (GB per GPU)" });
    else if (mem > 0) q.gpuMemoryGb = mem;
    if ((q.gpuType || q.gpuMemoryGb) && !q.gpuCount)
      v.push({ field: `${field}.gpu.count`, description: "a GPU type or memory needs a count of at least 1" });
  }
  return q;
}

export interface SpecLimits {
  maxLifetimeSeconds: number;
  /** runtime_class_selection categories the operator mapped (HANGAR_RUNTIME_CLASS_SELECTION): category -> RuntimeClass, "" = the node's default. */
  runtimeClassSelection?: Record<string, string>;
  /** Secret stores the operator configured (HANGAR_SECRET_STORES); none: secret_stores is refused. */
  secretStores?: string[];
}

const SECRET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}$/;

/**
 * SandboxSpec.services -> ports (an unset visibility is PRIVATE; PUBLIC ones are HTTP over TCP,
 * published through the operator's Gateway where one is configured: placement refuses them where
 * not; an endpoint makes a PUBLIC port HTTPS, open or share-token, or TLS passthrough). PUBLIC and
 * PRIVATE on one sandbox are refused as the SDK expects (CWSANDBOX_NOT_IMPLEMENTED).
 */
function servicePorts(services: NonNullable<SandboxSpec__Output["services"]>, base: string, v: FieldViolation[]): ServicePort[] {
  const out: ServicePort[] = [];
  services.forEach((svc, i) => {
    const at = `${base}.services[${i}]`;
    const kind = svc.endpoint ? (svc.endpoint.kind ?? "ENDPOINT_KIND_UNSPECIFIED") : undefined;
    const tls = kind === "ENDPOINT_KIND_TLS_PASSTHROUGH";
    const https = kind === "ENDPOINT_KIND_HTTPS";
    const auth = svc.endpoint?.auth ?? "ENDPOINT_AUTH_UNSPECIFIED";
    const timeout = Number(svc.endpoint?.request_timeout_seconds ?? 0);
    const vis = svc.visibility ?? "VISIBILITY_UNSPECIFIED";
    if (vis !== "VISIBILITY_PUBLIC" && vis !== "VISIBILITY_PRIVATE" && vis !== "VISIBILITY_UNSPECIFIED")
      throw errors.notImplemented(`${String(vis)} services (field ${at}.visibility): PRIVATE and PUBLIC services are offered`);
    if (kind !== undefined && !tls && !https)
      v.push({
        field: `${at}.endpoint.kind`,
        description: `an endpoint is ENDPOINT_KIND_HTTPS or ENDPOINT_KIND_TLS_PASSTHROUGH, not ${String(kind)}`,
      });
    // Both endpoint kinds are PUBLIC ports; placement refuses each, with the SDK's reason where it has
    // one, where no runner offers it (a TLS listener; an https:// HANGAR_PUBLIC_URL; the share-token check).
    if ((tls || https) && vis !== "VISIBILITY_PUBLIC")
      v.push({
        field: `${at}.visibility`,
        description: `${tls ? "a TLS passthrough" : "an HTTPS"} endpoint is PUBLIC (set visibility PUBLIC)`,
      });
    // TLS passthrough: a TCP stream whose TLS the sandbox terminates; auth and request timeouts are HTTP's.
    if (tls && auth !== "ENDPOINT_AUTH_UNSPECIFIED")
      v.push({ field: `${at}.endpoint.auth`, description: "a TLS passthrough endpoint takes no auth: the sandbox terminates TLS itself" });
    if (tls && timeout !== 0)
      v.push({
        field: `${at}.endpoint.request_timeout_seconds`,
        description: "a TLS passthrough endpoint is a TCP stream with no request timeout",
      });
    if (https && auth !== "ENDPOINT_AUTH_OPEN" && auth !== "ENDPOINT_AUTH_SHARE_TOKEN")
      v.push({
        field: `${at}.endpoint.auth`,
        description: "required for an HTTPS endpoint: ENDPOINT_AUTH_OPEN or ENDPOINT_AUTH_SHARE_TOKEN",
      });
    if (https && timeout !== 0 && (!Number.isInteger(timeout) || timeout < 15 || timeout > 900))
      v.push({ field: `${at}.endpoint.request_timeout_seconds`, description: "0 (the Gateway's own) or 15 to 900 seconds" });
    else if (https && timeout !== 0)
      throw errors.notImplemented(
        `per-endpoint request timeouts (field ${at}.endpoint.request_timeout_seconds): Hangar's routes carry none, requests get the operator's Gateway timeouts (send 0)`,
      );
    const port = Number(svc.port ?? 0);
    if (!Number.isInteger(port) || port < 1 || port > 65535) v.push({ field: `${at}.port`, description: "must be a port from 1 to 65535" });
    const protoName = svc.protocol ?? "SERVICE_PROTOCOL_UNSPECIFIED";
    const protocol =
      protoName === "SERVICE_PROTOCOL_UDP"
        ? "UDP"
        : protoName === "SERVICE_PROTOCOL_SCTP"
          ? "SCTP"
          : protoName === "SERVICE_PROTOCOL_TCP" || protoName === "SERVICE_PROTOCOL_UNSPECIFIED"
            ? "TCP"
            : undefined;
    if (!protocol) v.push({ field: `${at}.protocol`, description: `unknown protocol ${String(protoName)}` });
    const name = svc.name ?? "";
    if (name && !/^[a-z]([-a-z0-9]{0,13}[a-z0-9])?$/.test(name))
      v.push({ field: `${at}.name`, description: "a port name: at most 15 characters of a-z, 0-9, '-', starting with a letter" });
    if (out.some((o) => o.port === port && o.protocol === protocol))
      v.push({ field: `${at}.port`, description: `port ${port}/${protocol} is named twice` });
    if (name && out.some((o) => o.name === name)) v.push({ field: `${at}.name`, description: `name ${name} is used twice` });
    const isPublic = vis === "VISIBILITY_PUBLIC";
    if (isPublic && protocol && protocol !== "TCP")
      v.push({ field: `${at}.protocol`, description: `a PUBLIC service is ${tls ? "TLS" : "HTTP"} over TCP, not ${protocol}` });
    const endpoint =
      isPublic && tls
        ? { tls: true as const }
        : isPublic && https
          ? { https: true as const, ...(auth === "ENDPOINT_AUTH_SHARE_TOKEN" ? { shareToken: true as const } : {}) }
          : {};
    out.push({ port, protocol: protocol ?? "TCP", ...(name ? { name } : {}), ...(isPublic ? { public: true as const } : {}), ...endpoint });
  });
  const publicAt = out.findIndex((p) => p.public);
  if (publicAt >= 0 && out.some((p) => !p.public)) {
    throw errors.notImplemented(
      `PUBLIC and PRIVATE services on one sandbox (field ${base}.services[${publicAt}].visibility): give every service of a sandbox one visibility`,
    );
  }
  if (out.length > LIMITS.services) v.push({ field: `${base}.services`, description: `at most ${LIMITS.services} services` });
  return out;
}

const CONTAINER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** A container beside the primary: what it runs and mounts; what only the primary can have is refused naming the field. */
function sidecarOf(
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

/** Container.startup_probe -> a probe with Kubernetes' defaults for fields left 0. */
function probeOf(p: Container__Output["startup_probe"], at: string, v: FieldViolation[]): StartupProbe | undefined {
  if (!p) return undefined;
  const exec = p.exec ?? [];
  if (!exec.length || !exec[0]) v.push({ field: `${at}.exec`, description: "required: the command to run (argv)" });
  if (exec.length > 256 || exec.some(hasNul) || exec.reduce((a, s) => a + Buffer.byteLength(s), 0) > 64 * 1024)
    v.push({ field: `${at}.exec`, description: "at most 256 arguments, 64 KiB, without NUL" });
  const num = (
    k: "period_seconds" | "timeout_seconds" | "failure_threshold" | "initial_delay_seconds",
    min: number,
    max: number,
    def: number,
  ) => {
    const n = Number(p[k] ?? 0);
    if (n === 0) return def;
    if (!Number.isInteger(n) || n < min || n > max) v.push({ field: `${at}.${k}`, description: `must be ${min} to ${max} (0: ${def})` });
    return n;
  };
  const probe: StartupProbe = {
    exec: [...exec],
    periodSeconds: num("period_seconds", 1, 3600, PROBE_DEFAULTS.periodSeconds),
    timeoutSeconds: num("timeout_seconds", 1, 3600, PROBE_DEFAULTS.timeoutSeconds),
    failureThreshold: num("failure_threshold", 1, 1000, PROBE_DEFAULTS.failureThreshold),
    initialDelaySeconds: num("initial_delay_seconds", 0, 3600, PROBE_DEFAULTS.initialDelaySeconds),
  };
  const worst = probe.initialDelaySeconds + probe.failureThreshold * (probe.periodSeconds + probe.timeoutSeconds);
  if (worst > 3600)
    v.push({ field: at, description: `may take up to ${worst}s (initial delay + failures x (period + timeout)); at most 3600` });
  return probe;
}

/** Container.image_pull_credentials -> the registry and a reference to the secret that logs in to it. */
function pullCredentials(
  p: Container__Output["image_pull_credentials"],
  cf: string,
  image: string,
  configured: string[],
  v: FieldViolation[],
): PullCredentials | undefined {
  if (!p) return undefined;
  const at = `${cf}.image_pull_credentials`;
  const registry = (p.registry ?? "").replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(registry))
    v.push({ field: `${at}.registry`, description: 'a registry host[:port], e.g. "ghcr.io"' });
  else if (image && registryOf(image) !== registry)
    v.push({
      field: `${at}.registry`,
      description: `the image ${image.slice(0, 128)} is pulled from ${registryOf(image)}, not ${registry}`,
    });
  const src = p.credentials;
  const store = src?.store_name ?? "",
    name = src?.path ?? "",
    field = src?.field ?? "";
  if (!configured.length)
    v.push({ field: `${at}.credentials`, description: "no secret stores are configured on this Hangar (HANGAR_SECRET_STORES)" });
  else if (!configured.includes(store))
    v.push({
      field: `${at}.credentials.store_name`,
      description: `no store named "${store.slice(0, 64)}" (this Hangar has: ${configured.join(", ")})`,
    });
  if (!SECRET_NAME.test(name) || name.includes(".."))
    v.push({
      field: `${at}.credentials.path`,
      description: "a secret name: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
    });
  if (field && (!SECRET_NAME.test(field) || field.includes("..")))
    v.push({
      field: `${at}.credentials.field`,
      description: "a key: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
    });
  return { registry, secret: { store, name, ...(field ? { field } : {}), envVar: "", at: `${at}.credentials` } };
}

/** Container.secret_stores -> references (values are looked up later, for the caller's tenant only). */
function secretRefs(
  stores: Container__Output["secret_stores"],
  cf: string,
  env: Record<string, string>,
  configured: string[],
  v: FieldViolation[],
): SecretRef[] {
  const refs: SecretRef[] = [];
  (stores ?? []).forEach((st, i) => {
    const at = `${cf}.secret_stores[${i}]`;
    const store = st.store_name ?? "";
    if (!configured.length) v.push({ field: at, description: "no secret stores are configured on this Hangar (HANGAR_SECRET_STORES)" });
    else if (!configured.includes(store))
      v.push({
        field: `${at}.store_name`,
        description: `no store named "${store.slice(0, 64)}" (this Hangar has: ${configured.join(", ")})`,
      });
    if (!st.secrets?.length) v.push({ field: `${at}.secrets`, description: "required: at least one secret" });
    (st.secrets ?? []).forEach((m, j) => {
      const mf = `${at}.secrets[${j}]`;
      const name = m.path ?? "",
        field = m.field ?? "",
        envVar = m.env_var ?? "";
      if (!SECRET_NAME.test(name) || name.includes(".."))
        v.push({
          field: `${mf}.path`,
          description: "a secret name: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
        });
      if (field && (!SECRET_NAME.test(field) || field.includes("..")))
        v.push({
          field: `${mf}.field`,
          description: "a key: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
        });
      if (!ENV_NAME.test(envVar)) v.push({ field: `${mf}.env_var`, description: "not a valid environment variable name" });
      else if (envVar in env) v.push({ field: `${mf}.env_var`, description: `${envVar} is also in environment_variables` });
      else if (refs.some((r) => r.envVar === envVar)) v.push({ field: `${mf}.env_var`, description: `${envVar} is named by two secrets` });
      refs.push({ store, name, ...(field ? { field } : {}), envVar, at: mf });
    });
  });
  if (refs.length > LIMITS.secrets) v.push({ field: `${cf}.secret_stores`, description: `at most ${LIMITS.secrets} secrets` });
  return refs;
}

export function toDomainSpec(spec: SandboxSpec__Output | undefined, limits: SpecLimits, base = "sandbox.spec"): SandboxSpec {
  const v: FieldViolation[] = [];
  if (!spec) throw errors.invalidField(base, "required");
  const containers = spec.containers ?? [];
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
  const pi = containers.length > 1 ? (primaries[0] ?? 0) : 0;
  const c = containers[pi] ?? {};
  const cf = `${base}.containers[${pi}]`;
  const image = c.image ?? "";
  if (!image) v.push({ field: `${cf}.image`, description: "required" });
  else if (image.length > LIMITS.imageLength || /[\s\u0000]/.test(image))
    v.push({ field: `${cf}.image`, description: `must be an image reference of at most ${LIMITS.imageLength} characters without spaces` });
  const args = c.args ?? [];
  const argv = c.command ? [c.command, ...args] : args.length ? args : [...DEFAULT_MAIN_ARGV];
  if (argv.length > LIMITS.args) v.push({ field: `${cf}.args`, description: `at most ${LIMITS.args} arguments` });
  if (argv.some(hasNul)) v.push({ field: `${cf}.args`, description: "must not contain NUL" });
  if (argv.reduce((a, s) => a + Buffer.byteLength(s), 0) > LIMITS.argvBytes)
    v.push({ field: `${cf}.args`, description: `command and args must total at most ${LIMITS.argvBytes} bytes` });
  const env = c.environment_variables ?? {};
  if (Object.keys(env).length > LIMITS.env)
    v.push({ field: `${cf}.environment_variables`, description: `at most ${LIMITS.env} variables` });
  if (envBytes(env) > LIMITS.envBytes)
    v.push({ field: `${cf}.environment_variables`, description: `names and values must total at most ${LIMITS.envBytes} bytes` });
  for (const [k, val] of Object.entries(env)) {
    if (!ENV_NAME.test(k))
      v.push({
        field: `${cf}.environment_variables[${JSON.stringify(k.slice(0, 64))}]`,
        description: "not a valid environment variable name",
      });
    if (hasNul(val))
      v.push({ field: `${cf}.environment_variables[${JSON.stringify(k.slice(0, 64))}]`, description: "value must not contain NUL" });
  }
  const secrets = secretRefs(c.secret_stores, cf, env, limits.secretStores ?? [], v);
  const startupProbe = probeOf(c.startup_probe, `${cf}.startup_probe`, v);
  const imagePull = pullCredentials(c.image_pull_credentials, cf, image, limits.secretStores ?? [], v);
  if (c.working_dir) {
    const p = validPath(c.working_dir);
    if (p) v.push({ field: `${cf}.working_dir`, description: p });
  }
  let fileBytes = 0;
  const files = (c.files ?? []).map((f, i) => {
    const p = validPath(f.path ?? "");
    if (p) v.push({ field: `${cf}.files[${i}].path`, description: p });
    const content = Buffer.from(f.content ?? Buffer.alloc(0));
    fileBytes += content.length;
    return { path: f.path ?? "", content };
  });
  if (fileBytes > LIMITS.filesBytes)
    v.push({ field: `${cf}.files`, description: `mounted files must total at most ${LIMITS.filesBytes} bytes` });
  const rr = c.resource_requirements;
  const requests = quantities(rr?.requests ?? c.resources ?? undefined, `${cf}.resource_requirements.requests`, v);
  const limitsQ = quantities(rr?.limits ?? c.resources ?? undefined, `${cf}.resource_requirements.limits`, v);
  if (requests.gpuCount && limitsQ.gpuCount && requests.gpuCount !== limitsQ.gpuCount)
    v.push({
      field: `${cf}.resource_requirements.requests.gpu.count`,
      description: `GPU requests and limits must be equal (${requests.gpuCount} and ${limitsQ.gpuCount}): GPUs are not shared`,
    });
  for (const k of ["cpu", "memory"] as const) {
    const rq = requests[k],
      lq = limitsQ[k];
    if (rq && lq && (parseQuantity(rq) ?? 0) > (parseQuantity(lq) ?? 0))
      v.push({ field: `${cf}.resource_requirements.requests.${k}`, description: `request ${rq} exceeds limit ${lq}` });
  }
  const tags = spec.tags ?? [];
  if (tags.length > LIMITS.tags) v.push({ field: `${base}.tags`, description: `at most ${LIMITS.tags} tags` });
  tags.forEach((t, i) => {
    if (!t || t.length > LIMITS.tagLength || CONTROL.test(t))
      v.push({ field: `${base}.tags[${i}]`, description: `must be 1-${LIMITS.tagLength} characters without control characters` });
  });
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
  let runtimeClass = spec.runtime_class ?? "";
  if (runtimeClass && !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(runtimeClass))
    v.push({
      field: `${base}.runtime_class`,
      description: "must be a RuntimeClass name (lowercase DNS subdomain, at most 253 characters)",
    });
  const selection = spec.runtime_class_selection ?? "RUNTIME_CLASS_UNSPECIFIED";
  if (selection !== "RUNTIME_CLASS_UNSPECIFIED") {
    const category = String(selection).replace(/^RUNTIME_CLASS_/, "");
    const mapped = limits.runtimeClassSelection ?? {};
    if (runtimeClass)
      v.push({ field: `${base}.runtime_class_selection`, description: "set runtime_class or runtime_class_selection, not both" });
    else if (!(category in mapped))
      v.push({
        field: `${base}.runtime_class_selection`,
        description: `${category} is not mapped on this Hangar (mapped: ${Object.keys(mapped).join(", ") || "none"}; HANGAR_RUNTIME_CLASS_SELECTION)`,
      });
    else runtimeClass = mapped[category] ?? "";
  }
  const annotations = spec.annotations ?? {};
  if (
    Object.keys(annotations).length > LIMITS.annotations ||
    Object.entries(annotations).reduce((a, [k, x]) => a + k.length + x.length, 0) > LIMITS.annotationBytes
  ) {
    v.push({ field: `${base}.annotations`, description: `at most ${LIMITS.annotations} annotations and ${LIMITS.annotationBytes} bytes` });
  }
  for (const k of Object.keys(annotations)) {
    if (/(^|\.)hangar\.dev\//.test(k))
      v.push({
        field: `${base}.annotations[${JSON.stringify(k)}]`,
        description: "keys under hangar.dev/ are Hangar's own (records, egress grants)",
      });
    else if (RESERVED_ANNOTATION.test(k))
      v.push({
        field: `${base}.annotations[${JSON.stringify(k)}]`,
        description:
          "keys under kubernetes.io/, k8s.io/ and the container runtimes' io.kubernetes., io.containerd., io.katacontainers. and run.oci. are the cluster's own (seccomp and AppArmor profiles, runtime settings): a sandbox cannot set them",
      });
  }
  const net = spec.network;
  const egress = egressGrants(net?.egress ?? [], `${base}.network.egress`, v);
  if (egress.length && net?.deny_egress === true)
    v.push({
      field: `${base}.network.deny_egress`,
      description: "cannot be combined with egress rules (rules already deny everything they do not grant)",
    });
  const services = servicePorts(spec.services ?? [], base, v);
  if (net?.deny_ingress === true && services.length)
    v.push({
      field: `${base}.network.deny_ingress`,
      description:
        "true refuses every inbound connection, but this sandbox declares services (they accept inbound on their ports): leave deny_ingress unset or false, or drop the services",
    });
  const volumes = (spec.volumes ?? []).map((vol, i) => {
    if (!vol.name || !VOLUME_NAME.test(vol.name))
      v.push({ field: `${base}.volumes[${i}].name`, description: "must be a DNS label (a-z, 0-9, '-')" });
    const restoreId = vol.scratch?.restore_from_snapshot_id ?? "";
    if (restoreId && (restoreId.length > LIMITS.idLength || CONTROL.test(restoreId)))
      v.push({
        field: `${base}.volumes[${i}].scratch.restore_from_snapshot_id`,
        description: "a snapshot id from ListFileSystemSnapshots",
      });
    if (vol.scratch?.size && parseQuantity(vol.scratch.size) === undefined)
      v.push({ field: `${base}.volumes[${i}].scratch.size`, description: "not a Kubernetes quantity" });
    const id = vol.volume_id ?? "";
    if (id && (id.length > LIMITS.idLength || CONTROL.test(id)))
      v.push({ field: `${base}.volumes[${i}].volume_id`, description: "a volume id from ListVolumes" });
    return {
      name: vol.name ?? "",
      size: vol.scratch?.size || undefined,
      ...(id ? { registered: { id, at: `${base}.volumes[${i}].volume_id` } } : {}),
      ...(restoreId ? { restore: { snapshotId: restoreId, at: `${base}.volumes[${i}].scratch.restore_from_snapshot_id` } } : {}),
    };
  });
  if (volumes.length > LIMITS.volumes) v.push({ field: `${base}.volumes`, description: `at most ${LIMITS.volumes} volumes` });
  const mounts = (c.volume_mounts ?? []).map((m, i) => {
    const vol = volumes.find((x) => x.name === m.volume);
    if (!vol) v.push({ field: `${cf}.volume_mounts[${i}].volume`, description: `no volume named "${m.volume ?? ""}" in spec.volumes` });
    const p = validPath(m.mount_path ?? "") ?? reservedMountPath(m.mount_path ?? "");
    if (p) v.push({ field: `${cf}.volume_mounts[${i}].mount_path`, description: p });
    const sub = m.sub_path ?? "";
    if (
      sub &&
      (sub.startsWith("/") || sub.split("/").some((x) => x === ".." || x === ".") || hasNul(sub) || sub.length > LIMITS.pathLength)
    ) {
      v.push({ field: `${cf}.volume_mounts[${i}].sub_path`, description: 'a relative path inside the volume, without "." or ".." parts' });
    }
    return {
      name: m.volume ?? "",
      mountPath: m.mount_path ?? "",
      size: vol?.size,
      ...(m.read_only ? { readOnly: true } : {}),
      ...(sub ? { subPath: sub.replace(/\/+$/, "") } : {}),
      ...(vol?.registered ? { registered: { ...vol.registered, at: `${cf}.volume_mounts[${i}]` } } : {}),
    };
  });
  // A restored volume is filled once, through one writable mount of its root on the primary.
  for (const vol of volumes) {
    if (!vol.restore) continue;
    const target = mounts.find((m) => m.name === vol.name && !m.readOnly && !m.subPath);
    if (!target)
      v.push({
        field: vol.restore.at,
        description: `volume ${vol.name} needs a writable mount of its root (no sub_path) on the primary container to be restored into`,
      });
    else (target as { restore?: unknown }).restore = vol.restore;
  }
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
  const sidecars = containers.flatMap((x, i) => (i === pi ? [] : [sidecarOf(x, `${base}.containers[${i}]`, volumes, v)]));
  if (v.length) throw errors.invalid(v);
  return {
    image,
    argv,
    env: { ...env },
    workingDir: c.working_dir || undefined,
    files,
    requests,
    limits: limitsQ,
    tags: [...tags],
    maxLifetimeSeconds: lifetime,
    runnerIds: [...runnerIds],
    denyEgress: net?.deny_egress ?? undefined,
    ...(egress.length ? { egress } : {}),
    denyIngress: net?.deny_ingress ?? undefined,
    annotations: { ...annotations },
    volumes: mounts,
    ...(runtimeClass ? { runtimeClass } : {}),
    ...(secrets.length ? { secrets } : {}),
    ...(imagePull ? { imagePull } : {}),
    ...(services.length ? { services } : {}),
    ...(startupProbe ? { startupProbe } : {}),
    ...(containers.length > 1 ? { primaryName: names[pi], sidecars } : c.name && c.name !== "main" ? { primaryName: c.name } : {}),
  };
}

/**
 * To a client a sandbox id is opaque: one that names no sandbox of the caller is NOT_FOUND
 * whatever its shape (the controller answers that), so ids cannot be probed. Only an empty
 * id or one over the size limit is a malformed request.
 */
/** Annotation keys that the cluster or its container runtimes act on (Kubernetes reserves kubernetes.io and k8s.io). */
const RESERVED_ANNOTATION = /^(([a-z0-9-]+\.)*(kubernetes\.io|k8s\.io)\/|(io\.kubernetes|io\.containerd|io\.katacontainers|run\.oci)\.)/i;

export function sandboxId(id: string | undefined, field = "sandbox_id"): string {
  if (!id) throw errors.invalidField(field, "required");
  if (id.length > LIMITS.idLength) throw errors.invalidField(field, `at most ${LIMITS.idLength} characters`);
  return id;
}
