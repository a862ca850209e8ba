/**
 * The durable records: each sandbox's record lives on its pod (an annotation, held by a finalizer).
 * open() delivers every record the watch holds, lookup() finds a pod another replica just made, save()
 * writes a record (and, once it runs, tightens the pod's own deadline), remove() releases it.
 */
import type * as k8s from "@kubernetes/client-node";
import type { SandboxRecord } from "../../../core/types.js";
import type { DurableRecords } from "../../types.js";
import { tightenedDeadline } from "../pod/deadline.js";
import { createIdLookup, ID_SETTLE_MS } from "../stores/id-lookup.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { decodeRecord, encodeRecord } from "../../record-codec.js";
import { RECORD_ANNOTATION } from "../pod/keys.js";
import { createRecordStore } from "../stores/record-store.js";
import { EXEC_ANNOTATION } from "../pool/warm-pool.js";
import type { PodWatch } from "./pod-watch.js";
import { idOf } from "./reconciler.js";
import { emit, type KubeState, nameOf, type Tracked, untrack } from "./state.js";
import type { Cells } from "./cells.js";

export interface RecordsOptions {
  core: k8s.CoreV1Api;
  namespace: string;
  deadlineMarginSeconds: number;
  state: KubeState;
  watch: PodWatch;
  onPod(p: k8s.V1Pod, deleted: boolean): void;
  track<T>(p: Promise<T>): Promise<T>;
  log: { warn(o: object, m: string): void };
  /** Sandboxes on reusable pool pods (ADR 0040): their records once they ended, and their pods' return. */
  cells: () => Cells;
  /** The first list of the ended sandboxes' records (delivered to ended()). */
  startEnded(): Promise<void>;
}

/** A record that exists only as an ended sandbox's (stores/ended-records.ts): tracked without a pod. */
function endedTracked(id: string, rec: SandboxRecord, text: string): Tracked {
  return {
    id,
    pod: "",
    runnerId: rec.runnerId,
    spec: rec.spec,
    gvisor: rec.gvisor,
    own: false,
    shell: false,
    exited: true,
    started: true,
    cell: true,
    ended: true,
    recordText: text,
    recordState: rec.state,
  };
}

/** An ended sandbox's record (its ConfigMap), from any replica: its sandbox tracked without a pod, or its record updated. */
function endedRecord(s: KubeState, id: string, text: string) {
  if (!s.open) return;
  const t = s.tracked.get(id);
  if (t && t.recordText === text) return;
  const rec = decodeRecord(text);
  if (!rec) return;
  if (t) {
    // Another replica moved it: no pod is its any more.
    t.recordText = text;
    t.recordState = rec.state;
    t.cell = true;
    t.ended = true;
    t.exited = true;
  } else s.tracked.set(id, endedTracked(id, rec, text));
  emit(s, { t: "record", record: rec });
}

export function createRecords(o: RecordsOptions) {
  const s = o.state;
  const store = createRecordStore(o.core, o.namespace, (id) => nameOf(s, id), o.log);
  const seen = new Set<(id: string) => void>();
  const ids = createIdLookup({
    settleMs: ID_SETTLE_MS,
    windowMs: 50,
    maxBatch: 100,
    watching: o.watch.watching,
    known: (id) => s.tracked.has(id),
    async list(batch) {
      const pods = await o.core.listNamespacedPod({ namespace: o.namespace, labelSelector: `${SANDBOX_ID} in (${batch.join(",")})` });
      for (const p of pods.items) {
        const id = idOf(p);
        if (id && !s.tracked.has(id)) o.onPod(p, false);
      }
    },
    onSeen: (f) => {
      seen.add(f);
      return () => seen.delete(f);
    },
  });

  async function save(r: SandboxRecord) {
    const t = s.tracked.get(r.id);
    if (t?.cell && t.exited) {
      const text = encodeRecord(r);
      t.recordText = text;
      try {
        return await o.track(o.cells().saveEnded(t, r, text));
      } catch {
        // Could not move: written on its pod below, which is then never reused.
      }
    }
    // A reusable pod's stop takes milliseconds and ends in the record's ConfigMap: TERMINATING is not
    // written to the pod (one apiserver write less per sandbox, ADR 0041). A crash in between leaves
    // the stored record RUNNING, and the caller's stop, which got no answer, is asked again.
    if (t?.cell && !t.exited && r.state === "TERMINATING") return;
    const annotations: Record<string, string> = { [RECORD_ANNOTATION]: encodeRecord(r) };
    if (t?.started) annotations[EXEC_ANNOTATION] = t.shell ? "sh" : "plain";
    if (t) t.recordText = annotations[RECORD_ANNOTATION];
    // Once it runs, Kubernetes' own backstop is counted from the same start as Hangar's lifetime.
    const deadline =
      r.state === "RUNNING" && !t?.cell
        ? tightenedDeadline(
            t?.lastPod ?? (t ? o.watch.get(t.pod) : undefined),
            r.startedAtMs,
            r.effectiveLifetimeSeconds,
            o.deadlineMarginSeconds,
          )
        : undefined;
    await o.track(store.write(r.id, annotations, t?.created, deadline ? { activeDeadlineSeconds: deadline } : undefined));
  }

  const records: DurableRecords = {
    async open() {
      s.open = true;
      for (const p of o.watch.list()) o.onPod(p, false);
      await o.startEnded();
    },
    async lookup(id) {
      if (s.open) await ids.lookup(id);
    },
    save,
  };

  return {
    records,
    /** A pod the watch added: a lookup waiting on its id is answered. */
    added(p: k8s.V1Pod) {
      const id = idOf(p);
      if (id) for (const f of [...seen]) f(id);
    },
    async remove(id: string) {
      const t = s.tracked.get(id);
      if (t?.cell) await o.track(o.cells().remove(t));
      else await o.track(store.release(id));
      untrack(s, id);
    },
    /** An ended sandbox's record (its ConfigMap), from any replica. */
    ended: (id: string, text: string) => endedRecord(s, id, text),
    idle: () => store.idle(),
    close: () => ids.close(),
  };
}
