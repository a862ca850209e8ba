/**
 * Stopping sandboxes: a delete (the sandbox is gone for every later RPC but Get and List), a
 * purge by tags, and the stop both and the reaper's expiry carry out.
 */
import { errors } from "../core/errors.js";
import { isTerminal, type SandboxRecord } from "../core/types.js";
import { matches } from "./list.js";
import { save, setState, type SandboxTable } from "./sandbox-table.js";

export function stop(t: SandboxTable, r: SandboxRecord, graceMs: number, why: "deleted" | "expired" | "purged") {
  if (isTerminal(r.state) || r.stop) return;
  r.stop = { requestedAtMs: t.now(), graceMs, why };
  const wasStarted = r.state === "RUNNING";
  if (!setState(t, r, "TERMINATING", why === "expired" ? "max lifetime exceeded: stopping" : "stopping")) save(t, r);
  if (wasStarted) void t.runtime.stop(r.id, graceMs).catch((e) => t.log.warn({ err: e, sandbox_id: r.id }, "stop failed"));
}

/**
 * Accepts a delete: the sandbox stops and is gone for every later RPC but Get and List. A
 * second delete finds nothing (NOT_FOUND). Returns the record, or undefined when it was
 * missing, deleted or already ended and allowMissing was set (the SDK's missing_ok stop).
 */
export function remove(
  t: SandboxTable,
  tenant: string,
  id: string,
  opts: { graceMs: number; allowMissing: boolean },
): SandboxRecord | undefined {
  const r = t.records.get(id);
  if (!r || r.tenant !== tenant || r.deletedAtMs !== undefined) {
    if (opts.allowMissing) return undefined;
    throw errors.sandboxNotFound(id);
  }
  r.deletedAtMs = t.now();
  const ended = isTerminal(r.state) || r.stop !== undefined;
  if (ended) save(t, r);
  else stop(t, r, opts.graceMs, "deleted");
  return opts.allowMissing && ended ? undefined : r;
}

export function purge(t: SandboxTable, tenant: string, q: { tags: string[]; dryRun: boolean; purgeAll: boolean }) {
  if (!q.purgeAll && q.tags.length === 0)
    throw errors.invalidField("tags", "give at least one tag, or set purge_all to purge every sandbox");
  const hits = [...t.records.values()].filter(
    (r) => r.tenant === tenant && !isTerminal(r.state) && !r.stop && matches(r, { tags: q.tags, showTerminated: false, runnerIds: [] }),
  );
  if (!q.dryRun) for (const r of hits) stop(t, r, 0, "purged");
  return { count: hits.length, failed: [] as string[], ids: hits.map((r) => r.id) };
}
