/** Field rules (api/field-policy.ts) of a spec's network: deny_egress, deny_ingress and the egress rules (api/egress-rules.ts). */
import { c, h, r, type Rule } from "./rule.js";

export const NETWORK_RULES: Record<string, Rule> = {
  "NetworkOptions.ingress": r("ingress rules are not supported: sandboxes accept no inbound connections"),
  "NetworkOptions.egress": h(
    "Kubernetes (netinit enforcement): the rules become the pod's own nftables allowlist, loaded by an init container before the sandbox starts (ADR 0012); everything else is denied; at most 32 rules; echoed as effective_egress. Local: INVALID_ARGUMENT (deny_egress only)",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
    "test/e2e/test_sdk_options.py::test_egress_rules_are_refused_by_the_local_runtime_naming_the_field",
  ),
  "NetworkOptions.deny_egress": h(
    "false: egress to the internet only (never the node, Hangar, the Kubernetes API, metadata or private ranges: the host firewall locally, the pod's own nftables rules on Kubernetes); true or unset: no egress; true with egress rules: INVALID_ARGUMENT",
    "test/e2e/test_sdk_hostile.py::test_egress_reaches_the_internet_only_when_allowed",
    "test/e2e/test_sdk_network.py::test_a_sandbox_reaches_nothing_of_the_cluster_with_or_without_egress",
  ),
  "NetworkOptions.deny_ingress": h(
    "true: the sandbox accepts no inbound connection (Kubernetes: netinit's rules admit only Hangar's own token-checked exec link; local: a sandbox has no inbound path at all); true beside services is INVALID_ARGUMENT naming the field. false or unset: inbound only on the ports of the sandbox's services (Kubernetes), none locally; no other ingress exists (`ingress` rules are refused)",
    "test/e2e/test_sdk_services.py::test_deny_ingress_true_accepts_no_inbound_connection",
    "test/unit/services.test.ts::a spec's denyIngress is what netinit reads",
  ),
  "NetworkOptions.dns_egress": r("DNS egress modes are not selectable: DNS to the pod's resolvers is open exactly when some egress is"),
  "EgressRule.cidr": h(
    "a range (IPv4 or IPv6; a bare address is a /32 or /128) the sandbox may reach; a range wholly inside the cluster-internal ranges (HANGAR_KUBE_EGRESS_PRIVATE_CIDRS) that the operator did not open (HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS) is INVALID_ARGUMENT; never the node, metadata or loopback",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
    "test/unit/egress.test.ts::a grant of ${cidr}",
  ),
  "EgressRule.https_hostname": h(
    'Kubernetes with the egress proxy (HANGAR_KUBE_EGRESS_PROXY_LISTEN): an exact name or a "*." wildcard, HTTPS (443) only; the sandbox gets HTTPS_PROXY, may reach only the proxy, which resolves the name itself and never connects into the never or private ranges. Without the proxy, or locally: INVALID_ARGUMENT',
    "test/e2e/test_sdk_network.py::test_hostname_grants_go_through_hangars_proxy_and_nowhere_else",
  ),
  "EgressRule.tenant": c("INVALID_ARGUMENT naming the field: sandboxes accept no inbound connections, so no sandbox can be a destination"),
  "EgressRule.any": h(
    "everything but the cluster-internal ranges, the node, metadata and loopback (the same as deny_egress=false), optionally on some ports",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),
  "EgressRule.selector": c(
    "INVALID_ARGUMENT naming the field: label selectors are not resolved to addresses; grant the workload's addresses by cidr",
  ),
  "EgressRule.ports": h(
    "the grant holds only on these destination ports (at most 32 ranges); empty = every port and protocol",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "EgressRule.https_hostname_except": c(
    "INVALID_ARGUMENT naming the field: hostname exceptions are not supported (the SDK refuses them too)",
  ),
  "CidrBlock.cidr": h(
    "see EgressRule.cidr; not a CIDR: INVALID_ARGUMENT",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "CidrBlock.except": h(
    "ranges inside cidr this grant does not cover (at most 32); one outside cidr: INVALID_ARGUMENT",
    "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port",
  ),
  "SelectorBlock.pod_labels": c("see EgressRule.selector"),
  "SelectorBlock.namespace_labels": c("see EgressRule.selector"),
  "PortRange.protocol": h(
    "TCP, UDP or SCTP (empty: TCP); another: INVALID_ARGUMENT",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),
  "PortRange.port": h("1-65535, else INVALID_ARGUMENT", "test/e2e/test_sdk_network.py::test_egress_grants_by_cidr_exception_and_port"),
  "PortRange.end_port": h(
    "the range's last port (port..65535); unset = port alone",
    "test/unit/egress.test.ts::ranges with exceptions, any, and port ranges become grants",
  ),
};
