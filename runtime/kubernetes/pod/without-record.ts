/** Sandbox pods this replica holds no record for (metrics: hangar_kube_pods_without_record). */
import type { V1Pod } from "@kubernetes/client-node";
import { MANAGED_BY, MANAGED_BY_VALUE, POOL_LABEL, SANDBOX_ID } from "./keys.js";

/**
 * Hangar's pods that are neither a warm pool's idle pod nor being deleted, and whose sandbox id
 * (if any) this replica does not track: a record released while its pod stayed, one a newer Hangar
 * wrote, a pod that lost its labels. Pure, table-tested.
 */
export function podsWithoutRecord(pods: Iterable<V1Pod>, tracked: (id: string) => boolean): number {
  let n = 0;
  for (const p of pods) {
    const labels = p.metadata?.labels ?? {};
    if (labels[MANAGED_BY] !== MANAGED_BY_VALUE || labels[POOL_LABEL] !== undefined || p.metadata?.deletionTimestamp) continue;
    const id = labels[SANDBOX_ID];
    if (!id || !tracked(id)) n++;
  }
  return n;
}
