/**
 * The only reader of process.env and argv. Every setting is read once here, validated, and
 * frozen; a bad value is a startup error that names the setting. docs/configuration.md
 * documents each key. Flags: --listen=ADDR is HANGAR_LISTEN, and so on for every key.
 */
import { accessSync, constants, existsSync, lstatSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCidr } from "../core/cidr.js";
import { parseQuantity } from "../core/quantity.js";
import { parsePublicTlsAddress, parsePublicUrl, type PublicTlsBase, type PublicUrlBase } from "../core/public-url.js";
import { DEFAULT_PRIVATE_CIDRS } from "../runtime/kubernetes/egress-policy.js";
import { parseSecretStores } from "../core/secrets.js";
import { parseWarmPools, type WarmPoolEntry } from "../runtime/kubernetes/warm-pool-config.js";
import { DEFAULT_LOCAL_LOG_BYTES, LimitsConfigError, readTenantLimits } from "./config-limits.js";

export class ConfigError extends Error {}

const K8S_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

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

const isRealDir = (p: string) => {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
};

type Source = Record<string, string | undefined>;

function fromArgv(argv: string[]): Source {
  const out: Source = {};
  for (const a of argv) {
    const m = /^--([a-z0-9-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new ConfigError(`unknown argument ${a}: settings are --name=value (for HANGAR_NAME) or environment variables`);
    out[`HANGAR_${(m[1] as string).replace(/-/g, "_").toUpperCase()}`] = m[2] ?? "true";
  }
  return out;
}

/**
 * HANGAR_KUBE_RUNNERS: comma-separated runners, each `id` or `id:key=value&key=value`
 * (a node selector, e.g. a node pool). Empty = one runner, HANGAR_RUNNER_ID, on any node.
 */
export function parseKubeRunners(
  text: string,
  defaultId: string,
  group: string,
): { runnerId: string; runnerGroupId: string; nodeSelector: Record<string, string> }[] {
  if (!text.trim()) return [{ runnerId: defaultId, runnerGroupId: group, nodeSelector: {} }];
  const seen = new Set<string>();
  return text.split(",").map((entry) => {
    const e = entry.trim();
    const colon = e.indexOf(":");
    const id = colon < 0 ? e : e.slice(0, colon);
    if (!/^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/.test(id))
      throw new ConfigError(`HANGAR_KUBE_RUNNERS: "${e}": runner id must be a DNS label`);
    if (seen.has(id)) throw new ConfigError(`HANGAR_KUBE_RUNNERS: runner ${id} appears twice`);
    seen.add(id);
    const nodeSelector: Record<string, string> = {};
    for (const pair of colon < 0 ? [] : e.slice(colon + 1).split("&")) {
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new ConfigError(`HANGAR_KUBE_RUNNERS: "${e}": expected key=value node labels after the colon`);
      nodeSelector[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    return { runnerId: id, runnerGroupId: group, nodeSelector };
  });
}

/**
 * HANGAR_KUBE_AGENT_DIRECT_PORTS: the ports the exec agent's direct link (ADR 0022) may listen on,
 * `first-last` (one per Hangar process that talks to the pod: keep at least the replica count), or
 * `off` (commands stay on the exec channel through the apiserver).
 */
export const DEFAULT_DIRECT_PORTS = "47960-47975";

/** HANGAR_KUBE_AGENT_IMAGE_PATH: hangar-agent's absolute path in the netinit image (ADR 0023), or off. */
export function parseAgentImagePath(text: string): string | undefined {
  if (text === "off") return undefined;
  if (!path.posix.isAbsolute(text) || /[\s"'$`\\]/.test(text))
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_IMAGE_PATH=${text}: expected the absolute path of hangar-agent in HANGAR_KUBE_NETINIT_IMAGE (Hangar's image: /app/.build/hangar-agent), or off (install it through exec stdin)`,
    );
  return text;
}

export function parseDirectPorts(text: string): { first: number; count: number } | undefined {
  const t = text.trim();
  if (t === "off") return undefined;
  const m = /^(\d{1,5})-(\d{1,5})$/.exec(t);
  const first = Number(m?.[1]);
  const last = Number(m?.[2]);
  if (!m || first < 1024 || last > 65535 || last < first || last - first >= 256) {
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_DIRECT_PORTS=${text}: expected first-last (1024-65535, at most 256 ports, e.g. 47960-47975) or off`,
    );
  }
  return { first, count: last - first + 1 };
}

/** A comma-separated list of IPv4/IPv6 CIDRs (or addresses); a bad entry names the setting. */
export function parseCidrList(key: string, text: string): string[] {
  return text
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)
    .map((c) => {
      if (!parseCidr(c)) throw new ConfigError(`${key}: "${c}" is not an IPv4 or IPv6 CIDR (such as 10.0.0.0/8 or fd00::/8)`);
      return c;
    });
}

/**
 * The egress proxy for hostname grants: HANGAR_KUBE_EGRESS_PROXY_LISTEN (host:port; empty = no
 * proxy, hostname grants refused), _ADDRESS (the ip:port sandboxes dial; default the listen
 * address; port 0 = the port it got), _PINNED (name=ip,... resolved without DNS).
 */
export function egressProxy(
  listen: string,
  address: string,
  pinned: string,
): { listen: { host: string; port: number }; address: string; pinned: Record<string, string> } | undefined {
  if (!listen.trim()) {
    if (address.trim() || pinned.trim())
      throw new ConfigError("HANGAR_KUBE_EGRESS_PROXY_ADDRESS and _PINNED need HANGAR_KUBE_EGRESS_PROXY_LISTEN");
    return undefined;
  }
  const hp = /^(.+):(\d{1,5})$/.exec(listen.trim());
  if (!hp?.[1] || Number(hp[2]) > 65535) throw new ConfigError(`HANGAR_KUBE_EGRESS_PROXY_LISTEN=${listen}: expected host:port`);
  const host = hp[1].replace(/^\[|\]$/g, "");
  const adv = address.trim() || listen.trim();
  const am = /^(.+):(\d{1,5})$/.exec(adv);
  const advHost = am?.[1]?.replace(/^\[|\]$/g, "") ?? "";
  if (!am || !parseCidr(advHost) || advHost === "0.0.0.0" || advHost === "::") {
    throw new ConfigError(
      `HANGAR_KUBE_EGRESS_PROXY_ADDRESS=${adv}: expected the ip:port sandboxes dial (an address, not 0.0.0.0: a Service IP, or the node's)`,
    );
  }
  const pins: Record<string, string> = {};
  for (const pair of pinned
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [name, ip] = pair.split("=");
    if (!name || !ip || !parseCidr(ip) || ip.includes("/"))
      throw new ConfigError(`HANGAR_KUBE_EGRESS_PROXY_PINNED: "${pair}": expected name=ip`);
    pins[name.toLowerCase()] = ip;
  }
  return {
    listen: { host, port: Number(hp[2]) },
    address: adv.includes("]") || !advHost.includes(":") ? adv : `[${advHost}]:${am[2]}`,
    pinned: pins,
  };
}

export interface Toleration {
  key?: string;
  operator?: "Exists" | "Equal";
  value?: string;
  effect?: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
  tolerationSeconds?: number;
}

/** HANGAR_KUBE_TOLERATIONS: a JSON list of Kubernetes tolerations for every sandbox pod (e.g. tainted GPU nodes). */
export function parseTolerations(text: string): Toleration[] {
  if (!text.trim()) return [];
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(
      `HANGAR_KUBE_TOLERATIONS: not JSON (${(e as Error).message}); expected e.g. [{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]`,
    );
  }
  if (!Array.isArray(v)) throw new ConfigError("HANGAR_KUBE_TOLERATIONS: expected a JSON list of tolerations");
  return v.map((t: unknown, i) => {
    const where = `HANGAR_KUBE_TOLERATIONS[${i}]`;
    if (!t || typeof t !== "object" || Array.isArray(t)) throw new ConfigError(`${where}: expected an object`);
    const o = t as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!["key", "operator", "value", "effect", "tolerationSeconds"].includes(k)) throw new ConfigError(`${where}: unknown field "${k}"`);
    for (const k of ["key", "value"])
      if (o[k] !== undefined && typeof o[k] !== "string") throw new ConfigError(`${where}.${k}: expected a string`);
    if (o.operator !== undefined && o.operator !== "Exists" && o.operator !== "Equal")
      throw new ConfigError(`${where}.operator: Exists or Equal`);
    if (o.operator === "Exists" && o.value) throw new ConfigError(`${where}: operator Exists takes no value`);
    if (o.effect !== undefined && !["NoSchedule", "PreferNoSchedule", "NoExecute"].includes(o.effect as string))
      throw new ConfigError(`${where}.effect: NoSchedule, PreferNoSchedule or NoExecute`);
    if (o.tolerationSeconds !== undefined && !Number.isInteger(o.tolerationSeconds))
      throw new ConfigError(`${where}.tolerationSeconds: expected an integer`);
    return o as Toleration;
  });
}

export function loadConfig(env: Source, argv: string[], installDir: string) {
  const src: Source = { ...env, ...fromArgv(argv) };
  const used = new Set<string>();
  const str = (key: string, def: string): string => {
    used.add(key);
    const v = src[key];
    return v === undefined || v === "" ? def : v;
  };
  const int = (key: string, def: number, min: number, max: number): number => {
    const raw = str(key, String(def));
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
      throw new ConfigError(`${key}=${raw}: expected an integer from ${min} to ${max}`);
    return n;
  };
  const bool = (key: string, def: boolean): boolean => {
    const raw = str(key, String(def)).toLowerCase();
    if (["1", "true", "yes", "on"].includes(raw)) return true;
    if (["0", "false", "no", "off"].includes(raw)) return false;
    throw new ConfigError(`${key}=${raw}: expected true or false`);
  };
  const address = (key: string, def: string): { host: string; port: number; text: string } => {
    const raw = str(key, def);
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(raw);
    if (!m || Number(m[2]) > 65535) throw new ConfigError(`${key}=${raw}: expected host:port (port 0 picks a free one)`);
    return { host: (m[1] as string).replace(/^\[|\]$/g, ""), port: Number(m[2]), text: raw };
  };

  const listen = address("HANGAR_LISTEN", "127.0.0.1:50051");
  const metricsRaw = str("HANGAR_METRICS_LISTEN", "127.0.0.1:9464");
  const metrics = metricsRaw === "off" ? undefined : address("HANGAR_METRICS_LISTEN", "127.0.0.1:9464");
  const sharedTemplatesFile = str("HANGAR_SHARED_TEMPLATES_FILE", "") || undefined;
  const snapshotDirText = str("HANGAR_SNAPSHOT_DIR", "");
  if (snapshotDirText && snapshotDirText !== "off" && !path.isAbsolute(snapshotDirText))
    throw new ConfigError(`HANGAR_SNAPSHOT_DIR=${snapshotDirText}: an absolute path (or "off")`);
  const snapshotMaxBytes = int("HANGAR_SNAPSHOT_MAX_BYTES", 10 * 1024 ** 3, 1024 * 1024, Number.MAX_SAFE_INTEGER);
  const snapshotsPerTenant = int("HANGAR_SNAPSHOTS_PER_TENANT", 1000, 1, 1_000_000);
  if (sharedTemplatesFile && !existsSync(sharedTemplatesFile))
    throw new ConfigError(`HANGAR_SHARED_TEMPLATES_FILE=${sharedTemplatesFile}: no such file`);
  const keysFile = str("HANGAR_API_KEYS_FILE", "") || undefined;
  if (keysFile && !existsSync(keysFile)) throw new ConfigError(`HANGAR_API_KEYS_FILE=${keysFile}: no such file`);
  const allowOpen = bool("HANGAR_ALLOW_OPEN_NON_LOOPBACK", false);
  const loopback = (h: string) => h === "localhost" || h === "::1" || /^127\./.test(h);
  if (!keysFile && !loopback(listen.host) && !allowOpen) {
    throw new ConfigError(
      `HANGAR_LISTEN=${listen.text}: without HANGAR_API_KEYS_FILE Hangar runs open (no authentication) and then listens only on loopback; set HANGAR_API_KEYS_FILE, or HANGAR_ALLOW_OPEN_NON_LOOPBACK=true to accept that risk`,
    );
  }
  const runtime = str("HANGAR_RUNTIME", "local");
  if (runtime !== "local" && runtime !== "kubernetes") throw new ConfigError(`HANGAR_RUNTIME=${runtime}: expected local or kubernetes`);
  const runtimeClassSelection: Record<string, string> = {};
  for (const item of str("HANGAR_RUNTIME_CLASS_SELECTION", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(CPU_DEFAULT|CPU_NESTED_VIRT|CPU_SNAPSHOT_RESTORE|GPU_DEFAULT)=([a-z0-9]([-a-z0-9.]*[a-z0-9])?)?$/.exec(item);
    if (!m)
      throw new ConfigError(
        `HANGAR_RUNTIME_CLASS_SELECTION: "${item}": expected CATEGORY=runtimeclass (or CATEGORY= for the node's default), CATEGORY one of CPU_DEFAULT, CPU_NESTED_VIRT, CPU_SNAPSHOT_RESTORE, GPU_DEFAULT`,
      );
    runtimeClassSelection[m[1] as string] = m[2] ?? "";
  }
  const secretStores = parseSecretStores(str("HANGAR_SECRET_STORES", ""));
  if (typeof secretStores === "string") throw new ConfigError(`HANGAR_SECRET_STORES: ${secretStores}`);
  const kubeStore = secretStores.find((s) => s.kind === "kubernetes");
  if (kubeStore && runtime !== "kubernetes")
    throw new ConfigError(
      `HANGAR_SECRET_STORES: store "${kubeStore.name}" reads Kubernetes Secrets, which needs HANGAR_RUNTIME=kubernetes (use name=dir:/path/{tenant} with the local runtime)`,
    );
  const logLevel = str("HANGAR_LOG_LEVEL", "info");
  if (!["fatal", "error", "warn", "info", "debug", "trace", "silent"].includes(logLevel))
    throw new ConfigError(`HANGAR_LOG_LEVEL=${logLevel}: expected fatal, error, warn, info, debug, trace or silent`);
  const isRoot = process.getuid?.() === 0;
  const dataDir = path.resolve(str("HANGAR_DATA_DIR", isRoot ? "/var/lib/hangar" : path.join(os.homedir(), ".local/share/hangar")));

  const images: Record<string, string> = {};
  for (const entry of str("HANGAR_LOCAL_IMAGES", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.lastIndexOf("=");
    const name = entry.slice(0, eq),
      dir = entry.slice(eq + 1);
    if (eq <= 0 || !path.isAbsolute(dir)) throw new ConfigError(`HANGAR_LOCAL_IMAGES: "${entry}" is not image=/absolute/rootfs/dir`);
    if (!existsSync(path.join(dir, "bin")) && !existsSync(path.join(dir, "usr")))
      throw new ConfigError(`HANGAR_LOCAL_IMAGES: ${dir} (for ${name}) does not look like a root filesystem (no bin/ or usr/)`);
    images[name] = dir;
  }
  const unsafe = bool("HANGAR_LOCAL_UNSAFE_NO_ISOLATION", false);
  const tool = (key: string, def: string) => {
    const p = str(key, def);
    return p;
  };
  const bwrap = tool("HANGAR_LOCAL_BWRAP", "/usr/bin/bwrap");
  const executable = (p: string) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (runtime === "kubernetes" && !src.KUBECONFIG && !src.KUBERNETES_SERVICE_HOST) {
    throw new ConfigError("HANGAR_RUNTIME=kubernetes: set KUBECONFIG, or run inside a cluster (in-cluster service account)");
  }
  if (runtime === "local" && !unsafe && !executable(bwrap)) {
    throw new ConfigError(
      `HANGAR_LOCAL_BWRAP=${bwrap}: bubblewrap is not installed, and the local runtime isolates every sandbox with it. Install it (apt-get install bubblewrap), or set HANGAR_LOCAL_UNSAFE_NO_ISOLATION=true to run sandboxes as plain processes of this user with no isolation at all`,
    );
  }
  const ptyHelper = tool("HANGAR_LOCAL_PTY_HELPER", path.join(installDir, ".build/hangar-pty"));
  const execAgent = bool("HANGAR_KUBE_EXEC_AGENT", false);
  const agentBinary = str("HANGAR_KUBE_AGENT_BINARY", path.join(installDir, ".build/hangar-agent"));
  const userNamespaces = str("HANGAR_KUBE_USER_NAMESPACES", "auto");
  if (!["auto", "required", "off"].includes(userNamespaces))
    throw new ConfigError(
      `HANGAR_KUBE_USER_NAMESPACES=${userNamespaces}: expected auto (use them where the cluster runs them), required (refuse to start without them) or off`,
    );
  const egressEnforcement = str("HANGAR_KUBE_EGRESS_ENFORCEMENT", "netinit");
  if (egressEnforcement !== "netinit" && egressEnforcement !== "networkpolicy")
    throw new ConfigError(
      `HANGAR_KUBE_EGRESS_ENFORCEMENT=${egressEnforcement}: expected netinit (Hangar's init container, any CNI) or networkpolicy (the chart's NetworkPolicies only)`,
    );
  const netinitImage = str("HANGAR_KUBE_NETINIT_IMAGE", "");
  if (runtime === "kubernetes" && egressEnforcement === "netinit" && !netinitImage) {
    throw new ConfigError(
      "HANGAR_KUBE_NETINIT_IMAGE is not set: sandbox pods load their egress rules with hangar-netinit from that image (Hangar's own image holds it at /app/.build/hangar-netinit); set HANGAR_KUBE_EGRESS_ENFORCEMENT=networkpolicy to rely on NetworkPolicies alone",
    );
  }
  if (runtime === "kubernetes" && execAgent && !executable(agentBinary))
    throw new ConfigError(
      `HANGAR_KUBE_AGENT_BINARY=${agentBinary}: not found; build it with 'make setup' (HANGAR_KUBE_EXEC_AGENT=true needs it)`,
    );
  if (runtime === "local" && !executable(ptyHelper))
    throw new ConfigError(`HANGAR_LOCAL_PTY_HELPER=${ptyHelper}: not found; build it with 'make setup'`);
  const guard = tool("HANGAR_LOCAL_GUARD", path.join(installDir, ".build/hangar-guard"));
  const seccompBpf = tool("HANGAR_LOCAL_SECCOMP_BPF", path.join(installDir, ".build/seccomp.bpf"));
  if (runtime === "local" && !unsafe && (!executable(guard) || !existsSync(seccompBpf)))
    throw new ConfigError(
      `HANGAR_LOCAL_GUARD=${guard} / HANGAR_LOCAL_SECCOMP_BPF=${seccompBpf}: not found; build them with 'make setup' (every sandbox process runs under that seccomp filter)`,
    );
  const publicGateway = parsePublicGateway(str("HANGAR_PUBLIC_GATEWAY", ""), str("HANGAR_PUBLIC_URL", ""));
  if (publicGateway && runtime !== "kubernetes")
    throw new ConfigError(
      "HANGAR_PUBLIC_GATEWAY / HANGAR_PUBLIC_URL: PUBLIC services need the Kubernetes runtime (an HTTPRoute per port); the local runtime takes no inbound connections",
    );
  const publicTls = parsePublicTls(str("HANGAR_PUBLIC_TLS_GATEWAY", ""), str("HANGAR_PUBLIC_TLS_ADDRESS", ""));
  if (publicTls && runtime !== "kubernetes")
    throw new ConfigError(
      "HANGAR_PUBLIC_TLS_GATEWAY / HANGAR_PUBLIC_TLS_ADDRESS: TLS passthrough endpoints need the Kubernetes runtime (a TLSRoute per port); the local runtime takes no inbound connections",
    );
  const shareTokens = parseShareTokens(
    str("HANGAR_PUBLIC_AUTH_FILTER", ""),
    str("HANGAR_SHARE_TOKEN_KEY_FILE", ""),
    str("HANGAR_SHARE_TOKEN_CHECK_LISTEN", ""),
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
  const shareTokenListen = shareTokens ? address("HANGAR_SHARE_TOKEN_CHECK_LISTEN", "") : undefined;
  const imageDirs = str("HANGAR_LOCAL_IMAGE_DIRS", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const d of imageDirs)
    if (!path.isAbsolute(d) || !isRealDir(d)) throw new ConfigError(`HANGAR_LOCAL_IMAGE_DIRS: ${d} is not an absolute path to a directory`);
  // GPUs on the local runtime: only the device nodes listed, one GPU each (runtime/local/gpus.ts).
  const charDevice = (d: string) => {
    try {
      return statSync(d).isCharacterDevice();
    } catch {
      return false;
    }
  };
  const gpuDevices = str("HANGAR_LOCAL_GPU_DEVICES", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const d of gpuDevices)
    if (!path.isAbsolute(d) || !charDevice(d))
      throw new ConfigError(
        `HANGAR_LOCAL_GPU_DEVICES: ${d} is not an absolute path to a character device (one per GPU, e.g. /dev/nvidia0)`,
      );
  if (new Set(gpuDevices).size !== gpuDevices.length) throw new ConfigError("HANGAR_LOCAL_GPU_DEVICES: a device is listed twice");
  const gpuSharedText = str("HANGAR_LOCAL_GPU_SHARED_DEVICES", "/dev/nvidiactl,/dev/nvidia-uvm,/dev/nvidia-uvm-tools,/dev/nvidia-modeset");
  const gpuShared = gpuSharedText
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .filter((d) => path.isAbsolute(d) && charDevice(d));
  const gpuType = str("HANGAR_LOCAL_GPU_TYPE", "");
  if (gpuType && !/^[A-Za-z0-9][-A-Za-z0-9_. ]{0,62}$/.test(gpuType))
    throw new ConfigError(`HANGAR_LOCAL_GPU_TYPE=${gpuType}: a GPU model name such as H100 (letters, digits, '-', '_', '.', ' ')`);
  const gpuMemoryGb = int("HANGAR_LOCAL_GPU_MEMORY_GB", 0, 0, 100_000);
  if ((gpuType || gpuMemoryGb) && !gpuDevices.length)
    throw new ConfigError(
      "HANGAR_LOCAL_GPU_TYPE / HANGAR_LOCAL_GPU_MEMORY_GB describe the GPUs of HANGAR_LOCAL_GPU_DEVICES, which lists none",
    );
  if (gpuDevices.length && unsafe)
    throw new ConfigError(
      "HANGAR_LOCAL_GPU_DEVICES: GPU sandboxes need isolation (with HANGAR_LOCAL_UNSAFE_NO_ISOLATION every process sees every device)",
    );
  // Registered volumes on the local runtime: tenant/id=/dir[:ro] (runtime/local/volume-dirs.ts).
  const localVolumes = str("HANGAR_LOCAL_VOLUMES", "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^([A-Za-z0-9][-A-Za-z0-9_.]{0,62})\/([A-Za-z0-9][-A-Za-z0-9_.]{0,127})=(\/[^:]*)(?::(ro|rw))?$/.exec(entry);
      if (!m) throw new ConfigError(`HANGAR_LOCAL_VOLUMES: "${entry}" is not tenant/volume-id=/absolute/dir[:ro]`);
      const dir = path.resolve(m[3] as string);
      if (dir === "/" || !isRealDir(dir))
        throw new ConfigError(`HANGAR_LOCAL_VOLUMES: ${m[3]} (volume ${m[2]} of ${m[1]}) is not a directory (and never the host's root)`);
      return { tenant: m[1] as string, id: m[2] as string, dir, readOnly: m[4] === "ro" };
    });
  for (const [i, v] of localVolumes.entries())
    if (localVolumes.findIndex((x) => x.tenant === v.tenant && x.id === v.id) !== i)
      throw new ConfigError(`HANGAR_LOCAL_VOLUMES: volume ${v.id} of ${v.tenant} is listed twice`);
  const idRangeStart = int("HANGAR_LOCAL_ID_RANGE_START", 200_000, 1, 4_294_967_294 - 65_536);
  const slotUidBase = int("HANGAR_LOCAL_SLOT_UID_BASE", 300_000, 1, 4_294_967_294 - 65_536);
  if (slotUidBase < idRangeStart + 65_536 && slotUidBase + 65_536 > idRangeStart)
    throw new ConfigError(
      `HANGAR_LOCAL_SLOT_UID_BASE=${slotUidBase}: the slot uids (${slotUidBase}-${slotUidBase + 65_535}) overlap the sandbox id range HANGAR_LOCAL_ID_RANGE_START=${idRangeStart} (${idRangeStart}-${idRangeStart + 65_535})`,
    );
  const runnerId = str(
    "HANGAR_RUNNER_ID",
    `local-${os
      .hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-")}`,
  );
  const runnerGroupId = str("HANGAR_RUNNER_GROUP_ID", "local");
  // Per-tenant limits (cmd/config-limits.ts, ADR 0031).
  const localLogBytes = int("HANGAR_LOCAL_LOG_BYTES", DEFAULT_LOCAL_LOG_BYTES, 64 * 1024, 1024 ** 3);
  const tenantLimits = (() => {
    try {
      return readTenantLimits(int, str, {
        maxSandboxes: int("HANGAR_MAX_SANDBOXES", 256, 1, 100_000),
        maxExecs: int("HANGAR_MAX_EXECS", 1024, 1, 100_000),
        open: !keysFile,
        localLogBytes,
      });
    } catch (e) {
      throw e instanceof LimitsConfigError ? new ConfigError(e.message) : e;
    }
  })();

  const cfg = {
    listen,
    metrics,
    keysFile,
    sharedTemplatesFile,
    // Snapshots: the local runtime keeps them in its data dir by default; on Kubernetes the operator names storage every replica mounts.
    snapshots:
      snapshotDirText === "off" || (!snapshotDirText && runtime !== "local")
        ? undefined
        : {
            dir: path.resolve(snapshotDirText || path.join(dataDir, "snapshots")),
            maxBytes: snapshotMaxBytes,
            perTenant: snapshotsPerTenant,
          },
    allowOpenNonLoopback: allowOpen,
    runtime: runtime as "local" | "kubernetes",
    logLevel,
    dataDir,
    retentionSeconds: int("HANGAR_RETENTION_SECONDS", 3600, 0, 30 * 86400),
    defaultLifetimeSeconds: int("HANGAR_DEFAULT_LIFETIME_SECONDS", 3600, 1, 30 * 86400),
    maxLifetimeSeconds: int("HANGAR_MAX_LIFETIME_SECONDS", 86400, 1, 30 * 86400),
    maxSandboxes: int("HANGAR_MAX_SANDBOXES", 256, 1, 100_000),
    maxExecsPerSandbox: int("HANGAR_MAX_EXECS_PER_SANDBOX", 64, 1, 10_000),
    maxExecs: int("HANGAR_MAX_EXECS", 1024, 1, 100_000),
    maxFileBytes: int("HANGAR_MAX_FILE_BYTES", 32 * 1024 * 1024, 1024, 99 * 1024 * 1024),
    maxGraceSeconds: int("HANGAR_MAX_GRACE_SECONDS", 3600, 0, 86400),
    getHoldMs: int("HANGAR_GET_HOLD_MS", 2000, 0, 30_000),
    execDeadlineMarginMs: int("HANGAR_EXEC_DEADLINE_MARGIN_MS", 5000, 0, 60_000),
    shutdownGraceSeconds: int("HANGAR_SHUTDOWN_GRACE_SECONDS", 10, 0, 3600),
    reapIntervalMs: int("HANGAR_REAP_INTERVAL_MS", 1000, 50, 60_000),
    // How often freed native memory is handed back (glibc's malloc_trim, ADR 0024); 0 (the default): never.
    mallocTrimSeconds: int("HANGAR_MALLOC_TRIM_SECONDS", 0, 0, 3600),
    defaultDenyEgress: bool("HANGAR_DEFAULT_DENY_EGRESS", true),
    reportPreparing: bool("HANGAR_REPORT_PREPARING", true),
    tenantLimits,
    secretStores,
    runtimeClassSelection,
    kube: {
      kubeconfig: str("KUBECONFIG", "") || undefined,
      namespace: str("HANGAR_NAMESPACE", "default"),
      clusterDomain: (() => {
        const d = str("HANGAR_KUBE_CLUSTER_DOMAIN", "cluster.local");
        if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(d))
          throw new ConfigError(`HANGAR_KUBE_CLUSTER_DOMAIN=${d}: expected a DNS domain such as cluster.local`);
        return d;
      })(),
      ...(publicGateway ? { publicGateway } : {}),
      ...(publicTls ? { publicTls } : {}),
      ...(shareTokens && shareTokenListen
        ? { shareTokens: { authFilter: shareTokens.authFilter, keyFile: shareTokens.keyFile, listen: shareTokenListen } }
        : {}),
      startupTimeoutSeconds: int("HANGAR_STARTUP_TIMEOUT_SECONDS", 120, 5, 3600),
      deadlineMarginSeconds: int("HANGAR_KUBE_DEADLINE_MARGIN_SECONDS", 2, 0, 86400),
      runtimeClassName: str("HANGAR_KUBE_RUNTIME_CLASS", "") || undefined,
      forkDriver: (() => {
        const d = str("HANGAR_KUBE_FORK_DRIVER", "");
        if (d && !/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/.test(d))
          throw new ConfigError(`HANGAR_KUBE_FORK_DRIVER=${d}: a CSI driver name (fork.csi.hangar.dev), or empty`);
        return d || undefined;
      })(),
      ephemeralStorageBytes: (() => {
        const q = str("HANGAR_KUBE_EPHEMERAL_STORAGE", "10Gi");
        const n = parseQuantity(q);
        if (n === undefined || n < 0)
          throw new ConfigError(`HANGAR_KUBE_EPHEMERAL_STORAGE=${q}: expected a Kubernetes quantity (10Gi), or 0 for no cap`);
        if (n > 0 && n < 64 * 1024 ** 2)
          throw new ConfigError(
            `HANGAR_KUBE_EPHEMERAL_STORAGE=${q}: below 64Mi a sandbox's own logs and writes would get it evicted; 0 turns the cap off`,
          );
        return n === 0 ? undefined : Math.ceil(n);
      })(),
      capacityCpuMillicores: int("HANGAR_RUNNER_CPU_MILLICORES", 8000, 0, 100_000_000),
      capacityMemoryBytes: int("HANGAR_RUNNER_MEMORY_BYTES", 32 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER),
      runners: parseKubeRunners(str("HANGAR_KUBE_RUNNERS", ""), runnerId, runnerGroupId),
      tolerations: parseTolerations(str("HANGAR_KUBE_TOLERATIONS", "")),
      gpu: {
        resource: str("HANGAR_KUBE_GPU_RESOURCE", "nvidia.com/gpu"),
        typeLabels: str("HANGAR_KUBE_GPU_TYPE_LABELS", "nvidia.com/gpu.product,gpu.nvidia.com/class")
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
        memoryLabel: str("HANGAR_KUBE_GPU_MEMORY_LABEL", "nvidia.com/gpu.memory"),
      },
      nodeRefreshMs: int("HANGAR_KUBE_NODE_REFRESH_SECONDS", 30, 1, 3600) * 1000,
      userNamespaces: userNamespaces as "auto" | "required" | "off",
      egress: {
        enforcement: egressEnforcement as "netinit" | "networkpolicy",
        netinitImage: netinitImage || undefined,
        netinitPath: str("HANGAR_KUBE_NETINIT_PATH", "/app/.build/hangar-netinit"),
        privateCidrs: parseCidrList(
          "HANGAR_KUBE_EGRESS_PRIVATE_CIDRS",
          str("HANGAR_KUBE_EGRESS_PRIVATE_CIDRS", "") || DEFAULT_PRIVATE_CIDRS.join(","),
        ),
        grantableCidrs: parseCidrList("HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS", str("HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS", "")),
        denyCidrs: parseCidrList("HANGAR_KUBE_EGRESS_DENY_CIDRS", str("HANGAR_KUBE_EGRESS_DENY_CIDRS", "")),
        gvisorRuntimeClasses: str("HANGAR_KUBE_GVISOR_RUNTIME_CLASSES", "")
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
        proxy: egressProxy(
          str("HANGAR_KUBE_EGRESS_PROXY_LISTEN", ""),
          str("HANGAR_KUBE_EGRESS_PROXY_ADDRESS", ""),
          str("HANGAR_KUBE_EGRESS_PROXY_PINNED", ""),
        ),
      },
      execAgentBinary: execAgent ? agentBinary : undefined,
      agentDirectPorts: parseDirectPorts(str("HANGAR_KUBE_AGENT_DIRECT_PORTS", DEFAULT_DIRECT_PORTS)),
      agentImagePath: parseAgentImagePath(str("HANGAR_KUBE_AGENT_IMAGE_PATH", "/app/.build/hangar-agent")),
      warmPools: (() => {
        try {
          const pools = parseWarmPools(str("HANGAR_KUBE_WARM_POOLS", ""));
          const t = pools.find((p): p is Extract<WarmPoolEntry, { template: string }> => "template" in p);
          if (t && !sharedTemplatesFile)
            throw new Error(`template:${t.template} names a shared template, and HANGAR_SHARED_TEMPLATES_FILE is not set`);
          return pools;
        } catch (e) {
          throw new ConfigError(`HANGAR_KUBE_WARM_POOLS: ${(e as Error).message}`);
        }
      })(),
    },
    runnerId,
    runnerGroupId,
    organizationId: str("HANGAR_ORGANIZATION_ID", "hangar"),
    local: {
      images,
      imageDirs,
      imageCacheDir: path.resolve(str("HANGAR_LOCAL_IMAGE_CACHE_DIR", path.join(dataDir, "images"))),
      imagePull: bool("HANGAR_LOCAL_IMAGE_PULL", true),
      snapshotLayers: bool("HANGAR_LOCAL_SNAPSHOT_LAYERS", true),
      diskBytes: (() => {
        const n = int("HANGAR_LOCAL_DISK_BYTES", 10 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER);
        if (n > 0 && n < 64 * 1024 ** 2)
          throw new ConfigError(
            `HANGAR_LOCAL_DISK_BYTES=${n}: below 64 MiB (67108864) a sandbox could not install a package; 0 turns the cap off`,
          );
        return n;
      })(),
      imagePullTimeoutSeconds: int("HANGAR_LOCAL_IMAGE_PULL_TIMEOUT_SECONDS", 600, 5, 86400),
      idRangeStart,
      slotUidBase,
      seccompBpf,
      egressDeniedCidrs: str("HANGAR_LOCAL_EGRESS_DENY_CIDRS", "")
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean)
        .map((c) => {
          if (!/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(c))
            throw new ConfigError(`HANGAR_LOCAL_EGRESS_DENY_CIDRS: ${c} is not an IPv4 CIDR (a.b.c.d/n)`);
          return c;
        }),
      maskPaths: str("HANGAR_LOCAL_MASK_PATHS", "/home,/srv,/mnt,/media,/opt,/var/lib,/var/log,/var/mail,/work")
        .split(",")
        .map((s) => s.trim())
        .filter((p) => p && isRealDir(p)),
      unsafe,
      sandboxUid: int("HANGAR_LOCAL_SANDBOX_UID", 0, 0, 65535),
      pidsMax: int("HANGAR_LOCAL_PIDS_MAX", 4096, 16, 1_000_000),
      logBytesPerSecond: int("HANGAR_LOCAL_LOG_BYTES_PER_SECOND", 16 * 1024 * 1024, 0, 1024 ** 3),
      logBytes: localLogBytes,
      defaultMemoryBytes: int("HANGAR_LOCAL_DEFAULT_MEMORY_BYTES", 4 * 1024 ** 3, 32 * 1024 ** 2, Number.MAX_SAFE_INTEGER),
      defaultCpuMillicores: int("HANGAR_LOCAL_DEFAULT_CPU_MILLICORES", 1000, 10, 1_000_000),
      cgroupRoot: str("HANGAR_LOCAL_CGROUP_ROOT", "/sys/fs/cgroup"),
      volumes: localVolumes,
      gpus: gpuDevices.length
        ? {
            devices: gpuDevices,
            shared: gpuShared,
            ...(gpuType ? { type: gpuType } : {}),
            ...(gpuMemoryGb ? { memoryGb: gpuMemoryGb } : {}),
          }
        : undefined,
      tools: {
        bwrap,
        nsenter: tool("HANGAR_LOCAL_NSENTER", "/usr/bin/nsenter"),
        setpriv: tool("HANGAR_LOCAL_SETPRIV", "/usr/bin/setpriv"),
        unshare: tool("HANGAR_LOCAL_UNSHARE", "/usr/bin/unshare"),
        sleep: tool("HANGAR_LOCAL_SLEEP", "/usr/bin/sleep"),
        ptyHelper,
        guard,
        skopeo: tool("HANGAR_LOCAL_SKOPEO", "/usr/bin/skopeo"),
        umoci: tool("HANGAR_LOCAL_UMOCI", "/usr/bin/umoci"),
        tar: tool("HANGAR_LOCAL_TAR", "/usr/bin/tar"),
        mkfsExt4: tool("HANGAR_LOCAL_MKFS_EXT4", "/usr/sbin/mkfs.ext4"),
        pasta: tool("HANGAR_LOCAL_PASTA", "/usr/bin/pasta"),
        iptables: tool("HANGAR_LOCAL_IPTABLES", "/usr/sbin/iptables"),
        iptablesRestore: tool("HANGAR_LOCAL_IPTABLES_RESTORE", "/usr/sbin/iptables-restore"),
      },
    },
  };
  for (const k of Object.keys(src)) {
    if (k.startsWith("HANGAR_") && !used.has(k) && !k.startsWith("HANGAR_TEST_"))
      throw new ConfigError(`${k}: unknown setting (see docs/configuration.md)`);
  }
  return Object.freeze(cfg);
}
export type Config = ReturnType<typeof loadConfig>;
