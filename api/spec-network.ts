/** NetworkOptions and services together: egress grants, deny_egress and deny_ingress, the service ports. */
import type { FieldViolation } from "../core/errors.js";
import type { EgressGrant, ServicePort } from "../core/types.js";
import { egressGrants } from "./egress-rules.js";
import type { SandboxSpec__Output } from "./generated/coreweave/sandbox/v1/SandboxSpec.js";
import { servicePorts } from "./spec-services.js";

export interface Network {
  egress: EgressGrant[];
  services: ServicePort[];
  denyEgress?: boolean;
  denyIngress?: boolean;
}

export function networkOf(spec: SandboxSpec__Output, base: string, v: FieldViolation[]): Network {
  const net = spec.network;
  const egress = egressGrants(net?.egress ?? [], `${base}.network.egress`, v);
  if (egress.length && net?.deny_egress === true)
    v.push({
      field: `${base}.network.deny_egress`,
      description: "cannot be combined with egress rules (rules already deny everything they do not grant)",
    });
  const services = servicePorts(spec.services ?? [], base, v);
  if (net?.deny_ingress === true && services.length)
    v.push({
      field: `${base}.network.deny_ingress`,
      description:
        "true refuses every inbound connection, but this sandbox declares services (they accept inbound on their ports): leave deny_ingress unset or false, or drop the services",
    });
  return { egress, services, denyEgress: net?.deny_egress ?? undefined, denyIngress: net?.deny_ingress ?? undefined };
}
