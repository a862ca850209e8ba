/**
 * A Compose file -> the SandboxSpec it runs as (CreateSandboxFromFile, control PLATFORM): one
 * container per service in one sandbox, the primary service last to start. Pure: the parsed
 * document in, the spec (proto shape, checked afterwards exactly as CreateSandbox's) or every
 * refusal at once out, each naming `contents.services.<service>.<key>`. What a Compose key
 * means that Hangar cannot do is refused, never dropped (docs/compose.md lists each key).
 */
import { parseDocument } from "yaml";
import { errors, type FieldViolation } from "../core/errors.js";
import { interpolateAll, isObj, type Obj } from "./compose-values.js";
import { REFUSAL_HINTS, serviceOf, type ServiceContext } from "./compose-service.js";
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

/** Compose keys Hangar honours at the top level; `x-` extension keys are Compose's own "ignore me" keys. */
const TOP_KEYS = new Set(["services", "name", "version", "volumes"]);

/** The file -> its top-level map, interpolated, with unknown top-level keys refused. */
function readDocument(contents: Buffer, v: FieldViolation[]): Obj {
  if (contents.length > COMPOSE_MAX_BYTES)
    throw errors.invalidField("contents", `at most ${COMPOSE_MAX_BYTES} bytes (got ${contents.length})`);
  const doc = parseDocument(contents.toString("utf8"), { uniqueKeys: true, merge: true, prettyErrors: false });
  if (doc.errors.length) throw errors.invalidField("contents", `not valid YAML: ${doc.errors[0]?.message.split("\n")[0] ?? "parse error"}`);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw errors.invalidField("contents", `not usable YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (!isObj(raw)) throw errors.invalidField("contents", "a Compose file: a map with services");
  const top = interpolateAll(raw, "contents", v) as Obj;
  for (const k of Object.keys(top))
    if (!TOP_KEYS.has(k) && !k.startsWith("x-"))
      v.push({
        field: `contents.${k}`,
        description: `not supported by this Hangar: ${REFUSAL_HINTS[k] ?? "not a Compose key Hangar knows"}`,
      });
  return top;
}

/** The service names: each a container name, at most one sandbox's worth. */
function serviceNames(services: Obj, v: FieldViolation[]): string[] {
  const names = Object.keys(services);
  if (names.length > MAX_SERVICES) v.push({ field: "contents.services", description: `at most ${MAX_SERVICES} services (one sandbox)` });
  for (const n of names)
    if (!DNS_LABEL.test(n))
      v.push({
        field: `contents.services.${n}`,
        description: "service names here are container names: a DNS label (a-z, 0-9, '-'), at most 63",
      });
  return names;
}

/** The top-level volumes: plain named ones only (a scratch volume the services share). */
function declaredVolumes(volumes: unknown, v: FieldViolation[]): Set<string> {
  const declared = new Set<string>();
  if (volumes === undefined || volumes === null) return declared;
  if (!isObj(volumes)) v.push({ field: "contents.volumes", description: "a map of volume names" });
  else
    for (const [n, d] of Object.entries(volumes)) {
      if (!DNS_LABEL.test(n)) v.push({ field: `contents.volumes.${n}`, description: "a DNS label (a-z, 0-9, '-')" });
      if (d !== null && !(isObj(d) && Object.keys(d).length === 0))
        v.push({
          field: `contents.volumes.${n}`,
          description: "only plain named volumes (a scratch volume the services share, gone with the sandbox): no driver, external or name",
        });
      declared.add(n);
    }
  return declared;
}

/** The request's fields read against the file: overrides name services, the primary is one of them, defaults have no GPUs. */
function requestChecks(input: ComposeInput, services: Obj, names: string[], v: FieldViolation[]): void {
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
  const v: FieldViolation[] = [];
  const top = readDocument(input.contents, v);
  const services = top.services;
  if (!isObj(services) || !Object.keys(services).length)
    throw errors.invalid([...v, { field: "contents.services", description: "required: at least one service" }]);
  const names = serviceNames(services, v);
  const declared = declaredVolumes(top.volumes, v);
  requestChecks(input, services, names, v);
  const primary = input.primaryService;
  const cx: ServiceContext = {
    services,
    names,
    primary,
    declared,
    imageOverrides: input.imageOverrides,
    defaults: input.defaultResources ?? undefined,
  };
  const deps = new Map<string, string[]>();
  const containers: Container[] = [];
  const run: ComposeRun = { argv: {} };
  for (const name of names) {
    const s = serviceOf(name, services[name], cx, v);
    if (!s) continue;
    run.argv[name] = s.run;
    deps.set(name, s.deps);
    containers.push(s.container);
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
