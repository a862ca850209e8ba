/**
 * The records of sandboxes whose reusable pool pod went back to its pool (ADR 0040): one ConfigMap
 * per ended sandbox (`hangar-ended-<id>`), labelled so every replica's informer sees it and a
 * restarted replica lists it, deleted when retention ends. A pod is a sandbox's record home only while
 * the sandbox is its own.
 */
import * as k8s from "@kubernetes/client-node";
import { isConflict, isNotFound, isTransient } from "../kube-errors.js";
import { ENDED_RECORD_LABEL, MANAGED_BY, MANAGED_BY_VALUE, SANDBOX_ID, TENANT } from "../pod/keys.js";
import { tenantLabelValue } from "../pod/labels.js";

export const endedRecordName = (id: string) => `hangar-ended-${id}`;
const SELECTOR = `${ENDED_RECORD_LABEL}=true`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export interface EndedRecordsOptions {
  kubeConfig: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  namespace: string;
  log: { warn(o: object, m: string): void };
  /** A record seen (added or changed, by any replica); `text` is the record as record-codec wrote it. */
  onRecord(id: string, text: string): void;
  closing(): boolean;
}

export function createEndedRecords(o: EndedRecordsOptions) {
  const informer = k8s.makeInformer(
    o.kubeConfig,
    `/api/v1/namespaces/${o.namespace}/configmaps`,
    () => o.core.listNamespacedConfigMap({ namespace: o.namespace, labelSelector: SELECTOR }),
    SELECTOR,
  );
  const seen = (cm: k8s.V1ConfigMap) => {
    const id = cm.metadata?.labels?.[SANDBOX_ID];
    const text = cm.data?.record;
    if (id && text) o.onRecord(id, text);
  };
  informer.on("add", seen);
  informer.on("update", seen);
  informer.on("error", (err: unknown) => {
    if (o.closing()) return;
    o.log.warn({ err }, "ended-record watch failed; restarting it in 1s");
    setTimeout(() => void informer.start().catch(() => undefined), 1000).unref();
  });

  /** Writes (creates, or replaces) the record; retried while the apiserver cannot answer. */
  async function write(id: string, tenant: string, text: string): Promise<void> {
    const body: k8s.V1ConfigMap = {
      metadata: {
        name: endedRecordName(id),
        namespace: o.namespace,
        labels: { [MANAGED_BY]: MANAGED_BY_VALUE, [ENDED_RECORD_LABEL]: "true", [SANDBOX_ID]: id, [TENANT]: tenantLabelValue(tenant) },
      },
      data: { record: text },
    };
    for (let attempt = 0; ; attempt++) {
      try {
        try {
          await o.core.createNamespacedConfigMap({ namespace: o.namespace, body });
        } catch (e) {
          if (!isConflict(e)) throw e;
          await o.core.replaceNamespacedConfigMap({ name: endedRecordName(id), namespace: o.namespace, body });
        }
        return;
      } catch (e) {
        if (!isTransient(e) || attempt >= 6) throw e;
        await sleep(Math.min(250 * 2 ** attempt, 4000));
      }
    }
  }

  async function remove(id: string): Promise<void> {
    await o.core.deleteNamespacedConfigMap({ name: endedRecordName(id), namespace: o.namespace }).catch((e: unknown) => {
      if (!isNotFound(e)) o.log.warn({ sandbox_id: id, err: e }, "could not delete an ended sandbox's record");
    });
  }

  return {
    write,
    remove,
    /** The first list: every ended record is delivered (onRecord) before this resolves. */
    start: () => informer.start(),
    stop: () => informer.stop(),
  };
}

export type EndedRecords = ReturnType<typeof createEndedRecords>;
