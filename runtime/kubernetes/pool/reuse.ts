/**
 * Reusable pool pods (ADR 0040), the pure parts: which tenant may claim a pod that served before,
 * and the merge patch that gives a pod back to its pool once its sandbox's cell was replaced.
 */
import type * as k8s from "@kubernetes/client-node";
import { tenantLabelValue } from "../pod/labels.js";
import {
  CELL_LABEL,
  CELL_POOL_LABEL,
  EGRESS_LABEL,
  EXEC_ANNOTATION,
  MANAGED_BY,
  POOL_LABEL,
  POOL_TENANT_LABEL,
  SANDBOX_ID,
} from "../pod/keys.js";

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

/**
 * The JSON patch that gives a reusable pod back to its pool (pure, table-tested). Its first operation
 * tests that the pod still hosts this sandbox, so it applies only then, whatever the watch showed:
 * the labels become the pool pod's again (who manages it, reusable, the pool, the tenant it serves,
 * egress denied; every id, tag and tenant label of the sandbox gone), the annotations only the proven
 * exec mode, no finalizer (the record lives elsewhere now).
 */
export function returnPatch(id: string, pool: string, tenant: string, execMode: string | undefined): object[] {
  const labels = {
    [MANAGED_BY]: "hangar",
    [CELL_LABEL]: "true",
    [CELL_POOL_LABEL]: pool,
    [POOL_LABEL]: pool,
    [POOL_TENANT_LABEL]: tenantLabelValue(tenant),
    [EGRESS_LABEL]: "deny",
  };
  return [
    { op: "test", path: `/metadata/labels/${SANDBOX_ID.replace(/~/g, "~0").replace(/\//g, "~1")}`, value: id },
    { op: "replace", path: "/metadata/labels", value: labels },
    { op: "replace", path: "/metadata/annotations", value: execMode ? { [EXEC_ANNOTATION]: execMode } : {} },
    { op: "replace", path: "/metadata/finalizers", value: [] },
  ];
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

/**
 * Reusable pods of the pool that host a sandbox now (pure, table-tested): they come back when it ends,
 * so the pool counts them (refilling for them would only make pods to trim when they return).
 */
export const heldByPool = (pods: k8s.V1Pod[], pool: string) =>
  pods.filter(
    (p) =>
      p.metadata?.labels?.[CELL_POOL_LABEL] === pool &&
      !!p.metadata?.labels?.[SANDBOX_ID] &&
      !p.metadata?.deletionTimestamp &&
      !["Succeeded", "Failed"].includes(p.status?.phase ?? ""),
  ).length;
