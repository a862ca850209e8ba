/** Which egress a sandbox has, from its spec and the deployment default: pure, shared by the controller and runtimes. */
import type { EgressGrant, SandboxSpec } from "./types.js";

/** Whether the spec lets the sandbox out at all: grants, or deny_egress=false (or the deployment default). */
export function allowsEgress(spec: Pick<SandboxSpec, "denyEgress" | "egress">, defaultDenyEgress: boolean): boolean {
  if (spec.egress?.length) return true;
  return spec.denyEgress === undefined ? !defaultDenyEgress : !spec.denyEgress;
}

/** The grants in force: the spec's rules, else "any" when egress is allowed, else none. */
export function effectiveGrants(spec: Pick<SandboxSpec, "denyEgress" | "egress">, defaultDenyEgress: boolean): EgressGrant[] {
  if (spec.egress?.length) return spec.egress;
  return allowsEgress(spec, defaultDenyEgress) ? [{ to: "any", ports: [] }] : [];
}
