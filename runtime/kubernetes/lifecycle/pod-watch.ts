/**
 * The watch on the sandbox pods: an informer whose cache answers every state question without an
 * apiserver request. Its events go to the reconciler; a watch that expired is listed again (counted),
 * one that failed is restarted.
 */
import * as k8s from "@kubernetes/client-node";
import type { WatchStats } from "../../types.js";
import { MANAGED_BY, MANAGED_BY_VALUE } from "../pod/labels.js";
import { slimPod } from "../pod/state.js";
import type { KubeState } from "./state.js";

export interface PodWatchOptions {
  kubeConfig: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  namespace: string;
  state: KubeState;
  log: { warn(o: object, m: string): void };
}

export function createPodWatch(o: PodWatchOptions) {
  const selector = `${MANAGED_BY}=${MANAGED_BY_VALUE}`;
  const informer = k8s.makeInformer(
    o.kubeConfig,
    `/api/v1/namespaces/${o.namespace}/pods`,
    () => o.core.listNamespacedPod({ namespace: o.namespace, labelSelector: selector }),
    selector,
  );
  const resourceVersion = () => (informer as unknown as { latestResourceVersion(): string }).latestResourceVersion();
  // After the first list (ready()), a connect with no resource version is a full list again: the watch
  // expired (410 Gone, handled inside client-node's ListWatch); what changed meanwhile arrives as add/update/delete.
  const stats: WatchStats = { relists: 0 };
  let listedOnce = false;
  let up = false;
  informer.on("connect", () => {
    up = true;
    if (!listedOnce || resourceVersion()) return;
    stats.relists++;
    o.log.warn({ relists: stats.relists }, "pod watch expired (410 Gone): listing the sandbox pods again");
  });
  informer.on("error", (err: unknown) => {
    up = false;
    if (o.state.closing) return;
    o.log.warn({ err }, "pod watch failed; restarting it in 1s");
    setTimeout(() => void informer.start().catch(() => undefined), 1000).unref();
  });

  return {
    get: (name: string) => informer.get(name, o.namespace),
    list: () => informer.list(o.namespace),
    /** Routes the pod events: the informer keeps every pod it sees, and the object it keeps is the one handed here. */
    route(h: { onPod(p: k8s.V1Pod, deleted: boolean): void; onDeleted(p: k8s.V1Pod): void; onAdded(p: k8s.V1Pod): void }) {
      informer.on("add", (p) => h.onPod(slimPod(p), false));
      informer.on("update", (p) => h.onPod(slimPod(p), false));
      informer.on("delete", (p) => h.onDeleted(p));
      informer.on("add", (p) => h.onAdded(p));
    },
    /**
     * The first list. start() reports a failed first list as an error event, not a rejection: without
     * a list this replica would answer NOT_FOUND for sandboxes that exist. Not ready until it has one.
     */
    async start() {
      await informer.start();
      if (!resourceVersion()) throw new Error("could not list the sandbox pods (apiserver is unreachable?)");
      listedOnce = true;
    },
    /** The watch is up and has listed: a pod it has not seen does not exist (yet). */
    watching: () => up && !!resourceVersion(),
    stats: () => ({ ...stats }),
    stop: () => informer.stop(),
  };
}

export type PodWatch = ReturnType<typeof createPodWatch>;
