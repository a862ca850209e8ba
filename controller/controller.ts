/**
 * The controller owns sandbox lifecycle: it keeps the records (one per sandbox, scoped to
 * the tenant that created it), drives the runtime, applies limits, and runs the reaper
 * loop that carries out planReap(). It never knows which runtime it talks to.
 */
import type { SecretResolver } from "../core/secrets.js";
import type { RunnerInfo, SandboxRecord, State } from "../core/types.js";
import type { RegisteredVolume } from "../core/volumes.js";
import type { TemplateRecord } from "../core/templates.js";
import type { ExecOptions, LogOptions, Runtime } from "../runtime/types.js";
import * as commands from "./commands.js";
import { create, type CreateDeps, type CreateInput } from "./create.js";
import { createExecSlots } from "./exec-slots.js";
import { oldestStartingMs, reapLagMs, type LifecyclePolicy } from "./lifecycle.js";
import { page, type ListQuery } from "./list.js";
import { createReaper } from "./reaper.js";
import { followRuntime, type StoredWaiters } from "./runtime-events.js";
import * as table from "./sandbox-table.js";
import { createSnapshots, type SnapshotOptions } from "./snapshots.js";
import type { Starts } from "./start.js";
import { purge, remove } from "./stopping.js";
import { createTemplates } from "./templates.js";
import type { TenantGuard } from "./tenant-guard.js";
import { volumeUses } from "./volumes.js";
import { getChanged, START_WAIT_MS } from "./waits.js";

/** The in-band refusal of a log resume (the API answers it as a LogStreamError frame). */
export { LogResumeError } from "../runtime/types.js";
export { idForRequest, type CreateInput } from "./create.js";
export type { ExecHandle } from "./commands.js";
export { START_WAIT_MS } from "./waits.js";

export interface ControllerOptions {
  runtime: Runtime;
  /** The operator's templates every tenant may run (api/shared-templates.ts). */
  sharedTemplates?: TemplateRecord[];
  /** Where file-system snapshots are kept (HANGAR_SNAPSHOT_DIR); absent: snapshots are refused (CWSANDBOX_FSS_NOT_SUPPORTED). */
  snapshots?: SnapshotOptions;
  now?: () => number;
  policy: LifecyclePolicy;
  defaultLifetimeSeconds: number;
  maxLifetimeSeconds: number;
  maxSandboxes: number;
  maxExecsPerSandbox: number;
  maxExecs: number;
  maxFileBytes: number;
  reapIntervalMs: number;
  /** How long a command for a sandbox still starting waits for it to run (default START_WAIT_MS). */
  startWaitMs?: number;
  /** HANGAR_DEFAULT_DENY_EGRESS: what a sandbox that makes no network choice gets (for the effective egress echo). */
  defaultDenyEgress?: boolean;
  /** Secret stores (HANGAR_SECRET_STORES): values are resolved per create, for its tenant, and passed to that start only. */
  secrets?: SecretResolver;
  /** Per-tenant limits (controller/tenant-guard.ts, ADR 0031); absent: only the global ones. */
  tenants?: TenantGuard;
  log: { info(o: object, m: string): void; warn(o: object, m: string): void; error(o: object, m: string): void };
  onStateChange?: (from: State | undefined, to: State) => void;
  /** A sandbox this replica saw start became RUNNING, this many seconds after its create (metrics). */
  onRunning?: (secondsSinceCreate: number) => void;
}

export type Controller = ReturnType<typeof createController>;

/** The tenant's registered volumes, each with the live sandboxes of the tenant that mount it. */
function registeredVolumes(t: table.SandboxTable) {
  return {
    registered: t.runtime.volumes !== undefined,
    async list(tenant: string): Promise<{ volume: RegisteredVolume; attached: number }[]> {
      const mine = (await t.runtime.volumes?.list(tenant)) ?? [];
      const uses = [...t.records.values()].filter((r) => r.tenant === tenant).flatMap(volumeUses);
      return mine.map((volume) => ({ volume, attached: uses.filter((u) => u.volumeId === volume.id).length }));
    },
  };
}

/** The sandbox table read and moved by the API: get, held get, list, delete, purge, the gauges. */
function sandboxCalls(t: table.SandboxTable, tenants: TenantGuard | undefined) {
  function* ofTenant(tenant: string) {
    for (const r of t.records.values()) if (r.tenant === tenant) yield r;
  }
  return {
    ensure: (id: string, tenant?: string) => table.ensure(t, id, tenant),
    get: (tenant: string, id: string): SandboxRecord => table.owned(t, tenant, id),
    present: (tenant: string, id: string) => table.present(t, tenant, id),
    /** The record once its state differs from `from`, or after `maxMs` or the signal (ADR 0009). */
    getChanged: (tenant: string, id: string, from: State, maxMs: number, signal: AbortSignal, counted = true) =>
      getChanged(t, tenants, { tenant, id, from, maxMs, signal, counted }),
    list: (tenant: string, q: ListQuery) => page(ofTenant(tenant), q),
    /** Every tenant's sandboxes (the console's operator view); `tenant` narrows it to one. */
    listAcross: (tenant: string | undefined, q: ListQuery) => page(tenant === undefined ? t.records.values() : ofTenant(tenant), q),
    /** The tenant owning a sandbox this replica knows (after ensure), for the console's access decision; undefined: none. */
    ownerOf: async (id: string): Promise<string | undefined> => {
      await table.ensure(t, id);
      return t.records.get(id)?.tenant;
    },
    remove: (tenant: string, id: string, opts: { graceMs: number; allowMissing: boolean }) => remove(t, tenant, id, opts),
    stored: (id: string) => table.stored(t, id),
    purge: (tenant: string, q: { tags: string[]; dryRun: boolean; purgeAll: boolean }) => purge(t, tenant, q),
    runners: (): RunnerInfo[] => t.runtime.runners(),
    /** Container statuses and events where the runtime has them (the console). */
    describe: async (id: string) => t.runtime.describe?.(id),
    counts: () => table.counts(t),
    /** Live sandboxes per tenant (the per-tenant gauge). */
    liveByTenant: () => table.liveByTenant(t),
  };
}

/** Commands, files and logs in a sandbox, each holding the slots it needs. */
function commandCalls(cmd: commands.CommandDeps) {
  return {
    logSession: (tenant: string, id: string, container?: string) => commands.logSession(cmd.table, tenant, id, container),
    exec: (tenant: string, id: string, opts: ExecOptions & { container?: string }, signal?: AbortSignal, field = "container") =>
      commands.exec(cmd, tenant, id, opts, signal, field),
    readFile: (tenant: string, id: string, path: string, signal: AbortSignal, container?: string) =>
      commands.readFile(cmd, tenant, id, path, signal, container),
    writeFile: (tenant: string, id: string, path: string, content: Buffer, signal: AbortSignal, container?: string) =>
      commands.writeFile(cmd, tenant, id, path, content, signal, container),
    logs: (tenant: string, id: string, opts: LogOptions & { container?: string }) => commands.logs(cmd, tenant, id, opts),
  };
}

/** Assembles the controller's rooms over one sandbox table; the API reaches them through what this returns. */
export function createController(o: ControllerOptions) {
  const now = o.now ?? Date.now;
  const t = table.newTable({ runtime: o.runtime, now, log: o.log, onStateChange: o.onStateChange, onRunning: o.onRunning });
  const storedWaiters: StoredWaiters = new Map();
  followRuntime(t, storedWaiters);
  const templates = createTemplates(o.runtime.templates, now, o.sharedTemplates);
  const snapshots = createSnapshots(
    o.runtime,
    o.snapshots,
    now,
    (obj, msg) => o.log.warn(obj, msg),
    (obj, msg) => o.log.info(obj, msg),
  );
  const starts: Starts = { table: t, storing: new Map(), storedWaiters };
  const admission = {
    defaultDenyEgress: o.defaultDenyEgress,
    defaultLifetimeSeconds: o.defaultLifetimeSeconds,
    maxLifetimeSeconds: o.maxLifetimeSeconds,
  };
  const creates: CreateDeps = {
    table: t,
    starts,
    snapshots,
    admission,
    maxSandboxes: o.maxSandboxes,
    secrets: o.secrets,
    tenants: o.tenants,
  };
  const slots = createExecSlots(t, o.tenants, o);
  const cmd: commands.CommandDeps = {
    table: t,
    tenants: o.tenants,
    slots,
    startWaitMs: o.startWaitMs ?? START_WAIT_MS,
    maxFileBytes: o.maxFileBytes,
  };
  const reaper = createReaper(t, o.policy, o.reapIntervalMs);
  return {
    templates,
    volumes: registeredVolumes(t),
    snapshots,
    /** A snapshot of one of the tenant's running sandboxes (wait: until READY or FAILED, as a stop's). */
    async snapshot(
      tenant: string,
      id: string,
      volume: string | undefined,
      trigger: "MANUAL" | "ON_DELETE",
      requestId: string,
      wait: boolean,
    ) {
      await table.ensure(t, id, tenant);
      return snapshots.create(table.owned(t, tenant, id), volume, trigger, requestId, wait);
    },
    create: (tenant: string, input: CreateInput) => create(creates, tenant, input),
    ...sandboxCalls(t, o.tenants),
    ...commandCalls(cmd),
    reapOnce: () => reaper.reapOnce(),
    /** How far behind the reaper is, and how long the oldest start has taken so far (metrics). */
    lifecycleStats: () => ({
      reapLagSeconds: reapLagMs(t.records.values(), now(), o.policy) / 1000,
      oldestStartingSeconds: oldestStartingMs(t.records.values(), now()) / 1000,
    }),
    /** Loads the stored records (a restart, other replicas) and starts the reaper. */
    async start() {
      if (o.runtime.records) await o.runtime.records.open();
      reaper.start();
    },
    async close() {
      reaper.stop();
      await o.runtime.close();
    },
  };
}
