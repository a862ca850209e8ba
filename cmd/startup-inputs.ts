/**
 * The files the configuration names, read and checked before anything starts: the API keys (and
 * the tenants the limits name), the share-token key, the shared templates, and the warm pools
 * resolved against them. Each problem ends Hangar, naming the setting.
 */
import { readFileSync } from "node:fs";
import { OPEN_TENANT, parseKeysFile } from "../api/auth.js";
import { PROTO_DIR } from "../api/proto.js";
import { parseSharedTemplates } from "../api/shared-templates.js";
import { toDomainSpec } from "../api/spec.js";
import { applyOverrides } from "../api/template-view.js";
import { allowsEgress } from "../core/egress.js";
import { MIN_SHARE_TOKEN_KEY_BYTES } from "../core/share-token.js";
import type { WarmPoolConfig } from "../runtime/kubernetes/pool/config.js";
import { resolveWarmPools } from "../runtime/kubernetes/pool/resolve.js";
import type { Config } from "./config.js";
import { fail } from "./fail.js";

/** The limits a spec is checked against, with the secret stores it may name. */
export const specLimitsOf = (cfg: Config) => (stores?: string[]) => ({
  maxLifetimeSeconds: cfg.maxLifetimeSeconds,
  secretStores: stores,
  runtimeClassSelection: cfg.runtimeClassSelection,
});

/** The API keys (undefined: none), and no tenant limits for a tenant no key or ServiceAccount mapping names. */
export function readKeys(cfg: Config) {
  let keys;
  try {
    keys = cfg.keysFile ? parseKeysFile(readFileSync(cfg.keysFile, "utf8"), cfg.keysFile) : undefined;
  } catch (e) {
    fail(`HANGAR_API_KEYS_FILE: ${(e as Error).message}`);
  }
  // An override for a tenant no key names is a typo that would leave the real tenant on the defaults.
  // An OIDC issuer's claim may name any tenant, so then there is nothing to check against.
  const tr = cfg.auth.tokenReview;
  const open = !keys && !tr && !cfg.auth.oidc;
  const mapped = tr ? [...Object.values(tr.tenants.byNamespace), ...Object.values(tr.tenants.byServiceAccount)] : [];
  const tenantNames = new Set(open ? [OPEN_TENANT] : [...(keys ?? []).map((k) => k.tenant), ...mapped]);
  const unknownTenant = cfg.auth.oidc ? undefined : Object.keys(cfg.tenantLimits.tenants).find((t) => !tenantNames.has(t));
  if (unknownTenant)
    fail(
      `HANGAR_TENANT_LIMITS.${unknownTenant}: no such tenant (${open ? `open mode has the one tenant "${OPEN_TENANT}"` : "neither HANGAR_API_KEYS_FILE nor HANGAR_AUTH_TOKENREVIEW_TENANTS names it"})`,
    );
  return keys;
}

/** The share tokens' HMAC key, where share-token endpoints are configured. */
export function readShareTokenKey(cfg: Config): Buffer | undefined {
  if (!cfg.kube.shareTokens) return undefined;
  let shareTokenKey: Buffer;
  try {
    shareTokenKey = readFileSync(cfg.kube.shareTokens.keyFile);
  } catch (e) {
    fail(`HANGAR_SHARE_TOKEN_KEY_FILE=${cfg.kube.shareTokens.keyFile}: ${(e as Error).message}`);
  }
  if (shareTokenKey.length < MIN_SHARE_TOKEN_KEY_BYTES)
    fail(
      `HANGAR_SHARE_TOKEN_KEY_FILE=${cfg.kube.shareTokens.keyFile}: ${shareTokenKey.length} bytes; a key is at least ${MIN_SHARE_TOKEN_KEY_BYTES} random bytes (head -c 32 /dev/urandom)`,
    );
  return shareTokenKey;
}

/** The shared templates, and the warm pools (Kubernetes only) with each template pool's spec. */
export function readTemplatesAndPools(cfg: Config) {
  const specLimits = specLimitsOf(cfg);
  let sharedTemplates;
  try {
    sharedTemplates = cfg.sharedTemplatesFile
      ? parseSharedTemplates(readFileSync(cfg.sharedTemplatesFile, "utf8"), PROTO_DIR, specLimits(cfg.secretStores.map((s) => s.name)))
      : [];
  } catch (e) {
    fail(`HANGAR_SHARED_TEMPLATES_FILE=${cfg.sharedTemplatesFile}: ${(e as Error).message}`);
  }
  let warmPools: WarmPoolConfig[] = [];
  try {
    // A template pool's pods are made as a run of the template with no overrides is: the same spec conversion as CreateSandboxFromTemplate's.
    const specOf = (id: string) => {
      const t = sharedTemplates.find((x) => x.id === id);
      return t && toDomainSpec(applyOverrides(t.spec as never, undefined), specLimits(cfg.secretStores.map((s) => s.name)));
    };
    if (cfg.runtime === "kubernetes")
      warmPools = resolveWarmPools(
        cfg.kube.warmPools,
        specOf,
        (s) => allowsEgress(s, cfg.defaultDenyEgress),
        cfg.kube.egress.enforcement === "netinit",
        cfg.kube.runners,
      );
    const https = warmPools.find((p) => p.shape?.https);
    if (https && !cfg.kube.egress.proxy)
      throw new Error(
        `${https.template ? `template:${https.template}` : https.image}: a pool for sandboxes with hostname grants needs Hangar's egress proxy (HANGAR_KUBE_EGRESS_PROXY_LISTEN)`,
      );
    const sized = warmPools.find((p) => p.shape?.caps);
    if (sized && !cfg.kube.poolReuse)
      throw new Error(
        `${sized.image}: a sized pool (+cpu, +memory) resizes reused pods at claim, and their exec agent confirms each limit (HANGAR_KUBE_POOL_REUSE=true)`,
      );
  } catch (e) {
    fail(`HANGAR_KUBE_WARM_POOLS: ${(e as Error).message}`);
  }
  return { sharedTemplates, warmPools };
}
