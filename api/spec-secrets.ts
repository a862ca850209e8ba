/** Secret references of the primary container: its secret stores and its image pull credentials. */
import type { FieldViolation } from "../core/errors.js";
import { registryOf, type PullCredentials, type SecretRef } from "../core/secrets.js";
import type { Container__Output } from "./generated/coreweave/sandbox/v1/Container.js";
import { LIMITS } from "./limits.js";
import { ENV_NAME, SECRET_NAME } from "./spec-text.js";

/** Container.image_pull_credentials -> the registry and a reference to the secret that logs in to it. */
export function pullCredentials(
  p: Container__Output["image_pull_credentials"],
  cf: string,
  image: string,
  configured: string[],
  v: FieldViolation[],
): PullCredentials | undefined {
  if (!p) return undefined;
  const at = `${cf}.image_pull_credentials`;
  const registry = (p.registry ?? "").replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(registry))
    v.push({ field: `${at}.registry`, description: 'a registry host[:port], e.g. "ghcr.io"' });
  else if (image && registryOf(image) !== registry)
    v.push({
      field: `${at}.registry`,
      description: `the image ${image.slice(0, 128)} is pulled from ${registryOf(image)}, not ${registry}`,
    });
  const src = p.credentials;
  const store = src?.store_name ?? "",
    name = src?.path ?? "",
    field = src?.field ?? "";
  if (!configured.length)
    v.push({ field: `${at}.credentials`, description: "no secret stores are configured on this Hangar (HANGAR_SECRET_STORES)" });
  else if (!configured.includes(store))
    v.push({
      field: `${at}.credentials.store_name`,
      description: `no store named "${store.slice(0, 64)}" (this Hangar has: ${configured.join(", ")})`,
    });
  if (!SECRET_NAME.test(name) || name.includes(".."))
    v.push({
      field: `${at}.credentials.path`,
      description: "a secret name: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
    });
  if (field && (!SECRET_NAME.test(field) || field.includes("..")))
    v.push({
      field: `${at}.credentials.field`,
      description: "a key: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
    });
  return { registry, secret: { store, name, ...(field ? { field } : {}), envVar: "", at: `${at}.credentials` } };
}

/** Container.secret_stores -> references (values are looked up later, for the caller's tenant only). */
export function secretRefs(
  stores: Container__Output["secret_stores"],
  cf: string,
  env: Record<string, string>,
  configured: string[],
  v: FieldViolation[],
): SecretRef[] {
  const refs: SecretRef[] = [];
  (stores ?? []).forEach((st, i) => {
    const at = `${cf}.secret_stores[${i}]`;
    const store = st.store_name ?? "";
    if (!configured.length) v.push({ field: at, description: "no secret stores are configured on this Hangar (HANGAR_SECRET_STORES)" });
    else if (!configured.includes(store))
      v.push({
        field: `${at}.store_name`,
        description: `no store named "${store.slice(0, 64)}" (this Hangar has: ${configured.join(", ")})`,
      });
    if (!st.secrets?.length) v.push({ field: `${at}.secrets`, description: "required: at least one secret" });
    (st.secrets ?? []).forEach((m, j) => {
      const mf = `${at}.secrets[${j}]`;
      const name = m.path ?? "",
        field = m.field ?? "",
        envVar = m.env_var ?? "";
      if (!SECRET_NAME.test(name) || name.includes(".."))
        v.push({
          field: `${mf}.path`,
          description: "a secret name: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
        });
      if (field && (!SECRET_NAME.test(field) || field.includes("..")))
        v.push({
          field: `${mf}.field`,
          description: "a key: 1-253 characters of A-Z, a-z, 0-9, '_', '.', '-', not starting with '.' or '-'",
        });
      if (!ENV_NAME.test(envVar)) v.push({ field: `${mf}.env_var`, description: "not a valid environment variable name" });
      else if (envVar in env) v.push({ field: `${mf}.env_var`, description: `${envVar} is also in environment_variables` });
      else if (refs.some((r) => r.envVar === envVar)) v.push({ field: `${mf}.env_var`, description: `${envVar} is named by two secrets` });
      refs.push({ store, name, ...(field ? { field } : {}), envVar, at: mf });
    });
  });
  if (refs.length > LIMITS.secrets) v.push({ field: `${cf}.secret_stores`, description: `at most ${LIMITS.secrets} secrets` });
  return refs;
}
