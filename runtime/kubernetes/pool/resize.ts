/**
 * A sized pool's claim resizes the pod's main container in place (ADR 0043): a strategic merge
 * patch of the `resize` subresource (Kubernetes 1.33), which changes CPU and memory only; the
 * container's other resources (its disk cap) are kept.
 */
import * as k8s from "@kubernetes/client-node";
import type { MainResources } from "./caps.js";
import { detailOf } from "../kube-errors.js";

const strategic = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.StrategicMergePatch);

/** The patch (pure): the main container's CPU and memory requests and limits. */
export const resizePatch = (r: MainResources) => ({
  spec: { containers: [{ name: "main", resources: { requests: { ...r.requests }, limits: { ...r.limits } } }] },
});

export function createResize(core: k8s.CoreV1Api, namespace: string) {
  return async (pod: string, r: MainResources): Promise<void> => {
    try {
      await core.patchNamespacedPodResize({ name: pod, namespace, body: resizePatch(r) }, strategic);
    } catch (e) {
      throw new Error(`resizing pool pod ${pod} to the sandbox's limits failed: ${detailOf(e)}`);
    }
  };
}
