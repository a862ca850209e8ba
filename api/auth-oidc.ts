/**
 * OIDC ID tokens from one configured issuer (ADR 0037). The issuer's discovery document
 * (/.well-known/openid-configuration) names its JWKS; jose (a well-kept JOSE library) fetches the
 * JWKS, refetches it when a token names a key id it does not hold (at most once per cooldown), and
 * checks the signature (asymmetric algorithms only), issuer, audience and expiry with a small clock
 * skew. A configured claim names the tenant. Each refusal says which check failed.
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { errors } from "../core/errors.js";
import { TENANT_NAME, TENANT_NAME_RULE } from "./auth-keys.js";

export interface OidcOptions {
  issuer: string;
  audience: string;
  tenantClaim: string;
  clockSkewSeconds: number;
  /** The least time between two JWKS fetches for an unknown key id (jose's cooldown). */
  jwksCooldownMs?: number;
  /** How long a failed discovery is answered before it is tried again. */
  discoveryRetryMs?: number;
  fetchTimeoutMs?: number;
}

export const OIDC_ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** The JWKS address from a discovery document, checked against the configured issuer. Pure. */
export function jwksUriOf(doc: unknown, issuer: string): URL {
  const d = (doc ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
  if (d.issuer !== issuer) throw new Error(`its discovery document names issuer ${JSON.stringify(d.issuer)?.slice(0, 200)}, not ${issuer}`);
  if (typeof d.jwks_uri !== "string") throw new Error("its discovery document has no jwks_uri");
  const uri = new URL(d.jwks_uri);
  if (uri.protocol !== "https:" && uri.protocol !== new URL(issuer).protocol)
    throw new Error(`its jwks_uri ${d.jwks_uri.slice(0, 200)} is not https`);
  return uri;
}

/** A clear refusal for each of jose's errors; an issuer that cannot be reached is UNAVAILABLE. */
export function oidcRefusal(e: unknown, o: { issuer: string; audience: string }) {
  const err = e as { code?: string; claim?: string; message?: string };
  const why = (err.message ?? String(e)).slice(0, 200);
  switch (err.code) {
    case "ERR_JWT_EXPIRED":
      return errors.unauthenticated(`ID token expired (${why})`);
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      if (err.claim === "iss") return errors.unauthenticated(`ID token is not from issuer ${o.issuer}`);
      if (err.claim === "aud") return errors.unauthenticated(`ID token is not for audience "${o.audience}"`);
      return errors.unauthenticated(`ID token claim ${err.claim ?? "?"} refused: ${why}`);
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return errors.unauthenticated("ID token signature does not verify with the issuer's keys");
    case "ERR_JWKS_NO_MATCHING_KEY":
    case "ERR_JWKS_MULTIPLE_MATCHING_KEYS":
      return errors.unauthenticated(`ID token names a key the issuer's JWKS does not hold (${why})`);
    case "ERR_JOSE_ALG_NOT_ALLOWED":
    case "ERR_JOSE_NOT_SUPPORTED":
      return errors.unauthenticated(`ID token algorithm refused: only ${OIDC_ALGORITHMS.join(", ")} (${why})`);
    case "ERR_JWS_INVALID":
    case "ERR_JWT_INVALID":
    case "ERR_JWT_CLAIM_INVALID":
      return errors.unauthenticated(`ID token is malformed: ${why}`);
    default:
      return errors.unavailable(`OIDC issuer ${o.issuer}: its keys could not be fetched: ${why}`, e);
  }
}

/** The tenant a verified payload names, or the refusal. Pure. */
export function tenantOfClaims(payload: JWTPayload, claim: string): string {
  const v = Object.hasOwn(payload, claim) ? payload[claim] : undefined;
  if (v === undefined) throw errors.permissionDenied(`ID token has no "${claim}" claim naming a tenant (HANGAR_AUTH_OIDC_TENANT_CLAIM)`);
  if (typeof v !== "string" || !TENANT_NAME.test(v))
    throw errors.permissionDenied(`ID token claim "${claim}" is not a tenant name (${TENANT_NAME_RULE})`);
  return v;
}

export function createOidcAuth(o: OidcOptions) {
  const timeout = o.fetchTimeoutMs ?? 5000;
  let keys: Promise<KeySet> | undefined;
  let failedAt = 0;

  async function discover(): Promise<KeySet> {
    const url = `${o.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
    const res = await fetch(url, { signal: AbortSignal.timeout(timeout), redirect: "error" });
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    return createRemoteJWKSet(jwksUriOf(await res.json(), o.issuer), {
      timeoutDuration: timeout,
      cooldownDuration: o.jwksCooldownMs ?? 30_000,
    });
  }

  /** The key set, discovered once; a failed discovery is retried no sooner than discoveryRetryMs. */
  function keySet(): Promise<KeySet> {
    if (!keys && Date.now() - failedAt >= (o.discoveryRetryMs ?? 5000)) {
      keys = discover().catch((e: unknown) => {
        failedAt = Date.now();
        keys = undefined;
        throw e;
      });
    }
    if (!keys) return Promise.reject(new Error("discovery failed recently; retried shortly"));
    return keys;
  }

  /** The caller's tenant; throws UNAUTHENTICATED, PERMISSION_DENIED or UNAVAILABLE. */
  return async function verify(token: string): Promise<string> {
    let set: KeySet;
    try {
      set = await keySet();
    } catch (e) {
      throw errors.unavailable(`OIDC issuer ${o.issuer}: discovery failed: ${((e as Error).message ?? String(e)).slice(0, 300)}`, e);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, set, {
        issuer: o.issuer,
        audience: o.audience,
        clockTolerance: o.clockSkewSeconds,
        algorithms: OIDC_ALGORITHMS,
        requiredClaims: ["exp"],
      }));
    } catch (e) {
      throw oidcRefusal(e, o);
    }
    return tenantOfClaims(payload, o.tenantClaim);
  };
}
