/**
 * The start of an inserted record (CREATING): the runtime starts what the record says, restored
 * volumes are filled before RUNNING is shown, and with durable records the create is answered once
 * the record is stored. A start that fails before that leaves nothing behind.
 */
import type { StartSecrets } from "../core/secrets.js";
import { isTerminal, type SandboxRecord } from "../core/types.js";
import type { StartedSandbox } from "../runtime/types.js";
import type { StoredWaiters } from "./runtime-events.js";
import { becomeRunning, requestKey, setState, type SandboxTable } from "./sandbox-table.js";
import type { Snapshots } from "./snapshots.js";

export interface Starts {
  table: SandboxTable;
  /** Creates whose record is not stored yet (durable runtimes): a retried create waits for the first. */
  storing: Map<string, Promise<void>>;
  storedWaiters: StoredWaiters;
}

/** Started: RUNNING once stored, after the restored volumes are filled. */
function onStarted(t: SandboxTable, snapshots: Snapshots, r: SandboxRecord, started: StartedSandbox) {
  r.imageNote = started.imageNote;
  r.startedAtMs = started.startedAtMs;
  if (!r.spec.volumes.some((m) => m.restore)) return void becomeRunning(t, r, started.imageNote, started.stored);
  // Restored volumes are filled before the sandbox shows RUNNING.
  const from = r.spec.volumes.flatMap((m) => (m.restore ? [m.restore.snapshotId] : [])).join(", ");
  snapshots.restore(r, started.restored).then(
    () => becomeRunning(t, r, `${started.imageNote}; restored from ${from}`, false),
    (e: unknown) => {
      t.log.warn({ sandbox_id: r.id, err: e }, "restore failed");
      if (!isTerminal(r.state)) setState(t, r, "FAILED", (e as Error).message);
      void t.runtime.stop(r.id, 0).catch(() => undefined);
    },
  );
}

/**
 * Starts the record. With durable records, returns what settles when the create may be answered
 * (once stored; rejected if the start failed before); without, nothing to wait for.
 */
export function startSandbox(
  s: Starts,
  snapshots: Snapshots,
  r: SandboxRecord,
  secrets: StartSecrets | undefined,
): Promise<void> | undefined {
  const t = s.table;
  const runtime = t.runtime;
  // With durable records the create is answered once the record is stored (a replica killed
  // right after answering must not lose an acknowledged sandbox); a start that fails before
  // that leaves nothing behind, so a retry with the same request_id starts afresh.
  let stored!: () => void;
  const durable = runtime.records ? new Promise<void>((res) => (stored = res)) : undefined;
  let isStored = !durable;
  const onStored = () => {
    isStored = true;
    s.storedWaiters.delete(r.id);
    stored?.();
  };
  if (durable) s.storedWaiters.set(r.id, onStored);
  const startFailed = new Promise<never>((_, rej) => {
    const starting = r.spec.volumes.some((m) => m.restore)
      ? snapshots.layered(r.tenant, r.spec).then((spec) => runtime.start({ ...r, spec }, secrets))
      : runtime.start(r, secrets);
    starting.then(
      (started) => {
        onStored();
        onStarted(t, snapshots, r, started);
      },
      (e: unknown) => {
        s.storedWaiters.delete(r.id);
        if (!isStored) {
          // Never stored: as if the create had not happened (the caller gets the error).
          t.records.delete(r.id);
          const key = r.requestId ? requestKey(r.tenant, r.requestId) : undefined;
          if (key && t.byRequest.get(key) === r.id) t.byRequest.delete(key);
          t.onStateChange?.(r.state, "FAILED");
          rej(e);
          return;
        }
        t.log.warn({ sandbox_id: r.id, err: e }, "sandbox failed to start");
        if (!isTerminal(r.state)) setState(t, r, "FAILED", `failed to start: ${(e as Error).message}`);
        // A durable record stays until retention ends (the reaper removes it then).
        if (!runtime.records) void runtime.remove(r.id);
      },
    );
  });
  startFailed.catch(() => undefined);
  if (!durable) return undefined;
  const answer = Promise.race([durable, startFailed]);
  s.storing.set(
    r.id,
    answer.catch(() => undefined),
  );
  return answer.finally(() => s.storing.delete(r.id));
}
