/**
 * The Kubernetes runtime's template store: one ConfigMap per template in the sandbox namespace
 * (`tpl-<id>`, labelled with its tenant), shared by every replica and surviving restarts; no CRD
 * (ADR 0015). An update replaces the ConfigMap at the resourceVersion it read, so the apiserver
 * refuses the second of two concurrent writers (409), which is the revision check.
 */
import * as k8s from "@kubernetes/client-node";
import { TemplateConflict, type TemplateRecord, type TemplateStore } from "../../../core/templates.js";
import { isConflict, isNotFound, retryTransient } from "../kube-errors.js";
import { MANAGED_BY, MANAGED_BY_VALUE } from "../pod/labels.js";
import { TEMPLATE_LABEL } from "../pod/keys.js";
export { TEMPLATE_LABEL };

const KEY = "template.json";
const nameOf = (id: string) => `tpl-${id}`;

export function createConfigMapTemplateStore(kc: k8s.KubeConfig, namespace: string): TemplateStore {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const decode = (cm: k8s.V1ConfigMap): TemplateRecord | undefined => {
    try {
      const t = JSON.parse(cm.data?.[KEY] ?? "") as TemplateRecord;
      return t.tenant === cm.metadata?.labels?.[TEMPLATE_LABEL] ? t : undefined;
    } catch {
      return undefined;
    }
  };
  const read = async (id: string): Promise<k8s.V1ConfigMap | undefined> => {
    if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) return undefined;
    return retryTransient(() => core.readNamespacedConfigMap({ name: nameOf(id.toLowerCase()), namespace })).catch((e: unknown) => {
      if (isNotFound(e)) return undefined;
      throw e;
    });
  };
  return {
    async get(tenant, id) {
      const cm = await read(id);
      const t = cm && decode(cm);
      return t && t.tenant === tenant ? t : undefined;
    },
    async list(tenant) {
      const res = await retryTransient(() => core.listNamespacedConfigMap({ namespace, labelSelector: `${TEMPLATE_LABEL}=${tenant}` }));
      return res.items.map(decode).filter((t): t is TemplateRecord => !!t && t.tenant === tenant);
    },
    async put(t, expected) {
      const body: k8s.V1ConfigMap = {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: nameOf(t.id), namespace, labels: { [TEMPLATE_LABEL]: t.tenant, [MANAGED_BY]: MANAGED_BY_VALUE } },
        data: { [KEY]: JSON.stringify(t) },
      };
      if (expected === 0) {
        await retryTransient(() => core.createNamespacedConfigMap({ namespace, body })).catch((e: unknown) => {
          if (isConflict(e)) throw new TemplateConflict(`template ${t.id} exists`);
          throw e;
        });
        return;
      }
      const cur = await read(t.id);
      const stored = cur && decode(cur);
      if (!cur || !stored || stored.tenant !== t.tenant || stored.revision !== expected)
        throw new TemplateConflict(`template ${t.id} is not at revision ${expected}`);
      body.metadata = { ...body.metadata, resourceVersion: cur.metadata?.resourceVersion };
      await retryTransient(() => core.replaceNamespacedConfigMap({ name: nameOf(t.id), namespace, body })).catch((e: unknown) => {
        if (isConflict(e)) throw new TemplateConflict(`template ${t.id} changed`);
        throw e;
      });
    },
  };
}
