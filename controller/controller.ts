/**
 * The controller owns sandbox lifecycle: it keeps the records (one per sandbox, scoped to
 * the tenant that created it), drives the runtime, applies limits, and runs the reaper
 * loop that carries out planReap(). It never knows which runtime it talks to.
 */
import { createHash, randomUUID } from "node:crypto";
import { errors } from "../core/errors.js";
import { killFailures, reportKills, withKillNote } from "../core/kill.js";
import { dockerConfig, type PullCredentials, type SecretResolver } from "../core/secrets.js";
import { effectiveGrants } from "../core/egress.js";
import { publicRoute, tlsAddress } from "../core/public-url.js";
import { chooseRunner } from "./placement.js";
import {
  containerTarget,
  isTerminal,
  NODE_DEFAULT_RUNTIME_CLASS,
  serviceKey,
  serviceUrl,
  type RunnerInfo,
  type ServicePort,
  type SandboxRecord,
  type SandboxSpec,
  type State,
} from "../core/types.js";
import type { ExecOptions, ExecProcess, ExitInfo, LogChunk, LogOptions, Runtime, RuntimeEvent, StartedSandbox } from "../runtime/types.js";
import * as files from "./files.js";
import { createTemplates } from "./templates.js";
import { claimWriters, resolveVolumes, volumeUses } from "./volumes.js";
import { createSnapshots, type SnapshotOptions } from "./snapshots.js";
import type { RegisteredVolume } from "../core/volumes.js";
import type { TemplateRecord } from "../core/templates.js";

/** The in-band refusal of a log resume (the API answers it as a LogStreamError frame). */
export { LogResumeError } from "../runtime/types.js";
import { canMove, mergeStored, planReap, stateOnExit, type LifecyclePolicy } from "./lifecycle.js";
import { matches, page, type ListQuery } from "./list.js";
import { releasing, type TenantGuard } from "./tenant-guard.js";

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
}

export interface CreateInput {
  spec: SandboxSpec;
  echo: unknown;
  requestId: string;
  /** A name for people (Sandbox.display_name), stored and echoed. */
  displayName?: string;
}

export interface ExecHandle {
  process: ExecProcess;
  release(): void;
}

export type Controller = ReturnType<typeof createController>;

export const START_WAIT_MS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NEVER = new AbortController().signal;

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

export function createController(o: ControllerOptions) {
  const now = o.now ?? Date.now;
  const records = new Map<string, SandboxRecord>();
  const byRequest = new Map<string, string>();
  const execCounts = new Map<string, number>();
  /** Callers waiting for a sandbox's state to change (a held GetSandbox), by sandbox id. */
  const waiters = new Map<string, Set<() => void>>();
  /** Creates whose record is not stored yet (durable runtimes): a retried create waits for the first. */
  const storing = new Map<string, Promise<void>>();
  let execTotal = 0;
  let timer: NodeJS.Timeout | undefined;

  const requestKey = (tenant: string, requestId: string) => `${tenant}\u0000${requestId}`;

  const changed = (id: string) => {
    const w = waiters.get(id);
    if (!w) return;
    waiters.delete(id);
    for (const wake of w) wake();
  };

  /** Stores the record where it outlives this process, when the runtime can (Kubernetes: on the pod). */
  const saving = new Map<string, Promise<void>>();
  const save = (r: SandboxRecord) => {
    const p = o.runtime.records?.save(r).catch((e: unknown) => o.log.warn({ err: e, sandbox_id: r.id }, "could not store the record"));
    if (!p) return;
    saving.set(r.id, p);
    void p.finally(() => {
      if (saving.get(r.id) === p) saving.delete(r.id);
    });
  };
  /** Settles when what was last stored of the sandbox has landed (saves land in call order): a delete is answered once its stop is durable. */
  const stored = (id: string): Promise<void> => saving.get(id) ?? Promise.resolve();

  const setState = (r: SandboxRecord, to: State, reason: string, stored = false) => {
    if (r.state === to || !canMove(r.state, to)) return false;
    const from = r.state;
    r.state = to;
    r.stateReason = reason;
    r.preparing = undefined;
    if (isTerminal(to)) r.endedAtMs ??= now();
    o.onStateChange?.(from, to);
    changed(r.id);
    if (to !== "CREATING" && !stored) save(r); // CREATING is stored with the pod itself
    return true;
  };

  /** A starting sandbox's reason follows the runtime's (a GPU sandbox waiting for the scheduler says why). */
  const onProgress = (id: string, reason: string, preparing = false) => {
    const r = records.get(id);
    if (r?.state !== "CREATING") return;
    r.stateReason = reason;
    if (!!r.preparing === preparing) return;
    r.preparing = preparing || undefined;
    changed(id); // a held Get sees PREPARING begin and end
  };

  /** A record stored by another replica or before a restart: new ones are taken as they are, known ones only move forward. */
  const onRecord = (stored: SandboxRecord) => {
    const r = records.get(stored.id);
    if (!r) {
      records.set(stored.id, stored);
      if (stored.requestId) byRequest.set(requestKey(stored.tenant, stored.requestId), stored.id);
      o.onStateChange?.(undefined, stored.state);
      return;
    }
    const m = mergeStored(r, stored);
    if (!m) return;
    const from = r.state;
    Object.assign(r, m);
    if (m.state) {
      o.onStateChange?.(from, m.state);
      changed(r.id);
    }
  };

  const owned = (tenant: string, id: string): SandboxRecord => {
    const r = records.get(id);
    if (!r || r.tenant !== tenant) throw errors.sandboxNotFound(id);
    return r;
  };

  /** A sandbox of this tenant that was not deleted: what every RPC but Get and List acts on. */
  const present = (tenant: string, id: string): SandboxRecord => {
    const r = owned(tenant, id);
    if (r.deletedAtMs !== undefined) throw errors.sandboxNotFound(id);
    return r;
  };

  const running = (tenant: string, id: string): SandboxRecord => {
    const r = present(tenant, id);
    if (r.state !== "RUNNING") throw errors.notRunning(id, r.state);
    return r;
  };

  /** A start another replica began and this one finished (that one is gone): RUNNING, stored first. */
  const onStarted = (id: string, started: StartedSandbox) => {
    const r = records.get(id);
    if (!r || r.state !== "CREATING") return;
    r.imageNote = started.imageNote;
    r.startedAtMs = started.startedAtMs;
    void becomeRunning(r, started.imageNote);
  };

  /** Sandboxes whose end is being stored before it is shown. */
  const ending = new Set<string>();
  /**
   * The main process ended. With durable records the end is shown once stored, like RUNNING: a
   * caller that saw COMPLETED and then finds this replica restarted sees COMPLETED there too.
   */
  const onExit = (id: string, exit: ExitInfo) => {
    const r = records.get(id);
    if (!r || isTerminal(r.state) || ending.has(id)) return;
    // The runtime saw the main process run (a replica that did not start it, or an exit reported
    // before the start's own answer): it did not die "during start".
    if (r.startedAtMs === undefined && exit.ranAtMs !== undefined && !exit.startFailure) r.startedAtMs = exit.ranAtMs;
    const next = stateOnExit(r, exit.exitCode, exit.reason, exit.startFailure, exit.endedBy);
    const apply = () => {
      ending.delete(id);
      if (isTerminal(r.state)) return;
      r.exitCode = exit.exitCode;
      r.endedAtMs = exit.endedAtMs;
      setState(r, next.state, next.reason, !!o.runtime.records);
      o.log.info({ sandbox_id: id, state: r.state, exit_code: exit.exitCode }, "sandbox ended");
    };
    if (!o.runtime.records) return apply();
    ending.add(id);
    const ended: SandboxRecord = { ...r, exitCode: exit.exitCode, endedAtMs: exit.endedAtMs, state: next.state, stateReason: next.reason };
    void o.runtime.records
      .save(ended)
      .catch((e: unknown) => o.log.warn({ err: e, sandbox_id: id }, "could not store the record"))
      .then(apply);
  };

  /** Creates waiting for their record to be stored ("stored" events), by sandbox id. */
  const storedWaiters = new Map<string, () => void>();

  /** The runtime's one stream of events: every input from below that is not an answer to a call. */
  const onEvent = (e: RuntimeEvent) => {
    switch (e.t) {
      case "progress":
        return onProgress(e.id, e.reason, e.preparing);
      case "stored": {
        const w = storedWaiters.get(e.id);
        storedWaiters.delete(e.id);
        return w?.();
      }
      case "exit":
        return onExit(e.id, e.exit);
      case "record":
        return onRecord(e.record);
      case "started":
        return onStarted(e.id, e.started);
    }
  };
  o.runtime.subscribe(onEvent);

  const live = (tenant?: string) => {
    let n = 0; // one pass, no copy: this runs on every create
    for (const r of records.values()) if (!isTerminal(r.state) && (tenant === undefined || r.tenant === tenant)) n++;
    return n;
  };

  const checkGlobal = () => {
    if (live() >= o.maxSandboxes) throw errors.capacityExhausted(`this Hangar runs at most ${o.maxSandboxes} sandboxes at once`, 2000);
  };

  /** The Docker config a sandbox's image is pulled with, from the tenant's store. */
  async function pullConfigFor(tenant: string, p: PullCredentials): Promise<string> {
    if (!o.secrets) throw errors.invalidField(p.secret.at, "no secret stores are configured on this Hangar");
    const d = dockerConfig(p.registry, await o.secrets.value(tenant, p.secret));
    if ("problem" in d) throw errors.secretUnavailable(p.secret.at, `secret "${p.secret.name}" of store "${p.secret.store}" ${d.problem}`);
    return d.config;
  }

  async function create(tenant: string, input: CreateInput): Promise<SandboxRecord> {
    const key = requestKey(tenant, input.requestId);
    if (input.requestId) {
      const existing = byRequest.get(key);
      const rec = existing ? records.get(existing) : undefined;
      if (rec) {
        if (rec.spec.compose?.digest !== input.spec.compose?.digest) throw errors.requestIdConflict(input.requestId);
        // A retry while the first is still being stored answers when that one does.
        await storing.get(rec.id);
        if (records.get(rec.id) !== rec) return create(tenant, input);
        return rec;
      }
    }
    // Judged now so that a create over a limit costs no lookup, and again at the insert below:
    // parallel creates awaiting their lookups would otherwise all pass on the same count.
    checkGlobal();
    o.tenants?.checkCreate(tenant, live(tenant));
    const placed = chooseRunner(input.spec, o.runtime.runners());
    if ("refused" in placed)
      throw placed.reason
        ? errors.endpointNotSupported(placed.reason, placed.refused)
        : placed.field
          ? errors.invalidField(placed.field, placed.refused)
          : errors.noSuitableRunner(placed.refused);
    const runner = placed.runner;
    // Looked up before anything is stored: a secret the tenant's store lacks refuses the create.
    const secretRefs = input.spec.secrets ?? [];
    if (secretRefs.length && !o.secrets)
      throw errors.invalidField(secretRefs[0]?.at ?? "secret_stores", "no secret stores are configured on this Hangar");
    const secretValues = secretRefs.length && o.secrets ? await o.secrets.resolve(tenant, secretRefs) : undefined;
    const pullConfig = input.spec.imagePull ? await pullConfigFor(tenant, input.spec.imagePull) : undefined;
    // Awaited only when there is something to look up: a create without registered volumes (or
    // secrets) reaches its record's insert in the same turn.
    const { spec: resolved, used: volumesUsed } = input.spec.volumes.some((m) => m.registered)
      ? await resolveVolumes(tenant, input.spec, o.runtime.volumes)
      : { spec: input.spec, used: [] };
    input = { ...input, spec: resolved };
    if (input.spec.volumes.some((m) => m.restore)) await snapshots.checkRestores(tenant, input.spec);
    // A retry with the same request_id that arrived while this one awaited a lookup has been
    // recorded meanwhile: answer with that sandbox, never start a second one.
    if (input.requestId && byRequest.has(key)) return create(tenant, input);
    // Synchronous from here to the insert: no other create on this replica can claim the same writer slot.
    if (volumesUsed.length) claimWriters(input.spec, volumesUsed, [...records.values()].flatMap(volumeUses));
    checkGlobal();
    o.tenants?.admitCreate(tenant, live(tenant)); // spends the create token: nothing below refuses
    const lifetime = input.spec.maxLifetimeSeconds > 0 ? input.spec.maxLifetimeSeconds : o.defaultLifetimeSeconds;
    const gvisor = !!input.spec.runtimeClass && !!runner.gvisorRuntimeClasses?.includes(input.spec.runtimeClass);
    const r: SandboxRecord = {
      id: input.requestId ? idForRequest(tenant, input.requestId) : randomUUID(),
      tenant,
      requestId: input.requestId || undefined,
      spec: input.spec,
      echo: input.echo,
      state: "PENDING",
      stateReason: "accepted",
      createdAtMs: now(),
      runnerId: runner.runnerId,
      runnerGroupId: runner.runnerGroupId,
      effectiveLifetimeSeconds: Math.min(lifetime, o.maxLifetimeSeconds),
      effectiveRuntimeClass: input.spec.runtimeClass || runner.defaultRuntimeClass || NODE_DEFAULT_RUNTIME_CLASS,
      effectiveEgress: gvisor ? [] : effectiveGrants(input.spec, o.defaultDenyEgress ?? true),
      gvisor,
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
    records.set(r.id, r);
    if (input.requestId) byRequest.set(key, r.id);
    o.onStateChange?.(undefined, "PENDING");
    setState(r, "CREATING", "starting");
    // With durable records the create is answered once the record is stored (a replica killed
    // right after answering must not lose an acknowledged sandbox); a start that fails before
    // that leaves nothing behind, so a retry with the same request_id starts afresh.
    let stored!: () => void;
    const durable = o.runtime.records ? new Promise<void>((res) => (stored = res)) : undefined;
    let isStored = !durable;
    const onStored = () => {
      isStored = true;
      storedWaiters.delete(r.id);
      stored?.();
    };
    if (durable) storedWaiters.set(r.id, onStored);
    const startFailed = new Promise<never>((_, rej) => {
      const secrets = secretValues || pullConfig ? { env: secretValues, pullConfig } : undefined;
      const starting = r.spec.volumes.some((m) => m.restore)
        ? snapshots.layered(tenant, r.spec).then((spec) => o.runtime.start({ ...r, spec }, secrets))
        : o.runtime.start(r, secrets);
      starting.then(
        (started) => {
          onStored();
          r.imageNote = started.imageNote;
          r.startedAtMs = started.startedAtMs;
          if (!r.spec.volumes.some((m) => m.restore)) return void becomeRunning(r, started.imageNote, started.stored);
          // Restored volumes are filled before the sandbox shows RUNNING.
          snapshots.restore(r, started.restored).then(
            () =>
              becomeRunning(
                r,
                `${started.imageNote}; restored from ${r.spec.volumes.flatMap((m) => (m.restore ? [m.restore.snapshotId] : [])).join(", ")}`,
                false,
              ),
            (e: unknown) => {
              o.log.warn({ sandbox_id: r.id, err: e }, "restore failed");
              if (!isTerminal(r.state)) setState(r, "FAILED", (e as Error).message);
              void o.runtime.stop(r.id, 0).catch(() => undefined);
            },
          );
        },
        (e: unknown) => {
          storedWaiters.delete(r.id);
          if (!isStored) {
            // Never stored: as if the create had not happened (the caller gets the error).
            records.delete(r.id);
            if (input.requestId && byRequest.get(key) === r.id) byRequest.delete(key);
            o.onStateChange?.(r.state, "FAILED");
            rej(e);
            return;
          }
          o.log.warn({ sandbox_id: r.id, err: e }, "sandbox failed to start");
          if (!isTerminal(r.state)) setState(r, "FAILED", `failed to start: ${(e as Error).message}`);
          // A durable record stays until retention ends (the reaper removes it then).
          if (!o.runtime.records) void o.runtime.remove(r.id);
        },
      );
    });
    startFailed.catch(() => undefined);
    if (durable) {
      storing.set(
        r.id,
        Promise.race([durable, startFailed]).catch(() => undefined),
      );
      try {
        await Promise.race([durable, startFailed]);
      } finally {
        storing.delete(r.id);
      }
    }
    return r;
  }

  /**
   * RUNNING is shown only once it is stored: a caller that saw RUNNING here and goes to another
   * replica (or finds this one restarted) finds it RUNNING there too.
   */
  async function becomeRunning(r: SandboxRecord, note: string, alreadyStored = false) {
    if (r.state === "CREATING" && alreadyStored) setState(r, "RUNNING", note, true);
    else if (r.state === "CREATING" && o.runtime.records) {
      await o.runtime.records
        .save({ ...r, state: "RUNNING", stateReason: note })
        .catch((e: unknown) => o.log.warn({ err: e, sandbox_id: r.id }, "could not store the record"));
      if (r.state === "CREATING") setState(r, "RUNNING", note, true);
    } else if (r.state === "CREATING") setState(r, "RUNNING", note);
    if (r.stop) void o.runtime.stop(r.id, r.stop.graceMs).catch((e) => o.log.warn({ err: e, sandbox_id: r.id }, "stop failed"));
  }

  function get(tenant: string, id: string): SandboxRecord {
    return owned(tenant, id);
  }

  /**
   * The record once its state differs from `from`, or as it is after `maxMs` or when the
   * signal fires: a GetSandbox of a sandbox in a transitional state answers the moment it
   * moves on instead of leaving the caller to poll (ADR 0009).
   */
  async function getChanged(
    tenant: string,
    id: string,
    from: State,
    maxMs: number,
    signal: AbortSignal,
    counted = true,
  ): Promise<SandboxRecord> {
    const r = owned(tenant, id);
    if (r.state !== from || maxMs <= 0 || signal.aborted) return r;
    // A tenant at its held_calls limit is answered at once, as a poll would be (the hold only saves it the next poll).
    const held = counted && o.tenants ? o.tenants.tryAcquire(tenant, "held_calls") : () => undefined;
    if (!held) return r;
    await new Promise<void>((resolve) => {
      const set = waiters.get(id) ?? new Set<() => void>();
      waiters.set(id, set);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        set.delete(done);
        if (set.size === 0 && waiters.get(id) === set) waiters.delete(id);
        resolve();
      };
      const timer = setTimeout(done, maxMs);
      signal.addEventListener("abort", done, { once: true });
      set.add(done);
    }).finally(held);
    return owned(tenant, id);
  }

  function* ofTenant(tenant: string) {
    for (const r of records.values()) if (r.tenant === tenant) yield r;
  }
  function list(tenant: string, q: ListQuery) {
    return page(ofTenant(tenant), q);
  }

  function stop(r: SandboxRecord, graceMs: number, why: "deleted" | "expired" | "purged") {
    if (isTerminal(r.state) || r.stop) return;
    r.stop = { requestedAtMs: now(), graceMs, why };
    const wasStarted = r.state === "RUNNING";
    if (!setState(r, "TERMINATING", why === "expired" ? "max lifetime exceeded: stopping" : "stopping")) save(r);
    if (wasStarted) void o.runtime.stop(r.id, graceMs).catch((e) => o.log.warn({ err: e, sandbox_id: r.id }, "stop failed"));
  }

  /**
   * Accepts a delete: the sandbox stops and is gone for every later RPC but Get and List. A
   * second delete finds nothing (NOT_FOUND). Returns the record, or undefined when it was
   * missing, deleted or already ended and allowMissing was set (the SDK's missing_ok stop).
   */
  function remove(tenant: string, id: string, opts: { graceMs: number; allowMissing: boolean }): SandboxRecord | undefined {
    const r = records.get(id);
    if (!r || r.tenant !== tenant || r.deletedAtMs !== undefined) {
      if (opts.allowMissing) return undefined;
      throw errors.sandboxNotFound(id);
    }
    r.deletedAtMs = now();
    const ended = isTerminal(r.state) || r.stop !== undefined;
    if (ended) save(r);
    else stop(r, opts.graceMs, "deleted");
    return opts.allowMissing && ended ? undefined : r;
  }

  function purge(tenant: string, q: { tags: string[]; dryRun: boolean; purgeAll: boolean }) {
    if (!q.purgeAll && q.tags.length === 0)
      throw errors.invalidField("tags", "give at least one tag, or set purge_all to purge every sandbox");
    const hits = [...records.values()].filter(
      (r) => r.tenant === tenant && !isTerminal(r.state) && !r.stop && matches(r, { tags: q.tags, showTerminated: false, runnerIds: [] }),
    );
    if (!q.dryRun) for (const r of hits) stop(r, 0, "purged");
    return { count: hits.length, failed: [] as string[], ids: hits.map((r) => r.id) };
  }

  /**
   * A sandbox still starting is waited for (at most START_WAIT_MS, or until the caller goes)
   * before a command is refused as not running: another replica may have answered RUNNING a
   * moment before this one's watch shows it, and an apiserver outage delays that further.
   */
  async function startedOrWait(tenant: string, id: string, signal?: AbortSignal): Promise<void> {
    const until = now() + (o.startWaitMs ?? START_WAIT_MS);
    const first = present(tenant, id);
    if (first.state !== "PENDING" && first.state !== "CREATING") return;
    const held = o.tenants?.acquire(tenant, "held_calls"); // one slot for the whole wait
    try {
      for (let r = first; (r.state === "PENDING" || r.state === "CREATING") && !signal?.aborted;) {
        const left = until - now();
        if (left <= 0) return;
        const before = r.state;
        r = await getChanged(tenant, id, before, left, signal ?? NEVER, false);
        if (r.state === before) return; // waited all it may
      }
    } finally {
      held?.();
    }
  }

  /** Takes one of the sandbox's and Hangar's concurrent-command slots; the returned release is idempotent. */
  function takeSlot(tenant: string, id: string): () => void {
    running(tenant, id);
    const n = execCounts.get(id) ?? 0;
    if (n >= o.maxExecsPerSandbox)
      throw errors.tooManyExecs(`sandbox ${id} already runs ${n} commands (limit ${o.maxExecsPerSandbox})`, 500);
    if (execTotal >= o.maxExecs) throw errors.tooManyExecs(`Hangar already runs ${execTotal} commands (limit ${o.maxExecs})`, 500);
    const tenantSlot = o.tenants?.acquire(tenant, "exec_streams");
    execCounts.set(id, n + 1);
    execTotal++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      tenantSlot?.();
      execTotal--;
      const c = (execCounts.get(id) ?? 1) - 1;
      if (c <= 0) execCounts.delete(id);
      else execCounts.set(id, c);
    };
  }

  /** The sidecar a call names by `container` (undefined: the primary); an unknown name is INVALID_ARGUMENT. */
  function sidecarFor(tenant: string, id: string, container: string | undefined, field: string): string | undefined {
    const t = containerTarget(present(tenant, id).spec, container);
    if (!t) throw errors.invalidField(field, `this sandbox has no container "${String(container).slice(0, 64)}"`);
    return t.sidecar;
  }

  async function exec(
    tenant: string,
    id: string,
    opts: ExecOptions & { container?: string },
    signal?: AbortSignal,
    field = "container",
  ): Promise<ExecHandle> {
    await ensure(id, tenant);
    const { container, ...rest } = opts;
    const sidecar = sidecarFor(tenant, id, container, field);
    await startedOrWait(tenant, id, signal);
    const release = takeSlot(tenant, id);
    try {
      // A kill that fails is counted and logged with the sandbox id, then rethrown to the caller (ADR 0032).
      return { process: reportKills(await o.runtime.exec(id, { ...rest, ...(sidecar ? { sidecar } : {}) }), o.runtime.name, id), release };
    } catch (e) {
      release();
      throw e;
    }
  }

  async function withExecSlot<T>(tenant: string, id: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await ensure(id, tenant);
    await startedOrWait(tenant, id, signal);
    const release = takeSlot(tenant, id);
    try {
      return await fn();
    } finally {
      release();
    }
  }

  const readFile = async (tenant: string, id: string, path: string, signal: AbortSignal, container?: string) => {
    await ensure(id, tenant);
    const sidecar = sidecarFor(tenant, id, container, "container");
    return withExecSlot(tenant, id, () => files.readFile(o.runtime, id, path, o.maxFileBytes, signal, sidecar), signal);
  };

  const writeFile = (tenant: string, id: string, path: string, content: Buffer, signal: AbortSignal, container?: string) => {
    if (content.length > o.maxFileBytes) throw errors.fileTooLarge(path, "write", content.length, o.maxFileBytes);
    return (async () => {
      await ensure(id, tenant);
      const sidecar = sidecarFor(tenant, id, container, "container");
      return withExecSlot(tenant, id, () => files.writeFile(o.runtime, id, path, content, signal, sidecar), signal);
    })();
  };

  function logs(tenant: string, id: string, opts: LogOptions & { container?: string }): AsyncIterable<LogChunk> {
    const r = present(tenant, id);
    if (r.state === "PENDING" || r.state === "CREATING") throw errors.notRunning(id, r.state);
    const { container, ...rest } = opts;
    const sidecar = sidecarFor(tenant, id, container, "container");
    const stream = o.runtime.logs(id, { ...rest, ...(sidecar ? { sidecar } : {}) });
    const held = rest.follow ? o.tenants?.acquire(tenant, "held_calls") : undefined; // a followed log waits as long as the sandbox runs
    return held ? releasing(stream, held) : stream;
  }

  /** The sandbox's log timeline id (resumable streams), undefined where the runtime cannot resume. */
  function logSession(tenant: string, id: string, container?: string): string | undefined {
    const t = containerTarget(present(tenant, id).spec, container);
    return t && !t.sidecar ? o.runtime.logSession?.(id) : undefined; // sidecar logs are not resumable
  }

  /** One sweep at a time: a call while a sweep runs (a slow stop, a slow remove) joins that sweep. */
  let reaping: Promise<void> | undefined;
  function reapOnce(): Promise<void> {
    reaping ??= sweep().finally(() => (reaping = undefined));
    return reaping;
  }

  async function sweep(): Promise<void> {
    for (const a of planReap(records.values(), now(), o.policy)) {
      const r = records.get(a.id);
      if (!r) continue;
      if (a.t === "expire") {
        o.log.info({ sandbox_id: r.id, lifetime_s: r.effectiveLifetimeSeconds }, "max lifetime exceeded");
        stop(r, a.graceMs, "expired");
      } else if (a.t === "force-kill") {
        o.log.warn({ sandbox_id: r.id }, "sandbox did not stop after its grace period: killing");
        // A force kill that fails is counted, logged and retried on the next sweeps (after stuckAfterMs each).
        await o.runtime.stop(r.id, 0).catch((e: unknown) => {
          killFailures.report(o.runtime.name, r.id, e, "the sandbox (force kill)");
          r.stateReason = withKillNote(r.stateReason, e); // GetSandbox shows it (state_reason)
        });
        if (r.stop) r.stop.requestedAtMs = now();
      } else {
        records.delete(r.id);
        if (r.requestId) byRequest.delete(requestKey(r.tenant, r.requestId));
        await o.runtime.remove(r.id).catch((e) => o.log.warn({ err: e, sandbox_id: r.id }, "remove failed"));
      }
    }
  }

  /**
   * Before an id this replica does not know is answered NOT_FOUND: another replica may have just
   * created it (the create answered there; the watch here is a moment behind, or longer while the
   * apiserver restarts). The runtime settles it from its watch (runtime/kubernetes/id-lookup.ts).
   * Ids that are not UUIDs are not looked up (NOT_FOUND for them costs nothing).
   */
  async function ensure(id: string, tenant?: string): Promise<void> {
    const known = records.get(id);
    // Another tenant's id waits as an unknown one does: the answer's timing tells nothing.
    if ((known && (tenant === undefined || known.tenant === tenant)) || !o.runtime.records?.lookup || !UUID.test(id)) return;
    await o.runtime.records.lookup(id).catch((e: unknown) => o.log.warn({ err: e, sandbox_id: id }, "could not look the sandbox up"));
  }

  /** Loads the stored records (a restart, other replicas) and starts the reaper. */
  async function start() {
    if (o.runtime.records) await o.runtime.records.open();
    timer = setInterval(() => void reapOnce().catch((e) => o.log.error({ err: e }, "reaper tick failed")), o.reapIntervalMs);
    timer.unref();
  }

  async function close() {
    if (timer) clearInterval(timer);
    await o.runtime.close();
  }

  const runners = (): RunnerInfo[] => o.runtime.runners();
  const counts = () => {
    const c: Record<string, number> = {};
    for (const r of records.values()) c[r.state] = (c[r.state] ?? 0) + 1;
    return c;
  };
  /** Live sandboxes per tenant (the per-tenant gauge). */
  const liveByTenant = () => {
    const c = new Map<string, number>();
    for (const r of records.values()) if (!isTerminal(r.state)) c.set(r.tenant, (c.get(r.tenant) ?? 0) + 1);
    return c;
  };

  const templates = createTemplates(o.runtime.templates, now, o.sharedTemplates);
  const snapshots = createSnapshots(
    o.runtime,
    o.snapshots,
    now,
    (obj, msg) => o.log.warn(obj, msg),
    (obj, msg) => o.log.info(obj, msg),
  );
  /** A snapshot of one of the tenant's running sandboxes (wait: until READY or FAILED, as a stop's). */
  async function snapshot(
    tenant: string,
    id: string,
    volume: string | undefined,
    trigger: "MANUAL" | "ON_DELETE",
    requestId: string,
    wait: boolean,
  ) {
    await ensure(id, tenant);
    return snapshots.create(owned(tenant, id), volume, trigger, requestId, wait);
  }
  /** The tenant's registered volumes, each with the live sandboxes of the tenant that mount it. */
  const volumes = {
    registered: o.runtime.volumes !== undefined,
    async list(tenant: string): Promise<{ volume: RegisteredVolume; attached: number }[]> {
      const mine = (await o.runtime.volumes?.list(tenant)) ?? [];
      const uses = [...records.values()].filter((r) => r.tenant === tenant).flatMap(volumeUses);
      return mine.map((volume) => ({ volume, attached: uses.filter((u) => u.volumeId === volume.id).length }));
    },
  };
  return {
    templates,
    volumes,
    snapshots,
    snapshot,
    logSession,
    create,
    ensure,
    get,
    present,
    getChanged,
    list,
    remove,
    stored,
    purge,
    exec,
    readFile,
    writeFile,
    logs,
    runners,
    reapOnce,
    start,
    close,
    counts,
    liveByTenant,
  };
}
