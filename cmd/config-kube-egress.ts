/**
 * The Kubernetes runtime's egress settings: how rules are enforced (hangar-netinit in an init
 * container, or the chart's NetworkPolicies alone), the ranges that are private, grantable or
 * always denied, gVisor's runtime classes, and the egress proxy for hostname grants.
 */
import { parseCidr } from "../core/cidr.js";
import { DEFAULT_PRIVATE_CIDRS } from "../runtime/kubernetes/egress/policy.js";
import { ConfigError, listOf, type Env } from "./config-env.js";

/** A comma-separated list of IPv4/IPv6 CIDRs (or addresses); a bad entry names the setting. */
export function parseCidrList(key: string, text: string): string[] {
  return listOf(text).map((c) => {
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
  for (const pair of listOf(pinned)) {
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

/** Where the Kubernetes runtime is chosen, netinit enforcement needs its image. */
export function readKubeEgress(env: Env, kubernetes: boolean) {
  const enforcement = env.str("HANGAR_KUBE_EGRESS_ENFORCEMENT", "netinit");
  if (enforcement !== "netinit" && enforcement !== "networkpolicy")
    throw new ConfigError(
      `HANGAR_KUBE_EGRESS_ENFORCEMENT=${enforcement}: expected netinit (Hangar's init container, any CNI) or networkpolicy (the chart's NetworkPolicies only)`,
    );
  const netinitImage = env.str("HANGAR_KUBE_NETINIT_IMAGE", "");
  if (kubernetes && enforcement === "netinit" && !netinitImage) {
    throw new ConfigError(
      "HANGAR_KUBE_NETINIT_IMAGE is not set: sandbox pods load their egress rules with hangar-netinit from that image (Hangar's own image holds it at /app/.build/hangar-netinit); set HANGAR_KUBE_EGRESS_ENFORCEMENT=networkpolicy to rely on NetworkPolicies alone",
    );
  }
  return {
    enforcement: enforcement as "netinit" | "networkpolicy",
    netinitImage: netinitImage || undefined,
    netinitPath: env.str("HANGAR_KUBE_NETINIT_PATH", "/app/.build/hangar-netinit"),
    privateCidrs: parseCidrList(
      "HANGAR_KUBE_EGRESS_PRIVATE_CIDRS",
      env.str("HANGAR_KUBE_EGRESS_PRIVATE_CIDRS", "") || DEFAULT_PRIVATE_CIDRS.join(","),
    ),
    grantableCidrs: parseCidrList("HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS", env.str("HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS", "")),
    denyCidrs: parseCidrList("HANGAR_KUBE_EGRESS_DENY_CIDRS", env.str("HANGAR_KUBE_EGRESS_DENY_CIDRS", "")),
    gvisorRuntimeClasses: listOf(env.str("HANGAR_KUBE_GVISOR_RUNTIME_CLASSES", "")),
    proxy: egressProxy(
      env.str("HANGAR_KUBE_EGRESS_PROXY_LISTEN", ""),
      env.str("HANGAR_KUBE_EGRESS_PROXY_ADDRESS", ""),
      env.str("HANGAR_KUBE_EGRESS_PROXY_PINNED", ""),
    ),
  };
}
