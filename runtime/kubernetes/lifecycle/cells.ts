/**
 * Sandboxes on reusable pool pods (ADR 0040): a stop replaces the sandbox's cell (the supervisor
 * kills every process it left and starts a fresh one) instead of deleting the pod; the ended
 * sandbox's record moves to a ConfigMap of its own (stores/ended-records.ts) and the pod goes back
 * to its pool. Anything that fails on the way ends with the pod deleted, never with a pod back in
 * a pool that still holds a sandbox.
 */
import * as k8s from "@kubernetes/client-node";
import { KILLED_EXIT_CODE } from "../../../core/exit-code.js";
import type { SandboxRecord } from "../../../core/types.js";
import type { ExitInfo } from "../../types.js";
import type { CellReset } from "../exec/agent-channel.js";
import { isConflict, isNotFound } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { CELL_POOL_LABEL } from "../pod/keys.js";
import { type FreshPod, returnPatch } from "../pool/reuse.js";
import type { EndedRecords } from "../stores/ended-records.js";
import type { PodWatch } from "./pod-watch.js";
import type { Tracked } from "./state.js";

const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

export interface CellsOptions {
  core: k8s.CoreV1Api;
  namespace: string;
  watch: Pick<PodWatch, "get">;
  agents?: { reset(pod: string): Promise<CellReset> };
  ended: Pick<EndedRecords, "write" | "remove">;
  finish(t: Tracked, e: Omit<ExitInfo, "endedAtMs">): void;
  /** The pod deleted (the way a sandbox ends when its cell cannot be replaced). */
  deletePod(name: string, why: string): Promise<void>;
  stopPod(name: string, graceMs: number): Promise<void>;
  track<T>(p: Promise<T>): Promise<T>;
  /** Pods given back, as answered, until the watch shows them (the pool's next claim takes them at once). */
  fresh: Map<string, FreshPod>;
  /** Tells the pool the pod is back (its last claim here no longer holds it). */
  returned(name: string): void;
  log: { warn(o: object, m: string): void; info?(o: object, m: string): void };
}

export function createCells(o: CellsOptions) {
  /**
   * Ends the sandbox: a fresh cell replaces its own (when this resolves, none of its processes is
   * left), then its exit is reported. A cell that cannot be replaced takes its pod with it.
   */
  async function stop(t: Tracked, graceMs: number): Promise<void> {
    if (t.exited) return;
    let r: CellReset;
    try {
      if (!o.agents) throw new Error("no exec agent");
      r = await o.track(o.agents.reset(t.pod));
    } catch (e) {
      o.log.warn(
        { sandbox_id: t.id, pod: t.pod, err: (e as Error).message },
        "could not replace the sandbox's cell: its pod is deleted instead",
      );
      t.cell = false;
      return o.stopPod(t.pod, graceMs);
    }
    o.log.info?.({ sandbox_id: t.id, pod: t.pod, killed_ms: r.killedMs, ready_ms: r.readyMs }, "cell replaced");
    o.finish(t, {
      exitCode: KILLED_EXIT_CODE,
      reason: `stopped; its cell was replaced, every process gone in ${Math.round(r.killedMs)} ms`,
    });
  }

  /** Gives the pod back to its pool, if it still hosts this sandbox (asked again on a conflict); else deletes it. */
  async function returnPod(name: string, id: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const p = o.watch.get(name);
      if (!p || p.metadata?.labels?.[SANDBOX_ID] !== id) return;
      const pool = p.metadata?.labels?.[CELL_POOL_LABEL];
      // Only a pod whose supervisor still runs goes back (a failed one would sit in the pool unclaimable).
      const running = p.status?.phase === "Running" && !!p.status?.containerStatuses?.find((c) => c.name === "main")?.state?.running;
      if (!pool || !running || p.metadata?.deletionTimestamp) break;
      try {
        const back = await o.core.patchNamespacedPod({ name, namespace: o.namespace, body: returnPatch(p, pool) }, mergePatch);
        o.fresh.set(name, { pod: back, baseVersion: p.metadata?.resourceVersion });
        o.returned(name);
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        if (!isConflict(e)) break;
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)).unref());
      }
    }
    await o.deletePod(name, "it could not go back to its pool");
  }

  /**
   * A record of an ended sandbox on a reusable pod: kept in its own ConfigMap; the first such save
   * also gives the pod back to its pool (the record is durable elsewhere first).
   */
  async function saveEnded(t: Tracked, r: SandboxRecord, text: string): Promise<void> {
    try {
      await o.ended.write(r.id, r.tenant, text);
    } catch (e) {
      // The record could not move: it stays on the pod (written there as usual), and the pod is not reused.
      o.log.warn({ sandbox_id: r.id, err: (e as Error).message }, "could not store an ended sandbox's record apart: its pod keeps it");
      t.cell = false;
      throw e;
    }
    if (t.ended) return;
    t.ended = true;
    await returnPod(t.pod, t.id);
  }

  /** Ends retention: the record's ConfigMap goes (and the pod, if it still holds this sandbox, which a crash can leave). */
  async function remove(t: Tracked): Promise<void> {
    await o.ended.remove(t.id);
    const p = t.pod ? o.watch.get(t.pod) : undefined;
    if (p?.metadata?.labels?.[SANDBOX_ID] === t.id) await o.deletePod(t.pod, "its sandbox's record was released");
  }

  return { stop, saveEnded, remove };
}

export type Cells = ReturnType<typeof createCells>;
