/**
 * Who the caller is: `Authorization: Bearer <credential>` (or `x-api-key: <key>`) names a tenant.
 * The credential is a key of the keys file (api/auth-keys.ts), or, where configured (ADR 0037), a
 * Kubernetes ServiceAccount token checked by TokenReview (api/auth-service-accounts.ts) or an OIDC
 * ID token from the configured issuer (api/auth-oidc.ts). With none of them Hangar runs open and
 * every caller is the tenant "local".
 */
import type * as grpc from "@grpc/grpc-js";
import { decodeJwt } from "jose";
import { errors } from "../core/errors.js";
import { keyTable, type KeyEntry } from "./auth-keys.js";

export { parseKeysFile, type KeyEntry } from "./auth-keys.js";

export const OPEN_TENANT = "local";

/** A token check: the caller's tenant, or a thrown typed error. */
export type TokenCheck = (token: string) => Promise<string>;

export interface TokenIdentities {
  /** ServiceAccount tokens, checked by the cluster's TokenReview. */
  serviceAccounts?: TokenCheck;
  /** ID tokens of one OIDC issuer. */
  oidc?: { issuer: string; verify: TokenCheck };
}

/** The tenant's name, synchronously for a key or open mode; a token's check answers later. */
export type Authenticator = (md: grpc.Metadata) => string | Promise<string>;

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The credential the caller sent, or undefined. */
function credentialOf(md: grpc.Metadata): string | undefined {
  const auth = md.get("authorization")[0];
  let key: string | undefined;
  if (typeof auth === "string" && /^bearer\s+/i.test(auth)) key = auth.replace(/^bearer\s+/i, "").trim();
  const xKey = md.get("x-api-key")[0];
  if (!key && typeof xKey === "string") key = xKey.trim();
  return key || undefined;
}

/** The issuer a JWT's payload names, unverified (it only picks which check verifies the token). */
function issuerOf(token: string): string | undefined {
  try {
    const iss = decodeJwt(token).iss;
    return typeof iss === "string" ? iss : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Which check a JWT goes to: the OIDC issuer's when its payload names that issuer, else TokenReview
 * where enabled, else the OIDC check (which refuses it, naming the issuer it expects). Pure.
 */
export function tokenRoute(issuer: string | undefined, ids: { oidcIssuer?: string; serviceAccounts: boolean }): "oidc" | "serviceAccounts" {
  if (ids.oidcIssuer !== undefined && issuer === ids.oidcIssuer) return "oidc";
  return ids.serviceAccounts ? "serviceAccounts" : "oidc";
}

/** A credential's tenant (undefined: none was sent), or a thrown UNAUTHENTICATED; open mode names "local" for every caller. */
export type CredentialCheck = ((credential: string | undefined) => string | Promise<string>) & { open: boolean };

/** The check behind both the API and the console (console/): keys file first, then the token identities. */
export function createCredentialCheck(keys: KeyEntry[] | undefined, tokens: TokenIdentities = {}): CredentialCheck {
  const lookup = keys ? keyTable(keys) : undefined;
  const { serviceAccounts, oidc } = tokens;
  if (!lookup && !serviceAccounts && !oidc) return Object.assign(() => OPEN_TENANT, { open: true });
  const what = serviceAccounts || oidc ? "API key or token" : "key";
  const check = (key: string | undefined): string | Promise<string> => {
    if (!key) throw errors.unauthenticated(`missing API key: send 'authorization: Bearer <${what}>'`);
    const tenant = lookup?.(key);
    if (tenant !== undefined) return tenant;
    if (!JWT_SHAPE.test(key) || (!serviceAccounts && !oidc)) throw errors.unauthenticated("invalid API key");
    const route = tokenRoute(issuerOf(key), { oidcIssuer: oidc?.issuer, serviceAccounts: !!serviceAccounts });
    return route === "oidc" && oidc ? oidc.verify(key) : (serviceAccounts as TokenCheck)(key);
  };
  return Object.assign(check, { open: false });
}

export function createAuthenticator(keys: KeyEntry[] | undefined, tokens: TokenIdentities = {}): Authenticator {
  const check = createCredentialCheck(keys, tokens);
  return (md: grpc.Metadata) => check(credentialOf(md));
}
