/**
 * Writes sandbox records onto their pods (annotations, merge patches) and releases a pod's
 * record at the end of retention (finalizer removed, pod deleted). Writes of one sandbox land
 * in call order; a failed write is retried with backoff (an apiserver blip must not lose a
 * state), and a pod that is gone ends the retries.
 */
import * as k8s from "@kubernetes/client-node";
import { isNotFound } from "../kube-errors.js";
import { RECORD_FINALIZER } from "../pod/keys.js";

const RETRY_DELAYS_MS = [250, 500, 1000, 2000, 4000, 8000];
const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export function createRecordStore(
  core: k8s.CoreV1Api,
  namespace: string,
  podName: (id: string) => string,
  log: { warn(o: object, m: string): void },
) {
  const chains = new Map<string, Promise<void>>();

  async function patch(id: string, body: object, what: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await core.patchNamespacedPod({ name: podName(id), namespace, body }, mergePatch);
        return;
      } catch (e) {
        if (isNotFound(e)) return; // the pod (and so the record) is gone: nothing to write
        const delay = RETRY_DELAYS_MS[attempt];
        if (delay === undefined) {
          log.warn({ sandbox_id: id, err: e }, `could not ${what}; giving up`);
          return;
        }
        await sleep(delay);
      }
    }
  }

  /**
   * Queues a write of annotations (and, in the same patch, pod spec fields such as a lowered
   * activeDeadlineSeconds) onto the sandbox's pod, after `after` (its creation) and earlier writes.
   */
  function write(id: string, annotations: Record<string, string>, after?: Promise<unknown>, spec?: object): Promise<void> {
    const prev = chains.get(id) ?? Promise.resolve();
    const next = Promise.all([prev, after?.catch(() => undefined)]).then(() =>
      patch(id, { metadata: { annotations }, ...(spec ? { spec } : {}) }, "store the sandbox record"),
    );
    chains.set(id, next);
    void next.finally(() => {
      if (chains.get(id) === next) chains.delete(id);
    });
    return next;
  }

  /** Ends retention: the finalizer goes, then the pod (404s are fine: someone got there first). */
  async function release(id: string): Promise<void> {
    await chains.get(id);
    await patch(id, { metadata: { finalizers: null } }, "release the sandbox record");
    await core.deleteNamespacedPod({ name: podName(id), namespace, gracePeriodSeconds: 0 }).catch((e: unknown) => {
      if (!isNotFound(e)) log.warn({ sandbox_id: id, err: e }, "could not delete the pod after retention");
    });
  }

  const idle = () => Promise.allSettled([...chains.values()]);
  return { write, release, idle, finalizer: RECORD_FINALIZER };
}
