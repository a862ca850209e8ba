/**
 * Ids this replica does not know, answered from the pod watch instead of one apiserver request each
 * (a request per unknown id is tenant-driven apiserver load, and its timing tells whether an id
 * exists). While the watch is up, a lookup asks nothing: it waits `settleMs`, the watch's lag, so a
 * pod another replica created before the call arrived is delivered first (and ends the wait as soon
 * as it is). Every lookup that does not end that way takes the same time, whether the id is unknown
 * or another tenant's. While the watch is down (an error, until it connects again), lookups are
 * batched: one LIST names every id pending in a window of `windowMs` (at most `maxBatch`).
 */
/** How long an unknown id waits for the watch: well past its lag on a healthy cluster (milliseconds). */
export const ID_SETTLE_MS = 200;

export interface IdLookupOptions {
  settleMs: number;
  windowMs: number;
  maxBatch: number;
  /** Whether the pod watch is connected now. */
  watching(): boolean;
  /** Whether the id's pod has been seen (the watch delivers it; list() too). */
  known(id: string): boolean;
  /** One LIST of these ids' pods, delivering what it finds. */
  list(ids: string[]): Promise<void>;
  /** A wake-up when the watch delivers a pod (the id), so waits end early. */
  onSeen(f: (id: string) => void): () => void;
}

export function createIdLookup(o: IdLookupOptions) {
  let pending: { id: string; done: (e?: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let requests = 0;

  function flush() {
    timer = undefined;
    const batch = pending.splice(0, o.maxBatch);
    if (pending.length) timer = setTimeout(flush, o.windowMs);
    requests++;
    const ids = [...new Set(batch.map((b) => b.id))];
    o.list(ids).then(
      () => batch.forEach((b) => b.done()),
      (e: unknown) => batch.forEach((b) => b.done(e)),
    );
  }

  async function settle(id: string): Promise<void> {
    const seenBefore = o.known(id);
    await new Promise<void>((resolve) => {
      const t = setTimeout(finish, o.settleMs);
      const off = o.onSeen((x) => {
        if (x === id && !seenBefore) finish();
      });
      function finish() {
        clearTimeout(t);
        off();
        resolve();
      }
    });
  }

  return {
    async lookup(id: string): Promise<void> {
      if (o.watching()) return settle(id);
      await new Promise<void>((resolve, reject) => {
        pending.push({ id, done: (e) => (e === undefined ? resolve() : reject(e instanceof Error ? e : new Error(String(e)))) });
        timer ??= setTimeout(flush, o.windowMs);
      });
    },
    /** LIST requests made so far (metrics and tests). */
    requests: () => requests,
    close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const left = pending;
      pending = [];
      for (const p of left) p.done();
    },
  };
}
