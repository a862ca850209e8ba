/**
 * A sized pool's claim resizes the pod's main container in place (ADR 0043): a strategic merge
 * patch of the `resize` subresource (Kubernetes 1.33), which changes CPU and memory only; the
 * container's other resources (its disk cap) are kept.
 */
import * as k8s from "@kubernetes/client-node";
import type { MainResources } from "./caps.js";
import { detailOf, isConflict, isNotFound } from "../kube-errors.js";

const strategic = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.StrategicMergePatch);

/**
 * The patch (pure): the main container's CPU and memory requests and limits; with the pod's
 * resourceVersion as precondition, so a resize before the claim takes only a pod nobody claimed.
 */
export const resizePatch = (r: MainResources, resourceVersion?: string) => ({
  ...(resourceVersion ? { metadata: { resourceVersion } } : {}),
  spec: { containers: [{ name: "main", resources: { requests: { ...r.requests }, limits: { ...r.limits } } }] },
});

/** Resizes a pool pod (as of `resourceVersion`): the pod as the apiserver answered; a 409 or 404 as the apiserver's error. */
export function createResize(core: k8s.CoreV1Api, namespace: string) {
  return async (pod: string, r: MainResources, resourceVersion?: string): Promise<k8s.V1Pod> => {
    try {
      return await core.patchNamespacedPodResize({ name: pod, namespace, body: resizePatch(r, resourceVersion) }, strategic);
    } catch (e) {
      if (isConflict(e) || isNotFound(e)) throw e;
      throw new Error(`resizing pool pod ${pod} to the sandbox's limits failed: ${detailOf(e)}`);
    }
  };
}
