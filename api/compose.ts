/**
 * A Compose file -> the SandboxSpec it runs as (CreateSandboxFromFile, control PLATFORM): one
 * container per service in one sandbox, the primary service last to start. Pure: the parsed
 * document in, the spec (proto shape, checked afterwards exactly as CreateSandbox's) or every
 * refusal at once out, each naming `contents.services.<service>.<key>`. What a Compose key
 * means that Hangar cannot do is refused, never dropped (docs/compose.md lists each key).
 */
import { parseDocument } from "yaml";
import { errors, type FieldViolation } from "../core/errors.js";
import type { Container } from "./generated/coreweave/sandbox/v1/Container.js";
import type { ResourceRequirements__Output } from "./generated/coreweave/sandbox/v1/ResourceRequirements.js";
import type { SandboxSpec } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";

export const COMPOSE_MAX_BYTES = 256 * 1024;
const MAX_SERVICES = 16;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export interface ComposeInput {
  contents: Buffer;
  primaryService: string;
  imageOverrides: Record<string, string>;
  defaultResources?: ResourceRequirements__Output | null;
}

export interface ComposeRun {
  /** Service name -> the argv Hangar runs, and whether it goes to the image's ENTRYPOINT (Compose `command` alone). */
  argv: Record<string, { argv: string[]; imageEntrypoint: boolean }>;
}

export interface ComposeSpec {
  /** The translated spec, containers in the file's order (what Get echoes). */
  spec: SandboxSpec;
  /** Container index -> service name (to name refusals of the checked spec by service). */
  services: string[];
  primary: string;
  /** The other services in the order they start: each after those it depends on. */
  sidecarOrder: string[];
  run: ComposeRun;
  /** The file's `name`, if any. */
  project?: string;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => !!x && typeof x === "object" && !Array.isArray(x);

/** Compose keys Hangar honours, per level; `x-` extension keys are Compose's own "ignore me" keys. */
const TOP_KEYS = new Set(["services", "name", "version", "volumes"]);
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
const REFUSAL_HINTS: Record<string, string> = {
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

/** Compose's variable interpolation with an empty environment: defaults apply, `$$` is `$`, an unset variable is refused. */
function interpolate(s: string, at: string, v: FieldViolation[]): string {
  return s.replace(
    /\$(\$|\{([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, esc: string, braced: string | undefined, bare: string | undefined) => {
      if (esc === "$") return "$";
      const expr = braced ?? bare ?? "";
      const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)(.*)|(:?\?)(.*)|(:?\+)(.*))?$/s.exec(expr);
      if (m && m[2] !== undefined) return m[3] ?? "";
      if (m && m[6] !== undefined) return ""; // ${VAR:+alt}: VAR is unset, so empty
      v.push({
        field: at,
        description: `${whole} names variable ${m?.[1] ?? expr}: Hangar interpolates with no variables set (use \${${m?.[1] ?? "VAR"}:-default}, or $$ for a literal $)`,
      });
      return "";
    },
  );
}

/** Every string in the document, interpolated (Compose interpolates values, not keys). */
function interpolateAll(x: unknown, at: string, v: FieldViolation[]): unknown {
  if (typeof x === "string") return interpolate(x, at, v);
  if (Array.isArray(x)) return x.map((y, i) => interpolateAll(y, `${at}[${i}]`, v));
  if (isObj(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, interpolateAll(y, `${at}.${k}`, v)]));
  return x;
}

/** Compose durations: "1m30s", "500ms", "10s", or a number of seconds. */
export function durationSeconds(x: unknown): number | undefined {
  if (typeof x === "number" && Number.isFinite(x) && x >= 0) return x;
  if (typeof x !== "string" || !/^(\d+(\.\d+)?(h|ms|m|s|us|ns))+$/.test(x)) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, ns: 1e-9 };
  let total = 0;
  for (const m of x.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|ns)/g)) total += Number(m[1]) * (unit[m[2] as string] as number);
  return total;
}

/** Compose byte sizes ("256m", "1gb", 1048576) -> a Kubernetes quantity. */
export function composeBytes(x: unknown): string | undefined {
  let n: number;
  if (typeof x === "number") n = x;
  else if (typeof x === "string") {
    const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(x.trim());
    if (!m) return undefined;
    n = Number(m[1]) * 1024 ** " kmg".indexOf((m[2] || " ").toLowerCase());
  } else return undefined;
  if (!Number.isFinite(n) || n <= 0 || !Number.isInteger(n)) return undefined;
  for (const [s, f] of [
    ["Gi", 1024 ** 3],
    ["Mi", 1024 ** 2],
    ["Ki", 1024],
  ] as const)
    if (n % f === 0) return `${n / f}${s}`;
  return String(n);
}

const cpus = (x: unknown): string | undefined => {
  const n = typeof x === "number" ? x : typeof x === "string" && /^\d+(\.\d+)?$/.test(x.trim()) ? Number(x) : NaN;
  return Number.isFinite(n) && n > 0 ? `${Math.round(n * 1000)}m` : undefined;
};

/** A command as Compose writes it: a list, or a string split as a shell would (no expansion). */
export function commandArgv(x: unknown): string[] | undefined {
  if (Array.isArray(x)) return x.every((a) => typeof a === "string" || typeof a === "number") ? x.map(String) : undefined;
  if (typeof x !== "string") return undefined;
  const out: string[] = [];
  let cur = "";
  let has = false;
  let q: '"' | "'" | undefined;
  for (let i = 0; i < x.length; i++) {
    const ch = x[i] as string;
    const next = x[i + 1] ?? "";
    if (q === "'") {
      if (ch === "'") q = undefined;
      else cur += ch;
    } else if (q === '"') {
      if (ch === '"') q = undefined;
      else if (ch === "\\" && next && '"\\$`'.includes(next)) {
        cur += next;
        i++;
      } else cur += ch;
    } else if (/\s/.test(ch)) {
      if (has) out.push(cur);
      cur = "";
      has = false;
    } else {
      has = true;
      if (ch === "'" || ch === '"') q = ch;
      else if (ch === "\\" && next) {
        cur += next;
        i++;
      } else cur += ch;
    }
  }
  if (q) return undefined;
  if (has) out.push(cur);
  return out;
}

function environment(x: unknown, at: string, v: FieldViolation[]): Record<string, string> {
  const env: Record<string, string> = {};
  const put = (k: string, val: unknown) => {
    if (val === null || val === undefined)
      v.push({ field: `${at}.${k}`, description: "needs a value: Hangar passes no host environment to Compose" });
    else if (typeof val === "object") v.push({ field: `${at}.${k}`, description: "must be a string, number or boolean" });
    else env[k] = String(val);
  };
  if (Array.isArray(x)) {
    x.forEach((kv, i) => {
      if (typeof kv !== "string") return v.push({ field: `${at}[${i}]`, description: 'must be "NAME=value"' });
      const eq = kv.indexOf("=");
      if (eq < 0) put(kv, undefined);
      else put(kv.slice(0, eq), kv.slice(eq + 1));
    });
  } else if (isObj(x)) for (const [k, val] of Object.entries(x)) put(k, val);
  else if (x !== undefined && x !== null) v.push({ field: at, description: "a map of NAME: value, or a list of NAME=value" });
  return env;
}

/** A healthcheck -> the startup probe that gates the next container (Compose's depends_on: service_healthy). */
function probe(x: unknown, at: string, v: FieldViolation[]): Container["startup_probe"] | undefined {
  if (x === undefined || x === null) return undefined;
  if (!isObj(x)) return void v.push({ field: at, description: "a map (test, interval, timeout, retries, start_period)" });
  for (const k of Object.keys(x))
    if (!["test", "interval", "timeout", "retries", "start_period", "disable"].includes(k) && !k.startsWith("x-"))
      v.push({
        field: `${at}.${k}`,
        description:
          k === "start_interval"
            ? "not supported: the probe runs every interval from the start (start_period only adds tries)"
            : "not a healthcheck key Hangar knows",
      });
  if (x.disable === true) return undefined;
  const t = x.test;
  let exec: string[] | undefined;
  if (typeof t === "string") exec = ["/bin/sh", "-c", t];
  else if (Array.isArray(t) && t.every((a) => typeof a === "string")) {
    const [kind, ...rest] = t as string[];
    if (kind === "NONE") return undefined;
    if (kind === "CMD" && rest.length) exec = rest;
    else if (kind === "CMD-SHELL" && rest.length) exec = ["/bin/sh", "-c", rest.join(" ")];
  }
  if (!exec) return void v.push({ field: `${at}.test`, description: 'required: ["CMD", argv...], ["CMD-SHELL", "command"] or a string' });
  const secs = (k: string, def: number) => {
    if (x[k] === undefined) return def;
    const s = durationSeconds(x[k]);
    if (s === undefined) v.push({ field: `${at}.${k}`, description: 'a duration such as "10s", "1m30s" or "500ms"' });
    return s ?? def;
  };
  const period = Math.max(1, Math.ceil(secs("interval", 30)));
  const timeout = Math.max(1, Math.ceil(secs("timeout", 30)));
  const startPeriod = secs("start_period", 0);
  const retries = x.retries === undefined ? 3 : Number(x.retries);
  if (!Number.isInteger(retries) || retries < 1) v.push({ field: `${at}.retries`, description: "a whole number of at least 1" });
  // Compose does not count failures during start_period: they become extra tries here.
  return {
    exec,
    period_seconds: period,
    timeout_seconds: timeout,
    failure_threshold: Math.max(1, retries) + Math.ceil(startPeriod / period),
    initial_delay_seconds: 0,
  };
}

/** depends_on -> the services this one waits for, and whether each must be healthy. */
function dependsOn(x: unknown, at: string, v: FieldViolation[]): { name: string; healthy: boolean }[] {
  if (x === undefined || x === null) return [];
  if (Array.isArray(x))
    return x.flatMap((n, i) =>
      typeof n === "string" ? [{ name: n, healthy: false }] : (v.push({ field: `${at}[${i}]`, description: "a service name" }), []),
    );
  if (!isObj(x)) {
    v.push({ field: at, description: "a list of services, or a map of service: {condition}" });
    return [];
  }
  return Object.entries(x).map(([name, d]) => {
    const cond = isObj(d) ? (d.condition ?? "service_started") : "service_started";
    if (isObj(d))
      for (const k of Object.keys(d))
        if (!["condition", "required", "restart"].includes(k))
          v.push({ field: `${at}.${name}.${k}`, description: "not a depends_on key Hangar knows" });
    if (isObj(d) && d.restart === true)
      v.push({ field: `${at}.${name}.restart`, description: "not supported: a service is never restarted because another one was" });
    if (cond === "service_completed_successfully")
      v.push({
        field: `${at}.${name}.condition`,
        description: "service_completed_successfully is not supported: every service but the primary keeps running beside it",
      });
    else if (cond !== "service_started" && cond !== "service_healthy")
      v.push({ field: `${at}.${name}.condition`, description: "service_started or service_healthy" });
    return { name, healthy: cond === "service_healthy" };
  });
}

function resources(x: unknown, at: string, v: FieldViolation[]): Container["resource_requirements"] | undefined {
  if (x === undefined) return undefined;
  if (!isObj(x)) return void v.push({ field: at, description: "a map (resources)" });
  for (const k of Object.keys(x))
    if (k !== "resources" && !k.startsWith("x-"))
      v.push({
        field: `${at}.${k}`,
        description: k === "replicas" ? "every service runs once in a sandbox" : "not supported by this Hangar (only deploy.resources)",
      });
  const r = x.resources;
  if (r === undefined) return undefined;
  if (!isObj(r)) return void v.push({ field: `${at}.resources`, description: "a map (limits, reservations)" });
  const side = (k: "limits" | "reservations") => {
    const s = r[k];
    if (s === undefined) return undefined;
    if (!isObj(s)) return void v.push({ field: `${at}.resources.${k}`, description: "a map (cpus, memory)" });
    for (const key of Object.keys(s))
      if (key !== "cpus" && key !== "memory")
        v.push({
          field: `${at}.resources.${k}.${key}`,
          description:
            key === "devices"
              ? "devices (GPUs) are not offered through Compose: create the sandbox with Sandbox.run(gpu=...)"
              : "only cpus and memory",
        });
    const cpu = s.cpus === undefined ? undefined : cpus(s.cpus);
    if (s.cpus !== undefined && !cpu) v.push({ field: `${at}.resources.${k}.cpus`, description: 'a number of CPUs, e.g. 0.5 or "2"' });
    const memory = s.memory === undefined ? undefined : composeBytes(s.memory);
    if (s.memory !== undefined && !memory)
      v.push({ field: `${at}.resources.${k}.memory`, description: 'a size such as "256m", "1g" or a number of bytes' });
    return { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) };
  };
  for (const k of Object.keys(r))
    if (k !== "limits" && k !== "reservations") v.push({ field: `${at}.resources.${k}`, description: "only limits and reservations" });
  const limits = side("limits"),
    requests = side("reservations");
  return { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) };
}

function mounts(
  x: unknown,
  at: string,
  declared: Set<string>,
  v: FieldViolation[],
): { volume: string; mount_path: string; read_only?: boolean }[] {
  if (x === undefined) return [];
  if (!Array.isArray(x)) {
    v.push({ field: at, description: "a list of volume mounts" });
    return [];
  }
  return x.flatMap((m, i) => {
    const f = `${at}[${i}]`;
    let source: string | undefined,
      target: string | undefined,
      ro = false;
    if (typeof m === "string") {
      const parts = m.split(":");
      if (parts.length < 2)
        return (
          v.push({ field: f, description: "anonymous volumes are not offered: name a volume from the top-level volumes (data:/path)" }),
          []
        );
      [source, target] = parts as [string, string];
      if (parts.length > 3 || (parts[2] !== undefined && !["ro", "rw"].includes(parts[2])))
        return (v.push({ field: f, description: 'name:/path, optionally with ":ro" or ":rw"' }), []);
      ro = parts[2] === "ro";
    } else if (isObj(m)) {
      if ((m.type ?? "volume") !== "volume")
        return (
          v.push({
            field: `${f}.type`,
            description: `${String(m.type)} mounts are not offered: only named volumes (a scratch volume the services share)`,
          }),
          []
        );
      for (const k of Object.keys(m))
        if (!["type", "source", "target", "read_only"].includes(k))
          v.push({ field: `${f}.${k}`, description: "not supported by this Hangar" });
      source = typeof m.source === "string" ? m.source : undefined;
      target = typeof m.target === "string" ? m.target : undefined;
      ro = m.read_only === true;
    }
    if (source && /^[./~]/.test(source))
      return (
        v.push({ field: f, description: "bind mounts of host paths are never offered: name a volume from the top-level volumes" }),
        []
      );
    if (!source || !declared.has(source))
      return (v.push({ field: f, description: `no volume named "${source ?? ""}" under the top-level volumes` }), []);
    if (!target) return (v.push({ field: f, description: "needs a target path" }), []);
    return [{ volume: source, mount_path: target, ...(ro ? { read_only: true } : {}) }];
  });
}

/** Dependencies first (stable in file order); a cycle is refused. */
function startOrder(names: string[], deps: Map<string, string[]>, v: FieldViolation[]): string[] {
  const out: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (n: string, path: string[]) => {
    if (state.get(n) === "done") return;
    if (state.get(n) === "visiting")
      return void v.push({ field: `contents.services.${n}.depends_on`, description: `a cycle: ${[...path, n].join(" -> ")}` });
    state.set(n, "visiting");
    for (const d of deps.get(n) ?? []) visit(d, [...path, n]);
    state.set(n, "done");
    out.push(n);
  };
  for (const n of names) visit(n, []);
  return out;
}

export function parseCompose(input: ComposeInput): ComposeSpec {
  if (input.contents.length > COMPOSE_MAX_BYTES)
    throw errors.invalidField("contents", `at most ${COMPOSE_MAX_BYTES} bytes (got ${input.contents.length})`);
  const doc = parseDocument(input.contents.toString("utf8"), { uniqueKeys: true, merge: true, prettyErrors: false });
  if (doc.errors.length) throw errors.invalidField("contents", `not valid YAML: ${doc.errors[0]?.message.split("\n")[0] ?? "parse error"}`);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw errors.invalidField("contents", `not usable YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  const v: FieldViolation[] = [];
  if (!isObj(raw)) throw errors.invalidField("contents", "a Compose file: a map with services");
  const top = interpolateAll(raw, "contents", v) as Obj;
  for (const k of Object.keys(top))
    if (!TOP_KEYS.has(k) && !k.startsWith("x-"))
      v.push({
        field: `contents.${k}`,
        description: `not supported by this Hangar: ${REFUSAL_HINTS[k] ?? "not a Compose key Hangar knows"}`,
      });
  const services = top.services;
  if (!isObj(services) || !Object.keys(services).length)
    throw errors.invalid([...v, { field: "contents.services", description: "required: at least one service" }]);
  const names = Object.keys(services);
  if (names.length > MAX_SERVICES) v.push({ field: "contents.services", description: `at most ${MAX_SERVICES} services (one sandbox)` });
  for (const n of names)
    if (!DNS_LABEL.test(n))
      v.push({
        field: `contents.services.${n}`,
        description: "service names here are container names: a DNS label (a-z, 0-9, '-'), at most 63",
      });
  const declared = new Set<string>();
  if (top.volumes !== undefined && top.volumes !== null) {
    if (!isObj(top.volumes)) v.push({ field: "contents.volumes", description: "a map of volume names" });
    else
      for (const [n, d] of Object.entries(top.volumes)) {
        if (!DNS_LABEL.test(n)) v.push({ field: `contents.volumes.${n}`, description: "a DNS label (a-z, 0-9, '-')" });
        if (d !== null && !(isObj(d) && Object.keys(d).length === 0))
          v.push({
            field: `contents.volumes.${n}`,
            description:
              "only plain named volumes (a scratch volume the services share, gone with the sandbox): no driver, external or name",
          });
        declared.add(n);
      }
  }
  for (const k of Object.keys(input.imageOverrides))
    if (!(k in services)) v.push({ field: `image_overrides[${JSON.stringify(k)}]`, description: `no service named ${k} in contents` });
  const primary = input.primaryService;
  if (!primary)
    v.push({ field: "primary_service", description: `required: the service whose exit ends the sandbox (one of ${names.join(", ")})` });
  else if (!(primary in services))
    v.push({ field: "primary_service", description: `no service named ${primary} (the file has ${names.join(", ")})` });
  const defaults = input.defaultResources ?? undefined;
  if (defaults?.requests?.gpu || defaults?.limits?.gpu)
    v.push({ field: "default_resources", description: "GPUs are not offered through Compose" });
  const deps = new Map<string, string[]>();
  const containers: Container[] = [];
  const run: ComposeRun = { argv: {} };
  for (const name of names) {
    const at = `contents.services.${name}`;
    const s = services[name];
    if (!isObj(s)) {
      v.push({ field: at, description: "a map (image, command, environment, ...)" });
      continue;
    }
    for (const k of Object.keys(s)) {
      if (SERVICE_KEYS.has(k) || k.startsWith("x-")) continue;
      if (k === "build") throw errors.notImplemented(`image builds (field ${at}.build): set image in the file or image_overrides`);
      v.push({ field: `${at}.${k}`, description: `not supported by this Hangar: ${REFUSAL_HINTS[k] ?? "not a Compose key Hangar knows"}` });
    }
    const image = input.imageOverrides[name] ?? s.image;
    if (typeof image !== "string" || !image)
      v.push({ field: `${at}.image`, description: "required (or image_overrides for this service)" });
    const entrypoint = s.entrypoint === undefined || s.entrypoint === null ? undefined : commandArgv(s.entrypoint);
    if (s.entrypoint !== undefined && s.entrypoint !== null && !entrypoint)
      v.push({ field: `${at}.entrypoint`, description: "a list of strings, or a command line" });
    const command = s.command === undefined || s.command === null ? undefined : commandArgv(s.command);
    if (s.command !== undefined && s.command !== null && !command)
      v.push({ field: `${at}.command`, description: "a list of strings, or a command line" });
    // entrypoint replaces the image's ENTRYPOINT and CMD; command alone goes to the image's ENTRYPOINT.
    const argv = [...(entrypoint ?? []), ...(command ?? [])];
    run.argv[name] = { argv, imageEntrypoint: entrypoint === undefined };
    if (s.restart !== undefined && s.restart !== "no" && name === primary)
      v.push({ field: `${at}.restart`, description: "the primary service is never restarted: its exit ends the sandbox" });
    if (s.restart !== undefined && !["no", "always", "on-failure", "unless-stopped"].includes(String(s.restart)))
      v.push({ field: `${at}.restart`, description: "no, always, on-failure or unless-stopped" });
    if (s.expose !== undefined && !(Array.isArray(s.expose) && s.expose.every((p) => /^\d{1,5}(\/(tcp|udp))?$/.test(String(p)))))
      v.push({ field: `${at}.expose`, description: 'a list of ports ("6379", "53/udp")' });
    const d = dependsOn(s.depends_on, `${at}.depends_on`, v);
    for (const dep of d) {
      if (!(dep.name in services)) v.push({ field: `${at}.depends_on.${dep.name}`, description: `no service named ${dep.name}` });
      else if (dep.name === primary)
        v.push({ field: `${at}.depends_on.${dep.name}`, description: "the primary service starts last here: nothing can wait for it" });
    }
    deps.set(
      name,
      d.map((x) => x.name).filter((n) => n in services && n !== primary),
    );
    const startup = probe(s.healthcheck, `${at}.healthcheck`, v);
    const rr = resources(s.deploy, `${at}.deploy`, v);
    const c: Container = {
      name,
      image: typeof image === "string" ? image : "",
      // command stays empty: `args` is the argv (the handler applies run.argv, which says where it goes).
      args: argv,
      environment_variables: environment(s.environment, `${at}.environment`, v),
      ...(typeof s.working_dir === "string" ? { working_dir: s.working_dir } : {}),
      ...(rr ? { resource_requirements: rr } : defaults ? { resource_requirements: defaults as Container["resource_requirements"] } : {}),
      volume_mounts: mounts(s.volumes, `${at}.volumes`, declared, v),
      ...(startup ? { startup_probe: startup } : {}),
      ...(names.length > 1 ? { primary: name === primary } : {}),
    };
    if (s.working_dir !== undefined && typeof s.working_dir !== "string") v.push({ field: `${at}.working_dir`, description: "a path" });
    containers.push(c);
    for (const dep of d)
      if (dep.healthy && dep.name in services && isObj(services[dep.name]) && !(services[dep.name] as Obj).healthcheck)
        v.push({ field: `${at}.depends_on.${dep.name}.condition`, description: `service_healthy, but ${dep.name} has no healthcheck` });
  }
  const sidecarOrder = startOrder(
    names.filter((n) => n !== primary),
    deps,
    v,
  );
  if (v.length) throw errors.invalid(v);
  const spec: SandboxSpec = { containers, volumes: [...declared].map((name) => ({ name, scratch: {} })) };
  return { spec, services: names, primary, sidecarOrder, run, ...(typeof top.name === "string" ? { project: top.name } : {}) };
}
