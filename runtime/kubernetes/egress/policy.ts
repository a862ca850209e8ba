/**
 * A sandbox's egress on Kubernetes -> the policy hangar-netinit loads into its pod's network
 * namespace (netinit/policy.go reads it), pure and table-tested. Default deny: a sandbox reaches
 * only what its grants name, never a range in `never` (nodes, metadata, loopback, the operator's
 * additions, and what netinit discovers: the pod's gateway and the kubernetes Service), and a
 * cluster-internal (private) range only where the operator made it grantable. ADR 0012.
 */
import type { EgressGrant, SandboxSpec } from "../../../core/types.js";

export { allowsEgress } from "../../../core/egress.js";

export interface EgressConfig {
  /** netinit: Hangar's init container enforces (any CNI); networkpolicy: only the chart's NetworkPolicies (a CNI that enforces them). */
  enforcement: "netinit" | "networkpolicy";
  /** The image holding hangar-netinit (Hangar's own image in the chart) and the binary's path in it. */
  netinitImage?: string;
  netinitPath: string;
  privateCidrs: string[];
  grantableCidrs: string[];
  /** Extra ranges no sandbox reaches, whatever it is granted (node ranges, Hangar's Service range). */
  denyCidrs: string[];
  /** Runtime classes running gVisor with no network (runsc network=none): no netinit there (it could not load rules inside gVisor), no egress, no pod user namespace. */
  gvisorRuntimeClasses: string[];
  /** Hangar's egress proxy for hostname grants (proxy.ts): where it listens, and the ip:port sandboxes dial. */
  proxy?: { listen: { host: string; port: number }; address: string; pinned: Record<string, string> };
}

/** Cluster-internal space by default: RFC 1918, CGNAT, "this network", multicast, reserved, IPv6 ULA and multicast. */
export const DEFAULT_PRIVATE_CIDRS = [
  "10.0.0.0/8",
  "172.16.0.0/12",
  "192.168.0.0/16",
  "100.64.0.0/10",
  "0.0.0.0/8",
  "224.0.0.0/4",
  "240.0.0.0/4",
  "fc00::/7",
  "ff00::/8",
];
/**
 * Never reachable, not even by a grant the operator allowed: "this network" (0.0.0.0 dials the host itself), loopback,
 * link-local (cloud metadata), and
 * every IPv6 form that carries an IPv4 address (mapped, translated, compatible, NAT64, 6to4, Teredo): a
 * rule on the IPv6 side cannot judge the IPv4 address inside, so none of them is reached at all.
 */
export const ALWAYS_NEVER = [
  "0.0.0.0/8",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "::1/128",
  "fe80::/10",
  "::ffff:0:0/96",
  "::ffff:0:0:0/96",
  "::/96",
  "64:ff9b::/96",
  "64:ff9b:1::/48",
  "2002::/16",
  "2001::/32",
];
/** Above this many node addresses Hangar stops listing them one by one (each is a rule every new connection passes): name the node ranges in denyCidrs instead. */
export const MAX_NODE_ADDRESSES = 64;

export const DEFAULT_EGRESS_CONFIG: EgressConfig = {
  enforcement: "networkpolicy",
  netinitPath: "/app/.build/hangar-netinit",
  privateCidrs: DEFAULT_PRIVATE_CIDRS,
  grantableCidrs: [],
  denyCidrs: [],
  gvisorRuntimeClasses: [],
};

/** The shape netinit decodes (DisallowUnknownFields: keep in step with netinit/policy.go). */
export interface NetinitPolicy {
  never: string[];
  private: string[];
  grantable: string[];
  grants: { cidr: string; except?: string[]; ports?: { protocol: string; port: number; endPort?: number }[] }[];
  dns: boolean;
  discover: boolean;
  proxy?: string;
  /** Ports the sandbox accepts inbound connections on: its PRIVATE services, and the exec agent's direct link (ADR 0022). */
  inbound?: { protocol: string; port: number; endPort?: number }[];
}

/** The hostname grants of a spec (empty: none). */
export const hostnamesOf = (spec: Pick<SandboxSpec, "egress">): string[] =>
  (spec.egress ?? []).flatMap((g) => (g.to !== "any" && "hostname" in g.to ? [g.to.hostname] : []));

const hostCidr = (a: string) => (a.includes("/") ? a : a.includes(":") ? `${a}/128` : `${a}/32`);

/**
 * What no sandbox reaches, whatever it is granted: one list for netinit (which adds what it finds in the
 * pod: its gateway, the kubernetes Service, its node) and Hangar's egress proxy (which adds what Hangar
 * knows of the same: every node's addresses and pod gateways, the apiserver it talks to). Node addresses
 * past MAX_NODE_ADDRESSES are left to the operator's denyCidrs (each is a rule in every pod).
 */
export function neverRanges(cfg: Pick<EgressConfig, "denyCidrs">, nodeAddresses: string[], discovered: string[] = []): string[] {
  const nodes = nodeAddresses.length <= MAX_NODE_ADDRESSES ? nodeAddresses.map(hostCidr) : [];
  return [...new Set([...ALWAYS_NEVER, ...cfg.denyCidrs, ...nodes, ...discovered.map(hostCidr)])];
}

/** netinit's rules for one pod: `grants` are the egress grants admission decided (record.effectiveEgress). */
export function netinitPolicy(
  spec: Pick<SandboxSpec, "services" | "denyIngress">,
  grants: EgressGrant[],
  cfg: EgressConfig,
  nodeAddresses: string[],
  proxyAddress?: string,
  agentPorts?: { first: number; count: number },
  /** A `+https` pool pod: the proxy is open to it before any sandbox's grants are known (each claim names its own). */
  viaProxy = false,
): NetinitPolicy {
  const rules: NetinitPolicy["grants"] = [];
  for (const g of grants) {
    if (g.to !== "any" && "hostname" in g.to) continue; // through the proxy
    const ports = g.ports.length
      ? g.ports.map((p) => ({ protocol: p.protocol.toLowerCase(), port: p.port, ...(p.endPort ? { endPort: p.endPort } : {}) }))
      : undefined;
    const targets =
      g.to === "any"
        ? [{ cidr: "0.0.0.0/0" }, { cidr: "::/0" }]
        : [{ cidr: g.to.cidr, ...(g.to.except.length ? { except: g.to.except } : {}) }];
    for (const t of targets) rules.push({ ...t, ...(ports ? { ports } : {}) });
  }
  // deny_ingress: no inbound connection but Hangar's own exec link (the API refuses it beside services).
  const inbound: NonNullable<NetinitPolicy["inbound"]> = spec.denyIngress
    ? []
    : (spec.services ?? []).map((s) => ({ protocol: s.protocol.toLowerCase(), port: s.port }));
  // The agent's direct link: TLS, and only a connection that presents its token runs anything (agent/direct.go).
  if (agentPorts)
    inbound.push({
      protocol: "tcp",
      port: agentPorts.first,
      ...(agentPorts.count > 1 ? { endPort: agentPorts.first + agentPorts.count - 1 } : {}),
    });
  return {
    never: neverRanges(cfg, nodeAddresses),
    private: cfg.privateCidrs,
    grantable: cfg.grantableCidrs,
    grants: rules,
    dns: rules.length > 0,
    discover: true,
    ...((viaProxy || hostnamesOf({ egress: grants }).length) && proxyAddress ? { proxy: proxyAddress } : {}),
    ...(inbound.length ? { inbound } : {}),
  };
}
