/**
 * Registered volumes on Kubernetes: the operator registers a PersistentVolumeClaim of the sandbox
 * namespace for one tenant by labelling it `hangar.dev/volume-tenant=<tenant>` (pods mount claims of
 * their own namespace only). Its id is the annotation `hangar.dev/volume-id` or the claim's name;
 * `hangar.dev/volume-read-only: "true"` registers it read-only. Read fresh on every call, so a
 * label added or removed takes effect at once; a claim labelled for another tenant is never seen.
 */
import * as k8s from "@kubernetes/client-node";
import type { RegisteredVolume, VolumeRegistry } from "../../../core/volumes.js";
import { retryTransient } from "../kube-errors.js";
import { VOLUME_TENANT_LABEL, VOLUME_ID_ANNOTATION, VOLUME_READ_ONLY_ANNOTATION, VOLUME_DESCRIPTION_ANNOTATION } from "../pod/keys.js";
export { VOLUME_TENANT_LABEL, VOLUME_ID_ANNOTATION, VOLUME_READ_ONLY_ANNOTATION, VOLUME_DESCRIPTION_ANNOTATION };

/** A labelled claim -> the registered volume it is (pure). */
export function volumeOfClaim(pvc: k8s.V1PersistentVolumeClaim, tenant: string): RegisteredVolume | undefined {
  const md = pvc.metadata;
  if (!md?.name || md.labels?.[VOLUME_TENANT_LABEL] !== tenant) return undefined;
  const phase = pvc.status?.phase ?? "Pending";
  const bound = phase === "Bound";
  return {
    id: md.annotations?.[VOLUME_ID_ANNOTATION] || md.name,
    tenant,
    readOnly: md.annotations?.[VOLUME_READ_ONLY_ANNOTATION] === "true",
    accessModes: pvc.status?.accessModes ?? pvc.spec?.accessModes ?? [],
    ...(pvc.status?.capacity?.storage ? { capacity: pvc.status.capacity.storage } : {}),
    ...(md.annotations?.[VOLUME_DESCRIPTION_ANNOTATION] ? { description: md.annotations[VOLUME_DESCRIPTION_ANNOTATION] } : {}),
    ready: bound && !md.deletionTimestamp,
    reason: md.deletionTimestamp
      ? `claim ${md.name} is being deleted`
      : bound
        ? `claim ${md.name} is Bound`
        : `claim ${md.name} is ${phase}`,
    source: { claimName: md.name, namespace: md.namespace ?? "" },
    createdAtMs: md.creationTimestamp ? new Date(md.creationTimestamp).getTime() : 0,
  };
}

export function createClaimVolumeRegistry(kc: k8s.KubeConfig, namespace: string): VolumeRegistry {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  return {
    async list(tenant) {
      if (!/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/.test(tenant)) return [];
      const res = await retryTransient(() =>
        core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector: `${VOLUME_TENANT_LABEL}=${tenant}` }),
      );
      return res.items.flatMap((p) => volumeOfClaim(p, tenant) ?? []);
    },
  };
}
