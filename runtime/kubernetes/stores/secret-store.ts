/**
 * A Kubernetes secret store (HANGAR_SECRET_STORES name=kubernetes:<namespace with {tenant}>): the
 * tenant's namespace holds Secrets, and only those labelled `hangar.dev/secret-store: <store>` are
 * the store's (other Secrets there, service-account tokens say, are never handed out). A secret
 * without a field is a Secret with one key; with a field, that key. Also here: the per-sandbox
 * Secret the values are copied into, in the sandbox namespace, owned by the sandbox's pod.
 */
import type * as k8s from "@kubernetes/client-node";
import { errors } from "../../../core/errors.js";
import type { SecretRef } from "../../../core/secrets.js";
import { detailOf, isTransient, statusOf } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { STORE_LABEL, ENV_SECRET_LABEL } from "../pod/keys.js";
export { STORE_LABEL, ENV_SECRET_LABEL };
import { envSecretName, pullSecretName } from "../pod/secret-refs.js";
export { envFromSecret, envSecretName, pullSecretName } from "../pod/secret-refs.js";

const describe = (ref: SecretRef, ns: string) =>
  `secret "${ref.name}"${ref.field ? ` key "${ref.field}"` : ""} of store "${ref.store}" (namespace ${ns})`;

/** The Secret a secret name names: lowercased, "_" as "-" (HF_TOKEN -> hf-token); undefined when that is no Secret name. */
export function kubeSecretName(name: string): string | undefined {
  const n = name.toLowerCase().replace(/_/g, "-");
  return /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(n) && n.length <= 253 ? n : undefined;
}

/** The value of one secret from a Secret as read (pure: table-tested). */
export function valueOf(secret: k8s.V1Secret, ref: SecretRef, ns: string): string {
  if (secret.metadata?.labels?.[STORE_LABEL] !== ref.store)
    throw errors.secretUnavailable(ref.at, `${describe(ref, ns)} is not there for this tenant`);
  const data = secret.data ?? {};
  const keys = Object.keys(data);
  const key = ref.field || (keys.length === 1 ? keys[0] : undefined);
  if (!key)
    throw errors.secretUnavailable(
      ref.at,
      `${describe(ref, ns)} has ${keys.length} keys (${keys.slice(0, 8).join(", ")}): name one in field`,
    );
  const b64 = data[key];
  if (b64 === undefined) throw errors.secretUnavailable(ref.at, `${describe(ref, ns)} has no key "${key}"`);
  return Buffer.from(b64, "base64").toString("utf8");
}

/** Reads one secret from the tenant's namespace `ns`; refusals are typed and name the field, never a value. */
export async function readKubeSecret(core: k8s.CoreV1Api, ns: string, ref: SecretRef): Promise<string> {
  const name = kubeSecretName(ref.name);
  if (!name)
    throw errors.secretUnavailable(
      ref.at,
      `"${ref.name}" cannot name a Kubernetes Secret (a DNS subdomain once lowercased, with "_" as "-")`,
    );
  let secret: k8s.V1Secret;
  try {
    secret = await core.readNamespacedSecret({ name, namespace: ns });
  } catch (e) {
    const status = statusOf(e);
    if (status === 404) throw errors.secretUnavailable(ref.at, `${describe(ref, ns)} is not there for this tenant`);
    if (status === 403)
      throw errors.secretUnavailable(
        ref.at,
        `Hangar may not read Secrets in namespace ${ns} (grant it get on secrets there): ${detailOf(e)}`,
      );
    if (isTransient(e)) throw errors.unavailable(`could not read ${describe(ref, ns)}: the Kubernetes API is not answering`, e);
    throw errors.secretUnavailable(ref.at, `could not read ${describe(ref, ns)}: ${detailOf(e)}`);
  }
  return valueOf(secret, ref, ns);
}

/** A Secret of one sandbox (labelled for the sweep of copies whose pod never came), immutable. */
function sandboxSecret(name: string, id: string, namespace: string, type: string, data: Record<string, string>): k8s.V1Secret {
  const b64 = (v: string) => Buffer.from(v, "utf8").toString("base64");
  return {
    apiVersion: "v1",
    kind: "Secret",
    type,
    immutable: true,
    metadata: { name, namespace, labels: { [ENV_SECRET_LABEL]: "true", [SANDBOX_ID]: id } },
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
  };
}

/** The per-sandbox pull Secret (kubernetes.io/dockerconfigjson) its pod's imagePullSecrets names. */
export const pullSecret = (id: string, namespace: string, dockerConfig: string) =>
  sandboxSecret(pullSecretName(id), id, namespace, "kubernetes.io/dockerconfigjson", { ".dockerconfigjson": dockerConfig });

/** The per-sandbox copy of a sandbox's secret values, keyed by env var (pods read it with secretKeyRef). */
export const envSecret = (id: string, namespace: string, values: Record<string, string>) =>
  sandboxSecret(envSecretName(id), id, namespace, "Opaque", values);
