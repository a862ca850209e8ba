/**
 * What runs in a sandbox on a caller's behalf: commands (exec), file reads and writes, and log
 * streams, each in the container the call names, holding the slots it needs.
 */
import { errors } from "../core/errors.js";
import { reportKills } from "../core/kill.js";
import { containerTarget } from "../core/types.js";
import type { ExecOptions, ExecProcess, LogChunk, LogOptions } from "../runtime/types.js";
import type { ExecSlots } from "./exec-slots.js";
import * as files from "./files.js";
import { ensure, present, type SandboxTable } from "./sandbox-table.js";
import { releasing, type TenantGuard } from "./tenant-guard.js";
import { startedOrWait } from "./waits.js";

export interface ExecHandle {
  process: ExecProcess;
  release(): void;
}

export interface CommandDeps {
  table: SandboxTable;
  tenants: TenantGuard | undefined;
  slots: ExecSlots;
  startWaitMs: number;
  maxFileBytes: number;
}

/** The sidecar a call names by `container` (undefined: the primary); an unknown name is INVALID_ARGUMENT. */
function sidecarFor(t: SandboxTable, tenant: string, id: string, container: string | undefined, field: string): string | undefined {
  const c = containerTarget(present(t, tenant, id).spec, container);
  if (!c) throw errors.invalidField(field, `this sandbox has no container "${String(container).slice(0, 64)}"`);
  return c.sidecar;
}

/** Waits for a starting sandbox, then takes a slot: the returned release gives it back. */
async function slot(d: CommandDeps, tenant: string, id: string, signal?: AbortSignal): Promise<() => void> {
  await startedOrWait(d.table, d.tenants, d.startWaitMs, { tenant, id, signal });
  return d.slots.take(tenant, id);
}

export async function exec(
  d: CommandDeps,
  tenant: string,
  id: string,
  opts: ExecOptions & { container?: string },
  signal?: AbortSignal,
  field = "container",
): Promise<ExecHandle> {
  const t = d.table;
  await ensure(t, id, tenant);
  const { container, ...rest } = opts;
  const sidecar = sidecarFor(t, tenant, id, container, field);
  const release = await slot(d, tenant, id, signal);
  try {
    // A kill that fails is counted and logged with the sandbox id, then rethrown to the caller (ADR 0032).
    const p = await t.runtime.exec(id, { ...rest, ...(sidecar ? { sidecar } : {}) });
    return { process: reportKills(p, t.runtime.name, id), release };
  } catch (e) {
    release();
    throw e;
  }
}

async function withExecSlot<T>(d: CommandDeps, tenant: string, id: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  await ensure(d.table, id, tenant);
  const release = await slot(d, tenant, id, signal);
  try {
    return await fn();
  } finally {
    release();
  }
}

export async function readFile(d: CommandDeps, tenant: string, id: string, path: string, signal: AbortSignal, container?: string) {
  await ensure(d.table, id, tenant);
  const sidecar = sidecarFor(d.table, tenant, id, container, "container");
  return withExecSlot(d, tenant, id, () => files.readFile(d.table.runtime, id, path, d.maxFileBytes, signal, sidecar), signal);
}

export function writeFile(
  d: CommandDeps,
  tenant: string,
  id: string,
  path: string,
  content: Buffer,
  signal: AbortSignal,
  container?: string,
) {
  if (content.length > d.maxFileBytes) throw errors.fileTooLarge(path, "write", content.length, d.maxFileBytes);
  return (async () => {
    await ensure(d.table, id, tenant);
    const sidecar = sidecarFor(d.table, tenant, id, container, "container");
    return withExecSlot(d, tenant, id, () => files.writeFile(d.table.runtime, id, path, content, signal, sidecar), signal);
  })();
}

export function logs(d: CommandDeps, tenant: string, id: string, opts: LogOptions & { container?: string }): AsyncIterable<LogChunk> {
  const r = present(d.table, tenant, id);
  if (r.state === "PENDING" || r.state === "CREATING") throw errors.notRunning(id, r.state);
  const { container, ...rest } = opts;
  const sidecar = sidecarFor(d.table, tenant, id, container, "container");
  const stream = d.table.runtime.logs(id, { ...rest, ...(sidecar ? { sidecar } : {}) });
  const held = rest.follow ? d.tenants?.acquire(tenant, "held_calls") : undefined; // a followed log waits as long as the sandbox runs
  return held ? releasing(stream, held) : stream;
}

/** The sandbox's log timeline id (resumable streams), undefined where the runtime cannot resume. */
export function logSession(t: SandboxTable, tenant: string, id: string, container?: string): string | undefined {
  const c = containerTarget(present(t, tenant, id).spec, container);
  return c && !c.sidecar ? t.runtime.logSession?.(id) : undefined; // sidecar logs are not resumable
}
