/**
 * One Compose service -> its container: the keys Hangar honours each parsed (compose-service-keys.ts),
 * the ones it cannot do refused by name, and what the service runs and waits for.
 */
import { errors, type FieldViolation } from "../core/errors.js";
import type { Container } from "./generated/coreweave/sandbox/v1/Container.js";
import type { ResourceRequirements__Output } from "./generated/coreweave/sandbox/v1/ResourceRequirements.js";
import { dependsOn, environment, mounts, probe, resources } from "./compose-service-keys.js";
import { commandArgv, isObj, type Obj } from "./compose-values.js";

/** Compose keys Hangar honours, per level; `x-` extension keys are Compose's own "ignore me" keys. */
const SERVICE_KEYS = new Set([
  "image",
  "command",
  "entrypoint",
  "environment",
  "working_dir",
  "healthcheck",
  "depends_on",
  "expose",
  "deploy",
  "volumes",
  "restart",
]);
export const REFUSAL_HINTS: Record<string, string> = {
  ports: "publishing ports is not offered: services reach each other on 127.0.0.1 by service name (expose needs no publishing)",
  networks: "services share one network namespace (127.0.0.1); separate networks cannot be honoured",
  env_file: "Hangar reads no files beside the Compose file: put the variables under environment",
  container_name: "containers are named by their service",
  hostname: "all services share the sandbox's hostname",
  user: "services run as their image's user, confined by the sandbox's user namespace",
  privileged: "sandboxes are never privileged",
  cap_add: "sandboxes keep a fixed, small capability set",
  network_mode: "services share one network namespace",
  pid: "services share the sandbox's process namespace",
  secrets: "use the SDK's secrets (Sandbox.run(secrets=...)): Compose secrets name host files",
  configs: "Compose configs name host files",
  extends: "extends names other files",
  include: "include names other files",
  profiles: "every service in the file runs",
};

/** What every service is read against: the file's services and volumes, the request's primary, overrides and defaults. */
export interface ServiceContext {
  services: Obj;
  names: string[];
  primary: string;
  declared: Set<string>;
  imageOverrides: Record<string, string>;
  defaults?: ResourceRequirements__Output;
}

export interface ServiceOf {
  container: Container;
  /** The argv Hangar runs, and whether it goes to the image's ENTRYPOINT (Compose `command` alone). */
  run: { argv: string[]; imageEntrypoint: boolean };
  /** The services this one starts after (known ones, never the primary). */
  deps: string[];
}

/** entrypoint and command -> the argv: entrypoint replaces the image's ENTRYPOINT and CMD; command alone goes to the image's ENTRYPOINT. */
function commandOf(s: Obj, at: string, v: FieldViolation[]): ServiceOf["run"] {
  const entrypoint = s.entrypoint === undefined || s.entrypoint === null ? undefined : commandArgv(s.entrypoint);
  if (s.entrypoint !== undefined && s.entrypoint !== null && !entrypoint)
    v.push({ field: `${at}.entrypoint`, description: "a list of strings, or a command line" });
  const command = s.command === undefined || s.command === null ? undefined : commandArgv(s.command);
  if (s.command !== undefined && s.command !== null && !command)
    v.push({ field: `${at}.command`, description: "a list of strings, or a command line" });
  return { argv: [...(entrypoint ?? []), ...(command ?? [])], imageEntrypoint: entrypoint === undefined };
}

/** restart and expose: accepted as Compose writes them, but the primary is never restarted. */
function restartAndExpose(s: Obj, at: string, isPrimary: boolean, v: FieldViolation[]): void {
  if (s.restart !== undefined && s.restart !== "no" && isPrimary)
    v.push({ field: `${at}.restart`, description: "the primary service is never restarted: its exit ends the sandbox" });
  if (s.restart !== undefined && !["no", "always", "on-failure", "unless-stopped"].includes(String(s.restart)))
    v.push({ field: `${at}.restart`, description: "no, always, on-failure or unless-stopped" });
  if (s.expose !== undefined && !(Array.isArray(s.expose) && s.expose.every((p) => /^\d{1,5}(\/(tcp|udp))?$/.test(String(p)))))
    v.push({ field: `${at}.expose`, description: 'a list of ports ("6379", "53/udp")' });
}

/** depends_on, each dependency a service of the file other than the primary (which starts last). */
function dependencies(s: Obj, at: string, cx: ServiceContext, v: FieldViolation[]) {
  const d = dependsOn(s.depends_on, `${at}.depends_on`, v);
  for (const dep of d) {
    if (!(dep.name in cx.services)) v.push({ field: `${at}.depends_on.${dep.name}`, description: `no service named ${dep.name}` });
    else if (dep.name === cx.primary)
      v.push({ field: `${at}.depends_on.${dep.name}`, description: "the primary service starts last here: nothing can wait for it" });
  }
  return d;
}

/** A service -> its container, or undefined (refused) when it is not a map. */
export function serviceOf(name: string, s: unknown, cx: ServiceContext, v: FieldViolation[]): ServiceOf | undefined {
  const at = `contents.services.${name}`;
  if (!isObj(s)) {
    v.push({ field: at, description: "a map (image, command, environment, ...)" });
    return undefined;
  }
  for (const k of Object.keys(s)) {
    if (SERVICE_KEYS.has(k) || k.startsWith("x-")) continue;
    if (k === "build") throw errors.notImplemented(`image builds (field ${at}.build): set image in the file or image_overrides`);
    v.push({ field: `${at}.${k}`, description: `not supported by this Hangar: ${REFUSAL_HINTS[k] ?? "not a Compose key Hangar knows"}` });
  }
  const image = cx.imageOverrides[name] ?? s.image;
  if (typeof image !== "string" || !image) v.push({ field: `${at}.image`, description: "required (or image_overrides for this service)" });
  const run = commandOf(s, at, v);
  restartAndExpose(s, at, name === cx.primary, v);
  const d = dependencies(s, at, cx, v);
  const deps = d.map((x) => x.name).filter((n) => n in cx.services && n !== cx.primary);
  const startup = probe(s.healthcheck, `${at}.healthcheck`, v);
  const rr = resources(s.deploy, `${at}.deploy`, v);
  const defaults = cx.defaults;
  const container: Container = {
    name,
    image: typeof image === "string" ? image : "",
    // command stays empty: `args` is the argv (the handler applies run.argv, which says where it goes).
    args: run.argv,
    environment_variables: environment(s.environment, `${at}.environment`, v),
    ...(typeof s.working_dir === "string" ? { working_dir: s.working_dir } : {}),
    ...(rr ? { resource_requirements: rr } : defaults ? { resource_requirements: defaults as Container["resource_requirements"] } : {}),
    volume_mounts: mounts(s.volumes, `${at}.volumes`, cx.declared, v),
    ...(startup ? { startup_probe: startup } : {}),
    ...(cx.names.length > 1 ? { primary: name === cx.primary } : {}),
  };
  if (s.working_dir !== undefined && typeof s.working_dir !== "string") v.push({ field: `${at}.working_dir`, description: "a path" });
  for (const dep of d)
    if (dep.healthy && dep.name in cx.services && isObj(cx.services[dep.name]) && !(cx.services[dep.name] as Obj).healthcheck)
      v.push({ field: `${at}.depends_on.${dep.name}.condition`, description: `service_healthy, but ${dep.name} has no healthcheck` });
  return { container, run, deps };
}
