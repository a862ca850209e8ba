/**
 * The records of sandboxes whose reusable pool pod went back to its pool (ADR 0040): kept in
 * **segments**, ConfigMaps of up to SEGMENT_RECORDS records each (`hangar-ended-<replica>-<n>`, one
 * data key per sandbox id), labelled so every replica's informer sees them and a restarted replica
 * lists them (ADR 0041). A replica appends to its current segment: the records that end while a
 * write is in flight go together in the next one (group commit), so a sandbox costs at most one
 * write here and a segment is deleted whole once every record in it has been released (retention):
 * about 1/SEGMENT_RECORDS of a write per sandbox instead of a create and a delete each.
 */
import * as k8s from "@kubernetes/client-node";
import { randomBytes } from "node:crypto";
import { isConflict, isNotFound, isTransient } from "../kube-errors.js";
import { ENDED_RECORD_LABEL, MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID } from "../pod/keys.js";
import { createSegmentIndex, deletableSegment, type Segment } from "./ended-segments.js";

/** Records per segment: ~1.5 KB each, far below a ConfigMap's 1 MiB. */
export const SEGMENT_RECORDS = 64;
/** A segment of another replica is deleted by this one only this long after it was last seen changing (its owner is gone). */
export const ORPHAN_SEGMENT_MS = 60_000;
const SELECTOR = `${ENDED_RECORD_LABEL}=true`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

export interface EndedRecordsOptions {
  kubeConfig: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  namespace: string;
  log: { warn(o: object, m: string): void };
  /** A record seen (added or changed, by any replica); `text` is the record as record-codec wrote it. */
  onRecord(id: string, text: string): void;
  closing(): boolean;
  now?: () => number;
}

interface Pending {
  id: string;
  text: string;
  done: (e?: unknown) => void;
}

/** Retries a write while the apiserver cannot answer (as before: 7 tries, backing off to 4 s). */
async function retried<T>(f: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await f();
    } catch (e) {
      if (!isTransient(e) || attempt >= 6) throw e;
      await sleep(Math.min(250 * 2 ** attempt, 4000));
    }
  }
}

/** The segment a replica appends to. */
interface Current {
  name: string;
  seq: number;
  made: boolean;
  count: number;
}
const nextSegment = (replica: string, c: Current): Current => ({
  name: `hangar-ended-${replica}-${c.seq + 1}`,
  seq: c.seq + 1,
  made: false,
  count: 0,
});

/** Writes a batch into the current segment: made with it, or added to it (a merge patch of its keys). */
async function putBatch(o: EndedRecordsOptions, current: () => Current, roll: () => void, batch: Pending[], where: Map<string, string>) {
  const data = Object.fromEntries(batch.map((p) => [p.id, p.text]));
  for (;;) {
    if (current().count + batch.length > SEGMENT_RECORDS) roll();
    const c = current();
    try {
      if (!c.made) {
        const labels = { [MANAGED_BY]: MANAGED_BY_VALUE, [ENDED_RECORD_LABEL]: "true" };
        await retried(() =>
          o.core.createNamespacedConfigMap({ namespace: o.namespace, body: { metadata: { name: c.name, labels }, data } }),
        );
        c.made = true;
      } else await retried(() => o.core.patchNamespacedConfigMap({ name: c.name, namespace: o.namespace, body: { data } }, mergePatch));
      c.count += batch.length;
      for (const p of batch) where.set(p.id, c.name);
      return;
    } catch (e) {
      // Taken (a replica with the same random name) or deleted meanwhile (all its records released): a new segment.
      if (!isConflict(e) && !isNotFound(e)) throw e;
      roll();
    }
  }
}

/** A segment's records by sandbox id; a ConfigMap of one record as the previous version wrote it (`record`, the id in its label) too. */
const recordsOf = (cm: k8s.V1ConfigMap): Record<string, string> => {
  const legacy = cm.metadata?.labels?.[SANDBOX_ID];
  return legacy && cm.data?.record ? { [legacy]: cm.data.record } : (cm.data ?? {});
};

/** Every replica's segments, as they change (a restarted replica lists them all first). */
function watchSegments(o: EndedRecordsOptions, index: ReturnType<typeof createSegmentIndex>) {
  const informer = k8s.makeInformer(
    o.kubeConfig,
    `/api/v1/namespaces/${o.namespace}/configmaps`,
    () => o.core.listNamespacedConfigMap({ namespace: o.namespace, labelSelector: SELECTOR }),
    SELECTOR,
  );
  const seen = (cm: k8s.V1ConfigMap) => index.seen(cm.metadata?.name ?? "", recordsOf(cm), cm.metadata?.resourceVersion ?? "");
  informer.on("add", seen);
  informer.on("update", seen);
  informer.on("delete", (cm: k8s.V1ConfigMap) => index.gone(cm.metadata?.name ?? ""));
  informer.on("error", (err: unknown) => {
    if (o.closing()) return;
    o.log.warn({ err }, "ended-record watch failed; restarting it in 1s");
    setTimeout(() => void informer.start().catch(() => undefined), 1000).unref();
  });
  return informer;
}

export function createEndedRecords(o: EndedRecordsOptions) {
  const now = o.now ?? Date.now;
  const replica = randomBytes(4).toString("hex");
  const index = createSegmentIndex(o.onRecord, now);
  const { segments, where, released } = index;
  let cur: Current = { name: `hangar-ended-${replica}-0`, seq: 0, made: false, count: 0 };
  const pending: Pending[] = [];
  let flushing: Promise<void> | undefined;

  const informer = watchSegments(o, index);

  const roll = () => (cur = nextSegment(replica, cur));
  const put = (batch: Pending[]) => putBatch(o, () => cur, roll, batch, where);

  /**
   * Group commit: everything pending goes in one write; what arrives meanwhile waits for the next.
   * A record queued after the loop's last look (before `flushing` is cleared) starts the next round.
   */
  function flush(): void {
    if (flushing) return;
    flushing = (async () => {
      while (pending.length) {
        const batch = pending.splice(0, SEGMENT_RECORDS);
        await put(batch).then(
          () => batch.forEach((p) => p.done()),
          (e: unknown) => batch.forEach((p) => p.done(e)),
        );
      }
    })().finally(() => {
      flushing = undefined;
      if (pending.length) flush();
    });
  }

  /** Stores the record (a later save of the same sandbox updates it where it is). */
  async function write(id: string, text: string): Promise<void> {
    const at = where.get(id);
    if (at && at !== cur.name) {
      await retried(() =>
        o.core.patchNamespacedConfigMap({ name: at, namespace: o.namespace, body: { data: { [id]: text } } }, mergePatch),
      );
      return;
    }
    const done = new Promise<void>((resolve, reject) => pending.push({ id, text, done: (e) => (e ? reject(e) : resolve()) }));
    flush();
    await done;
  }

  /** Deletes the segment if every record in it was released (precondition: unchanged since seen). */
  async function tryDelete(s: Segment): Promise<void> {
    if (!deletableSegment(s, released, s.name.startsWith(`hangar-ended-${replica}-`), now(), ORPHAN_SEGMENT_MS)) return;
    if (s.name === cur.name) {
      if (flushing) return; // a write to it is in flight: the sweep looks again
      roll();
    }
    await o.core
      .deleteNamespacedConfigMap({ name: s.name, namespace: o.namespace, body: { preconditions: { resourceVersion: s.rv } } })
      .catch((e: unknown) => {
        // 404: gone already; 409: changed since (a record added): the sweep looks again.
        if (!isNotFound(e) && !isConflict(e)) o.log.warn({ segment: s.name, err: e }, "could not delete a segment of ended records");
      });
  }

  /** Retention ended: its segment goes once every record in it is released (a replica's own at once, another's once orphaned). */
  async function remove(id: string): Promise<void> {
    released.add(id);
    const s = segments.get(where.get(id) ?? "");
    if (s) await tryDelete(s);
  }

  // What a release could not delete at once (a write in flight, another replica's segment not yet orphaned).
  const sweep = setInterval(() => {
    for (const s of [...segments.values()]) void tryDelete(s);
  }, ORPHAN_SEGMENT_MS / 4);
  sweep.unref();

  return {
    write,
    remove,
    /** The first list: every ended record is delivered (onRecord) before this resolves. */
    start: () => informer.start(),
    stop: () => {
      clearInterval(sweep);
      return informer.stop();
    },
  };
}

export type EndedRecords = ReturnType<typeof createEndedRecords>;
