/**
 * Deleting sandbox pods: at once (a pod that must not keep running) or with a stop's grace; every
 * delete in flight is tracked so close() waits for them and a stop accepted just before shutdown is not lost.
 */
import type * as k8s from "@kubernetes/client-node";
import { errors } from "../../../core/errors.js";
import { detailOf, isNotFound, isTransient } from "../kube-errors.js";

export interface PodDeletesOptions {
  core: k8s.CoreV1Api;
  namespace: string;
  log: { warn(o: object, m: string): void };
}

export function createPodDeletes(o: PodDeletesOptions) {
  // Deletes (and record writes) still in flight: close() waits for them.
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };

  /**
   * Deletes a pod at once (grace 0) that must not keep running: the pod of a start that failed, of
   * an unreadable record, of an orphaned start. Asked again while the apiserver cannot answer
   * (the chaos suite restarts it); 404 means done; a refusal is logged.
   */
  const deletePod = (name: string, why: string): Promise<void> =>
    track(
      (async () => {
        for (let attempt = 0; ; attempt++) {
          try {
            await o.core.deleteNamespacedPod({ name, namespace: o.namespace, gracePeriodSeconds: 0 });
            return;
          } catch (e) {
            if (isNotFound(e)) return;
            if (!isTransient(e) || attempt >= 10) {
              o.log.warn({ pod: name, err: detailOf(e) }, `could not delete the pod (${why})`);
              return;
            }
            await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 4000)).unref());
          }
        }
      })(),
    );

  /** A stop: the pod deleted with the grace asked for; a pod already gone is stopped. */
  async function stopPod(name: string, graceMs: number): Promise<void> {
    await track(
      o.core.deleteNamespacedPod({ name, namespace: o.namespace, gracePeriodSeconds: Math.ceil(graceMs / 1000) }).then(
        () => undefined,
        (e: { code?: number }) => {
          if (!isNotFound(e)) throw errors.unavailable(`could not delete the sandbox's pod: ${detailOf(e)}`, e);
        },
      ),
    );
  }

  return { track, deletePod, stopPod, pending: () => [...pending] };
}

export type PodDeletes = ReturnType<typeof createPodDeletes>;
