/**
 * The token identities the configuration turns on (ADR 0037): ServiceAccount tokens checked by the
 * cluster's TokenReview (runtime/kubernetes/identity/ asks the apiserver; api/auth-service-accounts.ts
 * judges), and OIDC ID tokens (api/auth-oidc.ts). The Kubernetes client is loaded only when needed.
 */
import { createOidcAuth } from "../api/auth-oidc.js";
import { createServiceAccountAuth } from "../api/auth-service-accounts.js";
import type { TokenIdentities } from "../api/auth.js";
import type { Config } from "./config.js";

export async function buildIdentities(cfg: Config): Promise<TokenIdentities> {
  const out: TokenIdentities = {};
  const tr = cfg.auth.tokenReview;
  if (tr) {
    const k8s = await import("@kubernetes/client-node");
    const { createTokenReviewer } = await import("../runtime/kubernetes/identity/token-review.js");
    const kc = new k8s.KubeConfig();
    if (cfg.kube.kubeconfig) kc.loadFromFile(cfg.kube.kubeconfig);
    else kc.loadFromCluster();
    out.serviceAccounts = createServiceAccountAuth({
      reviewer: createTokenReviewer(kc),
      audience: tr.audience,
      tenants: tr.tenants,
      cacheSeconds: tr.cacheSeconds,
    });
  }
  const oidc = cfg.auth.oidc;
  if (oidc) out.oidc = { issuer: oidc.issuer, verify: createOidcAuth(oidc) };
  return out;
}

/** How callers are known, for the log: "open", or the kinds of credential taken. */
export function authKinds(cfg: Config, keys: unknown[] | undefined): string {
  const kinds = [keys ? "api-keys" : "", cfg.auth.tokenReview ? "serviceaccount-tokens" : "", cfg.auth.oidc ? "oidc" : ""].filter(Boolean);
  return kinds.length ? kinds.join(",") : "open";
}
