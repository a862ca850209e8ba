/**
 * Secrets from stores the operator configures (HANGAR_SECRET_STORES). A sandbox names secrets by
 * reference (store, name, field) and the environment variable each becomes; the values are looked
 * up for the caller's tenant only, handed to the runtime for that one start, and never stored in
 * the record, echoed by Get/List, logged, or put in an error.
 */

import { errors } from "./errors.js";

/** One secret a sandbox asks for (SecretStoreReference.secrets[]). */
export interface SecretRef {
  store: string;
  /** The secret's name in the store (SecretMapping.path). */
  name: string;
  /** A key within a structured secret; empty = the secret's only value. */
  field?: string;
  envVar: string;
  /** The request field that named it, for errors ("sandbox.spec.containers[0].secret_stores[0].secrets[1]"). */
  at: string;
}

/** A store as configured: where each tenant's secrets live ({tenant} is replaced by the tenant). */
export interface SecretStoreConfig {
  name: string;
  kind: "kubernetes" | "dir";
  /** kubernetes: a namespace name; dir: an absolute directory. Holds "{tenant}" at most once. */
  location: string;
}

/** Resolves references to values for one tenant; typed errors (core/errors) name the field, never a value. */
export interface SecretResolver {
  stores(): string[];
  /** Values by env var. */
  resolve(tenant: string, refs: SecretRef[]): Promise<Record<string, string>>;
  /** One secret's value. */
  value(tenant: string, ref: SecretRef): Promise<string>;
}

/** Container.image_pull_credentials: a registry and the secret (in a store) that logs in to it. */
export interface PullCredentials {
  registry: string;
  /** envVar is unused (""). */
  secret: SecretRef;
}

/** What a start gets besides the spec: secret values for this start only, never stored. */
export interface StartSecrets {
  /** Values by env var (spec.secrets). */
  env?: Record<string, string>;
  /** A Docker config (`{"auths": …}`) for the image's registry (spec.imagePull). */
  pullConfig?: string;
}

/** The registry an image reference pulls from ("python:3.11" -> docker.io), as Docker decides it. */
export function registryOf(image: string): string {
  const first = image.split("/")[0] ?? "";
  return image.includes("/") && (first.includes(".") || first.includes(":") || first === "localhost") ? first : "docker.io";
}

const DOCKER_HUB_AUTH_KEY = "https://index.docker.io/v1/";

/**
 * A pull secret's value as a Docker config for `registry`: `username:password`, or a Docker config
 * document itself (`{"auths": {…}}`, used as it is when it names the registry). A problem is
 * described without the value.
 */
export function dockerConfig(registry: string, value: string): { config: string } | { problem: string } {
  const key = registry === "docker.io" ? DOCKER_HUB_AUTH_KEY : registry;
  const text = value.trim();
  if (text.startsWith("{")) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return { problem: "looks like JSON but is not a Docker config document" };
    }
    const auths = (doc as { auths?: unknown })?.auths;
    if (
      !auths ||
      typeof auths !== "object" ||
      !Object.keys(auths).some((k) => k === key || k === registry || k.replace(/^https?:\/\//, "").replace(/\/.*$/, "") === registry)
    )
      return { problem: `is a Docker config without an entry for ${registry}` };
    return { config: text };
  }
  const colon = text.indexOf(":");
  if (colon <= 0 || colon === text.length - 1 || /[\r\n]/.test(text))
    return { problem: 'must be "username:password" (or a Docker config document, {"auths": …})' };
  return { config: JSON.stringify({ auths: { [key]: { auth: Buffer.from(text).toString("base64") } } }) };
}

/** A tenant as it appears in a store's location: only tenants whose name is already a DNS label (no "." or "_"), so two tenants never share a place. */
export const tenantPlace = (tenant: string): string | undefined =>
  /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(tenant) ? tenant : undefined;

/**
 * HANGAR_SECRET_STORES: comma-separated `name=kind:location`, e.g.
 * `team=kubernetes:hangar-secrets-{tenant},local=dir:/etc/hangar/secrets/{tenant}`.
 * Returns the stores or a message naming what is wrong.
 */
export function parseSecretStores(text: string): SecretStoreConfig[] | string {
  const out: SecretStoreConfig[] = [];
  for (const raw of text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([a-z0-9][a-z0-9_.-]{0,62})=(kubernetes|dir):(.+)$/.exec(raw);
    if (!m) return `"${raw}": expected name=kubernetes:<namespace> or name=dir:<directory> (name: a-z, 0-9, '_', '.', '-')`;
    const [, name, kind, location] = m as unknown as [string, string, "kubernetes" | "dir", string];
    if (out.some((s) => s.name === name)) return `store "${name}" is named twice`;
    if ((location.match(/\{tenant\}/g) ?? []).length !== 1)
      return `store "${name}": the location must hold {tenant} once, so each tenant's secrets are apart`;
    if (kind === "kubernetes" && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(location.replace("{tenant}", "x")))
      return `store "${name}": "${location}" is not a namespace name with {tenant} in it`;
    if (kind === "dir" && !location.startsWith("/")) return `store "${name}": "${location}" must be an absolute directory`;
    out.push({ name, kind, location });
  }
  return out;
}

/** Largest secret value Hangar passes on (an environment variable, not a file). */
export const MAX_SECRET_BYTES = 64 * 1024;

/** A value as found, checked: a problem is described without the value. */
export function secretValueProblem(value: string): string | undefined {
  if (Buffer.byteLength(value) > MAX_SECRET_BYTES) return `is over ${MAX_SECRET_BYTES} bytes, too large for an environment variable`;
  if (value.includes("\u0000")) return "holds a NUL byte, which an environment variable cannot";
  return undefined;
}

/** The stores' names and, per store, the lookup of one secret: the parts every resolver shares. */
export function resolverOf(stores: { config: SecretStoreConfig; get(place: string, ref: SecretRef): Promise<string> }[]): SecretResolver {
  async function value(tenant: string, ref: SecretRef): Promise<string> {
    const store = stores.find((s) => s.config.name === ref.store);
    if (!store) throw errors.invalidField(`${ref.at}`, `no store named "${ref.store}"`);
    const place = tenantPlace(tenant);
    if (!place)
      throw errors.secretUnavailable(
        ref.at,
        `tenant "${tenant}" has no place in secret stores (tenant names with "." or "_" cannot name a namespace or directory of their own)`,
      );
    const v = await store.get(store.config.location.replace("{tenant}", place), ref);
    const problem = secretValueProblem(v);
    if (problem) throw errors.secretUnavailable(ref.at, `secret "${ref.name}"${ref.field ? ` field "${ref.field}"` : ""} ${problem}`);
    return v;
  }
  return {
    stores: () => stores.map((s) => s.config.name),
    value,
    async resolve(tenant, refs) {
      const out: Record<string, string> = {};
      for (const ref of refs) out[ref.envVar] = await value(tenant, ref);
      return out;
    },
  };
}
