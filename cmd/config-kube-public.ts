/**
 * How sandboxes' ports are reached from outside on the Kubernetes runtime: PUBLIC services through
 * a Gateway (HANGAR_PUBLIC_GATEWAY / _URL), TLS passthrough endpoints (HANGAR_PUBLIC_TLS_*), and the
 * HTTPS share-token endpoints' check (ADR 0021).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parsePublicTlsAddress, parsePublicUrl, type PublicTlsBase, type PublicUrlBase } from "../core/public-url.js";
import { ConfigError, K8S_NAME, type Env } from "./config-env.js";

/** A Gateway listener named in setting `key`: `<namespace>/<name>[/<listener>]`. */
function gatewayRef(key: string, text: string): { namespace: string; name: string; sectionName?: string } {
  const [namespace = "", name = "", sectionName, ...rest] = text.split("/");
  if (rest.length || ![namespace, name, ...(sectionName !== undefined ? [sectionName] : [])].every((p) => K8S_NAME.test(p)))
    throw new ConfigError(`${key}=${text}: expected <namespace>/<gateway name>[/<listener name>]`);
  return { namespace, name, ...(sectionName ? { sectionName } : {}) };
}

/**
 * HANGAR_PUBLIC_GATEWAY (`<namespace>/<name>[/<listener>]`) and HANGAR_PUBLIC_URL (core/public-url.ts):
 * both or neither.
 */
export function parsePublicGateway(
  gateway: string,
  url: string,
): { namespace: string; name: string; sectionName?: string; url: PublicUrlBase } | undefined {
  if (!gateway && !url) return undefined;
  if (!gateway || !url)
    throw new ConfigError(
      `HANGAR_PUBLIC_GATEWAY and HANGAR_PUBLIC_URL go together (PUBLIC services): ${gateway ? "HANGAR_PUBLIC_URL" : "HANGAR_PUBLIC_GATEWAY"} is not set`,
    );
  const ref = gatewayRef("HANGAR_PUBLIC_GATEWAY", gateway);
  let base: PublicUrlBase;
  try {
    base = parsePublicUrl(url);
  } catch (e) {
    throw new ConfigError(`HANGAR_PUBLIC_URL=${url}: ${(e as Error).message}`);
  }
  return { ...ref, url: base };
}

/**
 * HANGAR_PUBLIC_TLS_GATEWAY (`<namespace>/<name>[/<listener>]`, a listener with protocol TLS, mode
 * Passthrough) and HANGAR_PUBLIC_TLS_ADDRESS (`*.domain[:port]`, core/public-url.ts): both or neither.
 */
export function parsePublicTls(
  gateway: string,
  address: string,
): { namespace: string; name: string; sectionName?: string; address: PublicTlsBase } | undefined {
  if (!gateway && !address) return undefined;
  if (!gateway || !address)
    throw new ConfigError(
      `HANGAR_PUBLIC_TLS_GATEWAY and HANGAR_PUBLIC_TLS_ADDRESS go together (TLS passthrough endpoints): ${gateway ? "HANGAR_PUBLIC_TLS_ADDRESS" : "HANGAR_PUBLIC_TLS_GATEWAY"} is not set`,
    );
  const ref = gatewayRef("HANGAR_PUBLIC_TLS_GATEWAY", gateway);
  try {
    return { ...ref, address: parsePublicTlsAddress(address) };
  } catch (e) {
    throw new ConfigError(`HANGAR_PUBLIC_TLS_ADDRESS=${address}: ${(e as Error).message}`);
  }
}

/**
 * HTTPS share-token endpoints (ADR 0021): HANGAR_PUBLIC_AUTH_FILTER (`<group>/<Kind>/<name>`, the
 * operator's forward-auth filter object in the sandbox namespace, which an HTTPRoute names as an
 * ExtensionRef), HANGAR_SHARE_TOKEN_KEY_FILE (the HMAC key, read by main) and
 * HANGAR_SHARE_TOKEN_CHECK_LISTEN (host:port of the check that filter calls): all or none.
 */
export function parseShareTokens(
  filter: string,
  keyFile: string,
  listen: string,
): { authFilter: { group: string; kind: string; name: string }; keyFile: string; listen: string } | undefined {
  if (!filter && !keyFile && !listen) return undefined;
  const missing = Object.entries({
    HANGAR_PUBLIC_AUTH_FILTER: filter,
    HANGAR_SHARE_TOKEN_KEY_FILE: keyFile,
    HANGAR_SHARE_TOKEN_CHECK_LISTEN: listen,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length)
    throw new ConfigError(
      `HANGAR_PUBLIC_AUTH_FILTER, HANGAR_SHARE_TOKEN_KEY_FILE and HANGAR_SHARE_TOKEN_CHECK_LISTEN go together (HTTPS share-token endpoints): ${missing.join(", ")} not set`,
    );
  const [group = "", kind = "", name = "", ...rest] = filter.split("/");
  if (
    rest.length ||
    !/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(group) ||
    !/^[A-Z][A-Za-z0-9]{0,62}$/.test(kind) ||
    !K8S_NAME.test(name)
  ) {
    throw new ConfigError(
      `HANGAR_PUBLIC_AUTH_FILTER=${filter}: expected <API group>/<Kind>/<name> of a filter object in the sandbox namespace, e.g. traefik.io/Middleware/hangar-share-token`,
    );
  }
  if (!path.isAbsolute(keyFile) || !existsSync(keyFile))
    throw new ConfigError(`HANGAR_SHARE_TOKEN_KEY_FILE=${keyFile}: no such file (an absolute path to at least 32 random bytes)`);
  return { authFilter: { group, kind, name }, keyFile, listen };
}

/** The public gateway, TLS passthrough and share-token settings together: each needs the Kubernetes runtime, share tokens an https:// host-routed gateway. */
export function readPublic(env: Env, kubernetes: boolean) {
  const publicGateway = parsePublicGateway(env.str("HANGAR_PUBLIC_GATEWAY", ""), env.str("HANGAR_PUBLIC_URL", ""));
  if (publicGateway && !kubernetes)
    throw new ConfigError(
      "HANGAR_PUBLIC_GATEWAY / HANGAR_PUBLIC_URL: PUBLIC services need the Kubernetes runtime (an HTTPRoute per port); the local runtime takes no inbound connections",
    );
  const publicTls = parsePublicTls(env.str("HANGAR_PUBLIC_TLS_GATEWAY", ""), env.str("HANGAR_PUBLIC_TLS_ADDRESS", ""));
  if (publicTls && !kubernetes)
    throw new ConfigError(
      "HANGAR_PUBLIC_TLS_GATEWAY / HANGAR_PUBLIC_TLS_ADDRESS: TLS passthrough endpoints need the Kubernetes runtime (a TLSRoute per port); the local runtime takes no inbound connections",
    );
  const shareTokens = parseShareTokens(
    env.str("HANGAR_PUBLIC_AUTH_FILTER", ""),
    env.str("HANGAR_SHARE_TOKEN_KEY_FILE", ""),
    env.str("HANGAR_SHARE_TOKEN_CHECK_LISTEN", ""),
  );
  if (shareTokens && publicGateway?.url.scheme !== "https")
    throw new ConfigError(
      `HANGAR_PUBLIC_AUTH_FILTER: share-token endpoints are HTTPS endpoints, and ${publicGateway ? "HANGAR_PUBLIC_URL is not https://" : "HANGAR_PUBLIC_GATEWAY / HANGAR_PUBLIC_URL are not set"} (the Kubernetes runtime, with a Gateway that terminates TLS)`,
    );
  // Host routing only: there the Host header alone picks the route, and the check judges that same
  // host. With path routing the check would read the raw path while the Gateway routes a normalized
  // one (dot segments, percent-encoding), so a token for one sandbox could reach another's port.
  if (shareTokens && !publicGateway?.url.wildcard)
    throw new ConfigError(
      "HANGAR_PUBLIC_AUTH_FILTER: share-token endpoints need host routing (HANGAR_PUBLIC_URL=https://*.domain[:port]), not path routing: the check must judge exactly what the Gateway routes on",
    );
  const shareTokenListen = shareTokens ? env.address("HANGAR_SHARE_TOKEN_CHECK_LISTEN", "") : undefined;
  return {
    ...(publicGateway ? { publicGateway } : {}),
    ...(publicTls ? { publicTls } : {}),
    ...(shareTokens && shareTokenListen
      ? { shareTokens: { authFilter: shareTokens.authFilter, keyFile: shareTokens.keyFile, listen: shareTokenListen } }
      : {}),
  };
}
