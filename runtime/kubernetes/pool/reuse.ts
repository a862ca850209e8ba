/**
 * Reusable pool pods (ADR 0040), the pure parts: which tenant may claim a pod that served before,
 * and the merge patch that gives a pod back to its pool once its sandbox's cell was replaced.
 */
import type * as k8s from "@kubernetes/client-node";
import { tenantLabelValue } from "../pod/labels.js";
import { CELL_LABEL, CELL_POOL_LABEL, EGRESS_LABEL, EXEC_ANNOTATION, MANAGED_BY, POOL_LABEL, POOL_TENANT_LABEL } from "../pod/keys.js";

/** Whether the pod is a reusable pool pod (its sandboxes run in cells). */
export const isCellPod = (p: k8s.V1Pod | undefined) => p?.metadata?.labels?.[CELL_LABEL] === "true";

/**
 * Whether `tenant` may claim this pool pod: a pod that never served may go to anyone; one that served
 * stays with the tenant it served first (docs/security.md: a pod is shared over time by one tenant only).
 */
export const claimableBy = (p: k8s.V1Pod, tenant: string) => {
  const served = p.metadata?.labels?.[POOL_TENANT_LABEL];
  return served === undefined || served === tenantLabelValue(tenant);
};

/** Labels a claim of a reusable pod adds: the tenant it now serves, for good, and the pool it goes back to. */
export const cellClaimLabels = (pod: k8s.V1Pod, tenant: string) => ({
  [POOL_TENANT_LABEL]: tenantLabelValue(tenant),
  [CELL_POOL_LABEL]: pod.metadata?.labels?.[POOL_LABEL] ?? pod.metadata?.labels?.[CELL_POOL_LABEL] ?? "",
});

/** What a returned pod keeps: who manages it, its pool, that it is reusable, and whom it serves. */
const KEPT_LABELS = new Set([MANAGED_BY, CELL_LABEL, POOL_TENANT_LABEL, CELL_POOL_LABEL]);

/**
 * The merge patch that gives a reusable pod back to its pool (pure, table-tested): every label and
 * annotation of the sandbox it hosted removed (ids, tags, tenant, record), the pool label back,
 * egress denied, the record's finalizer gone; the proven exec mode kept. The resourceVersion makes
 * it fail (409) if anything else changed the pod meanwhile.
 */
export function returnPatch(pod: k8s.V1Pod, pool: string): object {
  const labels: Record<string, string | null> = {};
  for (const k of Object.keys(pod.metadata?.labels ?? {})) if (!KEPT_LABELS.has(k)) labels[k] = null;
  const annotations: Record<string, string | null> = {};
  for (const k of Object.keys(pod.metadata?.annotations ?? {})) if (k !== EXEC_ANNOTATION) annotations[k] = null;
  return {
    metadata: {
      resourceVersion: pod.metadata?.resourceVersion,
      labels: { ...labels, [POOL_LABEL]: pool, [EGRESS_LABEL]: "deny" },
      annotations,
      finalizers: null,
    },
  };
}

/** A pod this replica just gave back, as the apiserver answered the patch, until the watch shows it too. */
export interface FreshPod {
  pod: k8s.V1Pod;
  /** The resourceVersion the watch still has while it lags behind. */
  baseVersion?: string;
}

/**
 * The pods as the pool should see them (pure, table-tested): a pod given back a moment ago is taken as
 * the patch's answer while the watch still holds the version before it, so the next claim does not
 * miss it (and start cold) for the watch's lag. Entries the watch caught up with are dropped.
 */
export function withFresh(pods: k8s.V1Pod[], fresh: Map<string, FreshPod>): k8s.V1Pod[] {
  if (!fresh.size) return pods;
  return pods.map((p) => {
    const name = p.metadata?.name ?? "";
    const f = fresh.get(name);
    if (!f) return p;
    if (p.metadata?.resourceVersion !== f.baseVersion) {
      fresh.delete(name);
      return p;
    }
    return f.pod;
  });
}
