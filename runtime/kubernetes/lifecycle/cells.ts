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
import { isNotFound, statusOf } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { CELL_POOL_LABEL, EXEC_ANNOTATION, POOL_LABEL } from "../pod/keys.js";
import { type FreshPod, returnPatch } from "../pool/reuse.js";
import type { EndedRecords } from "../stores/ended-records.js";
import type { PodWatch } from "./pod-watch.js";
import { type KubeState, noteReturning, type Tracked } from "./state.js";
import type { EgressAtClaim } from "./egress-at-claim.js";
import { hasNetSidecar } from "../pod/net-sidecar.js";

const jsonPatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.JsonPatch);

export interface CellsOptions {
  core: k8s.CoreV1Api;
  namespace: string;
  watch: Pick<PodWatch, "get">;
  agents?: { reset(pod: string): Promise<CellReset> };
  /** A `+egress` pool pod's rules (ADR 0044): the idle pod's loaded back before the pod goes back to its pool. */
  egressAtClaim?: Pick<EgressAtClaim, "reset">;
  ended: Pick<EndedRecords, "write" | "remove">;
  finish(t: Tracked, e: Omit<ExitInfo, "endedAtMs">): void;
  /** The pod deleted (the way a sandbox ends when its cell cannot be replaced). */
  deletePod(name: string, why: string): Promise<void>;
  stopPod(name: string, graceMs: number): Promise<void>;
  track<T>(p: Promise<T>): Promise<T>;
  /** Pods given back, as answered, until the watch shows them (the pool's next claim takes them at once). */
  fresh: Map<string, FreshPod>;
  state: KubeState;
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
    noteReturning(o.state, t.pod, true, Date.now());
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
      noteReturning(o.state, t.pod, false, Date.now());
      return o.stopPod(t.pod, graceMs);
    }
    o.log.info?.({ sandbox_id: t.id, pod: t.pod, killed_ms: r.killedMs, ready_ms: r.readyMs }, "cell replaced");
    o.finish(t, {
      exitCode: KILLED_EXIT_CODE,
      reason: `stopped; its cell was replaced, every process gone in ${Math.round(r.killedMs)} ms`,
    });
  }

  /** Gives the pod back to its pool, if it still hosts this sandbox (asked again on a conflict); else deletes it. */
  async function returnPod(name: string, id: string, tenant: string): Promise<void> {
    try {
      await giveBack(name, id, tenant);
    } finally {
      noteReturning(o.state, name, false, Date.now());
    }
  }

  async function giveBack(name: string, id: string, tenant: string): Promise<void> {
    const p = o.watch.get(name);
    // The pool the claim took it from (the watch may still show the idle pod: then its pool label).
    const pool = p?.metadata?.labels?.[CELL_POOL_LABEL] ?? p?.metadata?.labels?.[POOL_LABEL];
    // Only a pod whose supervisor still runs goes back (a failed one would sit in the pool unclaimable).
    const running = p?.status?.phase === "Running" && !!p.status?.containerStatuses?.find((c) => c.name === "main")?.state?.running;
    if (p && pool && running && !p.metadata?.deletionTimestamp) {
      try {
        // Its sandbox's egress rules go first: a pod is never claimable with the last sandbox's rules.
        if (hasNetSidecar(p)) {
          if (!o.egressAtClaim) throw new Error("its egress rules cannot be reset here");
          await o.egressAtClaim.reset(name);
        }
        const back = await o.core.patchNamespacedPod(
          { name, namespace: o.namespace, body: returnPatch(id, pool, tenant, p.metadata?.annotations?.[EXEC_ANNOTATION] ?? "sh") },
          jsonPatch,
        );
        o.fresh.set(name, { pod: back, baseVersion: p.metadata?.resourceVersion });
        o.returned(name);
        return;
      } catch (e) {
        if (isNotFound(e)) return;
        // 422: the test failed (the pod hosts another sandbox, or none): it is not this one's to give back.
        if (statusOf(e) === 422) return;
        o.log.warn({ pod: name, sandbox_id: id, err: (e as Error).message }, "could not give a reused pod back to its pool: deleting it");
      }
    } else o.log.warn({ pod: name, sandbox_id: id, running }, "a reused pod cannot go back to its pool: deleting it");
    await o.deletePod(name, "it could not go back to its pool");
  }

  /**
   * A record of an ended sandbox on a reusable pod: kept in its own ConfigMap; the first such save
   * also gives the pod back to its pool (the record is durable elsewhere first).
   */
  async function saveEnded(t: Tracked, r: SandboxRecord, text: string): Promise<void> {
    // The first save of its end gives the pod back, once the record is durable elsewhere (set before
    // any await: a later save, or the watch bringing this very ConfigMap, must not skip or repeat it).
    const givesBack = !t.givenBack;
    t.givenBack = true;
    try {
      await o.ended.write(r.id, text);
    } catch (e) {
      // The record could not move: it stays on the pod (written there as usual), and the pod is not reused.
      o.log.warn({ sandbox_id: r.id, err: (e as Error).message }, "could not store an ended sandbox's record apart: its pod keeps it");
      t.cell = false;
      if (givesBack) noteReturning(o.state, t.pod, false, Date.now());
      throw e;
    }
    t.ended = true;
    if (givesBack) await returnPod(t.pod, t.id, r.tenant);
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
