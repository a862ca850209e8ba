/**
 * Identities besides the keys file (ADR 0037): ServiceAccount tokens checked by the cluster's
 * TokenReview, with the mapping from namespace or namespace/ServiceAccount to tenant; and OIDC ID
 * tokens of one issuer, with the claim that names the tenant. Each off unless set.
 */
import { TENANT_NAME, TENANT_NAME_RULE } from "../api/auth-keys.js";
import { ConfigError, K8S_NAME, listOf, type Env } from "./config-env.js";

const TENANTS_KEY = "HANGAR_AUTH_TOKENREVIEW_TENANTS";

/** "namespace=tenant,namespace/serviceaccount=tenant" as the two tables; each error names the entry. Pure. */
export function parseServiceAccountTenants(text: string) {
  const byServiceAccount: Record<string, string> = {};
  const byNamespace: Record<string, string> = {};
  for (const entry of listOf(text)) {
    const m = /^([^=/]+)(?:\/([^=]+))?=(.*)$/.exec(entry);
    const at = `${TENANTS_KEY}: "${entry.slice(0, 120)}"`;
    if (!m) throw new ConfigError(`${at}: expected namespace=tenant or namespace/serviceaccount=tenant`);
    const [, ns, sa, tenant] = m.map((s) => s?.trim()) as [string, string, string | undefined, string];
    if (!K8S_NAME.test(ns)) throw new ConfigError(`${at}: "${ns}" is not a namespace name`);
    if (sa !== undefined && !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(sa))
      throw new ConfigError(`${at}: "${sa}" is not a ServiceAccount name`);
    if (!TENANT_NAME.test(tenant)) throw new ConfigError(`${at}: tenant "${tenant}" must be ${TENANT_NAME_RULE}`);
    const table = sa === undefined ? byNamespace : byServiceAccount;
    const key = sa === undefined ? ns : `${ns}/${sa}`;
    if (Object.hasOwn(table, key)) throw new ConfigError(`${at}: ${key} is mapped twice`);
    table[key] = tenant;
  }
  if (Object.keys(byNamespace).length + Object.keys(byServiceAccount).length === 0)
    throw new ConfigError(
      `${TENANTS_KEY}: empty; with HANGAR_AUTH_TOKENREVIEW=true it must map at least one namespace or ServiceAccount to a tenant`,
    );
  return { byServiceAccount, byNamespace };
}

function readTokenReview(env: Env, kubernetes: boolean) {
  if (!env.bool("HANGAR_AUTH_TOKENREVIEW", false)) return undefined;
  if (!kubernetes)
    throw new ConfigError("HANGAR_AUTH_TOKENREVIEW=true: needs HANGAR_RUNTIME=kubernetes (it asks that cluster's apiserver)");
  const audience = env.str("HANGAR_AUTH_TOKENREVIEW_AUDIENCE", "hangar");
  if (/[\s,]/.test(audience) || audience.length > 253)
    throw new ConfigError(
      `HANGAR_AUTH_TOKENREVIEW_AUDIENCE=${audience.slice(0, 80)}: one audience, no spaces or commas, at most 253 characters`,
    );
  return {
    audience,
    tenants: parseServiceAccountTenants(env.str(TENANTS_KEY, "")),
    cacheSeconds: env.int("HANGAR_AUTH_TOKENREVIEW_CACHE_SECONDS", 10, 0, 30),
  };
}

const loopbackHttp = (u: URL) => u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);

function readOidc(env: Env) {
  const issuer = env.str("HANGAR_AUTH_OIDC_ISSUER", "");
  if (!issuer) return undefined;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ConfigError(`HANGAR_AUTH_OIDC_ISSUER=${issuer.slice(0, 120)}: not a URL`);
  }
  if (url.protocol !== "https:" && !loopbackHttp(url))
    throw new ConfigError(`HANGAR_AUTH_OIDC_ISSUER=${issuer.slice(0, 120)}: must be https (plain http only on loopback, for tests)`);
  const audience = env.str("HANGAR_AUTH_OIDC_AUDIENCE", "");
  if (!audience)
    throw new ConfigError("HANGAR_AUTH_OIDC_AUDIENCE: required with HANGAR_AUTH_OIDC_ISSUER (the client id its ID tokens are for)");
  const tenantClaim = env.str("HANGAR_AUTH_OIDC_TENANT_CLAIM", "hangar_tenant");
  if (!/^[A-Za-z0-9_:.\-/]{1,128}$/.test(tenantClaim))
    throw new ConfigError(`HANGAR_AUTH_OIDC_TENANT_CLAIM=${tenantClaim.slice(0, 80)}: a claim name (1-128 of A-Z a-z 0-9 _ : . - /)`);
  return { issuer, audience, tenantClaim, clockSkewSeconds: env.int("HANGAR_AUTH_OIDC_CLOCK_SKEW_SECONDS", 30, 0, 300) };
}

export function readAuth(env: Env, o: { kubernetes: boolean }) {
  return { tokenReview: readTokenReview(env, o.kubernetes), oidc: readOidc(env) };
}
export type AuthConfig = ReturnType<typeof readAuth>;
