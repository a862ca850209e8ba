/**
 * One parser per Compose service key Hangar honours (environment, healthcheck, depends_on,
 * deploy, volumes): the key's value in, its part of the container out, refusals appended.
 */
import type { FieldViolation } from "../core/errors.js";
import type { Container } from "./generated/coreweave/sandbox/v1/Container.js";
import { composeBytes, cpus, durationSeconds, isObj } from "./compose-values.js";

export function environment(x: unknown, at: string, v: FieldViolation[]): Record<string, string> {
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
export function probe(x: unknown, at: string, v: FieldViolation[]): Container["startup_probe"] | undefined {
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
export function dependsOn(x: unknown, at: string, v: FieldViolation[]): { name: string; healthy: boolean }[] {
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

export function resources(x: unknown, at: string, v: FieldViolation[]): Container["resource_requirements"] | undefined {
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

export function mounts(
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
