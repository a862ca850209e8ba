/** The names of a sandbox's own Secrets, and how its pod refers to them (the Secrets themselves: stores/secret-store.ts). */
export const envSecretName = (id: string) => `sbx-${id}-env`;
export const pullSecretName = (id: string) => `sbx-${id}-pull`;

/** Env entries that read each variable from the per-sandbox copy. */
export const envFromSecret = (id: string, envVars: string[]) =>
  envVars.map((name) => ({ name, valueFrom: { secretKeyRef: { name: envSecretName(id), key: name } } }));
