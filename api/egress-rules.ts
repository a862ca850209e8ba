/**
 * NetworkOptions.egress -> Hangar's egress grants. Ranges (with exceptions inside them) and "any",
 * each optionally on ports, and HTTPS hostnames (exact or a "*." wildcard, through Hangar's egress
 * proxy) are honoured where the runner enforces them (controller/placement.ts refuses them
 * elsewhere); destinations Hangar cannot enforce are refused by name.
 */
import type { FieldViolation } from "../core/errors.js";
import { contains, parseCidr } from "../core/cidr.js";
import { normaliseHostname } from "../core/hostname.js";
import type { EgressGrant } from "../core/types.js";
import type { EgressRule__Output } from "./generated/coreweave/sandbox/v1/EgressRule.js";
import type { PortRange__Output } from "./generated/coreweave/sandbox/v1/PortRange.js";
import { LIMITS } from "./limits.js";

const REFUSED: Record<string, string> = {
  tenant: "egress grants to other sandboxes (tenant) are not supported: sandboxes accept no inbound connections",
  selector: "egress grants by label selector are not supported: grant the workload's addresses by cidr",
};

function ports(list: PortRange__Output[], at: string, v: FieldViolation[]): EgressGrant["ports"] {
  if (list.length > LIMITS.egressPorts) v.push({ field: `${at}.ports`, description: `at most ${LIMITS.egressPorts} port ranges` });
  return list.map((p, j) => {
    const protocol = (p.protocol || "TCP").toUpperCase();
    if (protocol !== "TCP" && protocol !== "UDP" && protocol !== "SCTP")
      v.push({ field: `${at}.ports[${j}].protocol`, description: "must be TCP, UDP or SCTP (empty: TCP)" });
    const port = p.port ?? 0;
    const end = p.end_port || undefined;
    if (port < 1 || port > 65535) v.push({ field: `${at}.ports[${j}].port`, description: "must be between 1 and 65535" });
    if (end !== undefined && (end < port || end > 65535))
      v.push({ field: `${at}.ports[${j}].end_port`, description: `must be between port (${port}) and 65535` });
    return { protocol: protocol as "TCP", port, ...(end !== undefined && end !== port ? { endPort: end } : {}) };
  });
}

export function egressGrants(rules: EgressRule__Output[], base: string, v: FieldViolation[]): EgressGrant[] {
  if (rules.length > LIMITS.egressRules) v.push({ field: base, description: `at most ${LIMITS.egressRules} egress rules` });
  const out: EgressGrant[] = [];
  rules.forEach((r, i) => {
    const at = `${base}[${i}]`;
    const dest = r.destination;
    if ((r.https_hostname_except ?? []).length)
      v.push({
        field: `${at}.https_hostname_except`,
        description: "hostname exceptions are not supported (hostname grants are not either)",
      });
    if (!dest) return void v.push({ field: at, description: "names no destination (cidr or any)" });
    const refused = REFUSED[dest];
    if (refused) return void v.push({ field: `${at}.${dest}`, description: refused });
    const p = ports(r.ports ?? [], at, v);
    if (dest === "https_hostname") {
      const name = normaliseHostname(r.https_hostname ?? "");
      if (!name)
        return void v.push({
          field: `${at}.https_hostname`,
          description: `"${r.https_hostname ?? ""}" is not a hostname or a "*." wildcard of one (dns_name in the SDK)`,
        });
      if (p.some((x) => x.protocol !== "TCP" || x.port !== 443 || (x.endPort ?? 443) !== 443))
        v.push({ field: `${at}.ports`, description: "hostname grants are for HTTPS: TCP 443 only" });
      return void out.push({ to: { hostname: name }, ports: [] });
    }
    if (dest === "any") {
      if (!r.any) return void v.push({ field: `${at}.any`, description: "must be true when it is the destination" });
      return void out.push({ to: "any", ports: p });
    }
    const text = r.cidr?.cidr ?? "";
    const cidr = parseCidr(text);
    if (!cidr) return void v.push({ field: `${at}.cidr.cidr`, description: `"${text}" is not an IPv4 or IPv6 CIDR (such as 10.0.0.0/8)` });
    const except = r.cidr?.except ?? [];
    if (except.length > LIMITS.egressExcepts)
      v.push({ field: `${at}.cidr.except`, description: `at most ${LIMITS.egressExcepts} exceptions` });
    except.forEach((e, j) => {
      const x = parseCidr(e);
      if (!x || !contains(cidr, x)) v.push({ field: `${at}.cidr.except[${j}]`, description: `"${e}" must be a CIDR inside ${text}` });
    });
    out.push({ to: { cidr: text.trim(), except: except.map((e) => e.trim()) }, ports: p });
  });
  return out;
}
