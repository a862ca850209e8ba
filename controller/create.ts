/**
 * A create: a retry answered with the first sandbox, the limits, admission (controller/admission.ts),
 * the lookups a start needs (secrets, registered volumes, snapshots to restore), then the record,
 * inserted in the same turn as the last limit check, and its start (controller/start.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import { errors } from "../core/errors.js";
import { publicRoute, tlsAddress } from "../core/public-url.js";
import { dockerConfig, type PullCredentials, type SecretResolver, type StartSecrets } from "../core/secrets.js";
import { serviceKey, serviceUrl, type SandboxRecord, type SandboxSpec, type ServicePort } from "../core/types.js";
import { admit, refusalError, type AdmissionOptions, type Admitted } from "./admission.js";
import { live, requestKey, setState, type SandboxTable } from "./sandbox-table.js";
import type { Snapshots } from "./snapshots.js";
import { startSandbox, type Starts } from "./start.js";
import type { TenantGuard } from "./tenant-guard.js";
import { claimWriters, resolveVolumes, volumeUses } from "./volumes.js";

export interface CreateInput {
  spec: SandboxSpec;
  echo: unknown;
  requestId: string;
  /** A name for people (Sandbox.display_name), stored and echoed. */
  displayName?: string;
}

export interface CreateDeps {
  table: SandboxTable;
  starts: Starts;
  snapshots: Snapshots;
  admission: AdmissionOptions;
  maxSandboxes: number;
  secrets?: SecretResolver;
  tenants?: TenantGuard;
}

/**
 * The sandbox id of a create with a request_id is derived from (tenant, request_id), so every
 * replica that receives a retried create names the same sandbox (and the Kubernetes runtime
 * the same pod, which the apiserver then refuses to create twice).
 */
export function idForRequest(tenant: string, requestId: string): string {
  const h = createHash("sha256").update(`hangar/v1\u0000${tenant}\u0000${requestId}`).digest("hex");
  const variant = ((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The record of an admitted create (PENDING), with the URLs its services answer at. */
export function newRecord(id: string, tenant: string, input: CreateInput, a: Admitted, nowMs: number): SandboxRecord {
  const { runner } = a;
  const r: SandboxRecord = {
    id,
    tenant,
    requestId: input.requestId || undefined,
    spec: input.spec,
    echo: input.echo,
    state: "PENDING",
    stateReason: "accepted",
    createdAtMs: nowMs,
    runnerId: runner.runnerId,
    runnerGroupId: runner.runnerGroupId,
    effectiveLifetimeSeconds: a.effectiveLifetimeSeconds,
    effectiveRuntimeClass: a.effectiveRuntimeClass,
    effectiveEgress: a.effectiveEgress,
    gvisor: a.gvisor,
    ...(input.displayName ? { displayName: input.displayName } : {}),
    imageNote: "",
  };
  if (input.spec.services?.length && runner.serviceDomain) {
    const domain = runner.serviceDomain;
    const base = runner.publicUrl;
    const tls = runner.publicTls;
    const where = (s: ServicePort) =>
      s.public && s.tls && tls
        ? tlsAddress(tls, r.id, s.port).address
        : s.public && base
          ? publicRoute(base, r.id, s.port).url
          : serviceUrl(r.id, domain, s.port);
    r.serviceUrls = Object.fromEntries(input.spec.services.map((s) => [serviceKey(s), where(s)]));
  }
  return r;
}

const checkGlobal = (d: CreateDeps) => {
  if (live(d.table) >= d.maxSandboxes) throw errors.capacityExhausted(`this Hangar runs at most ${d.maxSandboxes} sandboxes at once`, 2000);
};

/** The Docker config a sandbox's image is pulled with, from the tenant's store. */
async function pullConfigFor(secrets: SecretResolver | undefined, tenant: string, p: PullCredentials): Promise<string> {
  if (!secrets) throw errors.invalidField(p.secret.at, "no secret stores are configured on this Hangar");
  const d = dockerConfig(p.registry, await secrets.value(tenant, p.secret));
  if ("problem" in d) throw errors.secretUnavailable(p.secret.at, `secret "${p.secret.name}" of store "${p.secret.store}" ${d.problem}`);
  return d.config;
}

/** What a start needs looked up first: secret values, the pull config, registered volumes resolved, restores checked. */
async function lookups(d: CreateDeps, tenant: string, spec: SandboxSpec) {
  // Looked up before anything is stored: a secret the tenant's store lacks refuses the create.
  const secretRefs = spec.secrets ?? [];
  if (secretRefs.length && !d.secrets)
    throw errors.invalidField(secretRefs[0]?.at ?? "secret_stores", "no secret stores are configured on this Hangar");
  const secretValues = secretRefs.length && d.secrets ? await d.secrets.resolve(tenant, secretRefs) : undefined;
  const pullConfig = spec.imagePull ? await pullConfigFor(d.secrets, tenant, spec.imagePull) : undefined;
  const { spec: resolved, used } = spec.volumes.some((m) => m.registered)
    ? await resolveVolumes(tenant, spec, d.table.runtime.volumes)
    : { spec, used: [] };
  if (resolved.volumes.some((m) => m.restore)) await d.snapshots.checkRestores(tenant, resolved);
  const secrets: StartSecrets | undefined = secretValues || pullConfig ? { env: secretValues, pullConfig } : undefined;
  return { spec: resolved, used, secrets };
}

export async function create(d: CreateDeps, tenant: string, input: CreateInput): Promise<SandboxRecord> {
  const t = d.table;
  const key = requestKey(tenant, input.requestId);
  if (input.requestId) {
    const existing = t.byRequest.get(key);
    const rec = existing ? t.records.get(existing) : undefined;
    if (rec) {
      if (rec.spec.compose?.digest !== input.spec.compose?.digest) throw errors.requestIdConflict(input.requestId);
      // A retry while the first is still being stored answers when that one does.
      await d.starts.storing.get(rec.id);
      if (t.records.get(rec.id) !== rec) return create(d, tenant, input);
      return rec;
    }
  }
  // Judged now so that a create over a limit costs no lookup, and again at the insert below:
  // parallel creates awaiting their lookups would otherwise all pass on the same count.
  checkGlobal(d);
  d.tenants?.checkCreate(tenant, live(t, tenant));
  const admitted = admit(input.spec, t.runtime.runners(), d.admission);
  if ("refused" in admitted) throw refusalError(admitted);
  // Awaited only when there is something to look up: a create without secrets, registered volumes
  // or restores reaches its record's insert in the same turn.
  const spec = input.spec;
  const found =
    spec.secrets?.length || spec.imagePull || spec.volumes.some((m) => m.registered || m.restore)
      ? await lookups(d, tenant, spec)
      : { spec, used: [], secrets: undefined };
  input = { ...input, spec: found.spec };
  // A retry with the same request_id that arrived while this one awaited a lookup has been
  // recorded meanwhile: answer with that sandbox, never start a second one.
  if (input.requestId && t.byRequest.has(key)) return create(d, tenant, input);
  // Synchronous from here to the insert: no other create on this replica can claim the same writer slot.
  if (found.used.length) claimWriters(input.spec, found.used, [...t.records.values()].flatMap(volumeUses));
  checkGlobal(d);
  d.tenants?.admitCreate(tenant, live(t, tenant)); // spends the create token: nothing below refuses
  const id = input.requestId ? idForRequest(tenant, input.requestId) : randomUUID();
  const r = newRecord(id, tenant, input, admitted, t.now());
  t.records.set(r.id, r);
  if (input.requestId) t.byRequest.set(key, r.id);
  t.onStateChange?.(undefined, "PENDING");
  setState(t, r, "CREATING", "starting");
  const stored = startSandbox(d.starts, d.snapshots, r, found.secrets);
  if (stored) await stored;
  return r;
}
