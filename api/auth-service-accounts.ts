/**
 * Kubernetes ServiceAccount tokens (ADR 0037): a bearer that is a ServiceAccount JWT is checked by
 * the cluster's TokenReview API for Hangar's audience, and its namespace or namespace/ServiceAccount
 * names the tenant through the operator's mapping. The apiserver call sits behind TokenReviewer
 * (runtime/kubernetes/identity/ makes one; cmd/ wires it); verdicts are cached by the token's hash
 * for at most the configured seconds and never past the token's own expiry.
 */
import { decodeJwt } from "jose";
import { errors, HangarError } from "../core/errors.js";
import { tokenKey, VerdictCache, verdictExpiry } from "./auth-cache.js";

/** What the apiserver's TokenReview said about a token. */
export interface TokenReviewResult {
  authenticated: boolean;
  /** e.g. system:serviceaccount:<namespace>:<name> */
  username?: string;
  /** The audiences the token was found valid for (the apiserver's status.audiences). */
  audiences?: string[];
  /** The apiserver's reason for a refusal. */
  error?: string;
}

export interface TokenReviewer {
  /** Throws on an apiserver that cannot be asked (then nothing is cached). */
  review(token: string, audiences: string[]): Promise<TokenReviewResult>;
}

/** Tenants by "namespace/serviceaccount" (first) and by "namespace". */
export interface ServiceAccountTenants {
  byServiceAccount: Record<string, string>;
  byNamespace: Record<string, string>;
}

export interface ServiceAccountAuthOptions {
  reviewer: TokenReviewer;
  audience: string;
  tenants: ServiceAccountTenants;
  /** At most 30. */
  cacheSeconds: number;
  maxCacheEntries?: number;
  now?: () => number;
}

const SA_USER = /^system:serviceaccount:([^:]+):([^:]+)$/;

/** The tenant of a ServiceAccount, or undefined where the mapping names neither it nor its namespace. Pure. */
export function tenantOfServiceAccount(t: ServiceAccountTenants, namespace: string, name: string): string | undefined {
  const own = Object.hasOwn(t.byServiceAccount, `${namespace}/${name}`) ? t.byServiceAccount[`${namespace}/${name}`] : undefined;
  return own ?? (Object.hasOwn(t.byNamespace, namespace) ? t.byNamespace[namespace] : undefined);
}

/** The verdict on a TokenReview's answer: the tenant, or the error that refuses the caller. Pure. */
export function judgeReview(r: TokenReviewResult, audience: string, tenants: ServiceAccountTenants): string | HangarError {
  if (!r.authenticated)
    return errors.unauthenticated(
      `ServiceAccount token refused by the cluster's TokenReview: ${(r.error || "not authenticated").slice(0, 300)}`,
    );
  if (r.audiences && r.audiences.length > 0 && !r.audiences.includes(audience))
    return errors.unauthenticated(
      `ServiceAccount token is not for audience "${audience}" (it is for ${r.audiences.join(", ").slice(0, 200)})`,
    );
  const m = SA_USER.exec(r.username ?? "");
  if (!m)
    return errors.permissionDenied(
      `"${(r.username ?? "").slice(0, 200)}" is not a ServiceAccount; only ServiceAccount tokens are taken here`,
    );
  const [, namespace, name] = m as unknown as [string, string, string];
  const tenant = tenantOfServiceAccount(tenants, namespace, name);
  if (!tenant)
    return errors.permissionDenied(
      `ServiceAccount ${namespace}/${name} is authenticated but no tenant is mapped to it or to namespace ${namespace} (HANGAR_AUTH_TOKENREVIEW_TENANTS)`,
    );
  return tenant;
}

/** The token's exp claim as its payload says (checked by the apiserver, used here only to bound the cache). */
function expOf(token: string): number | undefined {
  try {
    const exp = decodeJwt(token).exp;
    return typeof exp === "number" ? exp : undefined;
  } catch {
    return undefined;
  }
}

export function createServiceAccountAuth(o: ServiceAccountAuthOptions) {
  const now = o.now ?? Date.now;
  const cache = new VerdictCache<string | HangarError>(o.maxCacheEntries ?? 10_000);
  const inFlight = new Map<string, Promise<string | HangarError>>();
  const maxMs = Math.min(o.cacheSeconds, 30) * 1000;

  async function ask(token: string, key: string): Promise<string | HangarError> {
    let r: TokenReviewResult;
    try {
      r = await o.reviewer.review(token, [o.audience]);
    } catch (e) {
      throw errors.unavailable(`the cluster's TokenReview could not be asked: ${((e as Error).message ?? String(e)).slice(0, 300)}`, e);
    }
    const verdict = judgeReview(r, o.audience, o.tenants);
    const t = now();
    cache.set(key, verdict, verdictExpiry(t, maxMs, expOf(token)), t);
    return verdict;
  }

  /** The caller's tenant; throws UNAUTHENTICATED, PERMISSION_DENIED or UNAVAILABLE. */
  return async function verify(token: string): Promise<string> {
    const key = tokenKey(token);
    let verdict = cache.get(key, now());
    if (verdict === undefined) {
      let p = inFlight.get(key);
      if (!p) {
        p = ask(token, key).finally(() => inFlight.delete(key));
        inFlight.set(key, p);
      }
      verdict = await p;
    }
    if (verdict instanceof HangarError) throw verdict;
    return verdict;
  };
}
