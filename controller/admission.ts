/**
 * Admission (pure, table-tested in test/unit/admission.test.ts): everything about a new sandbox
 * that is decided once and stored on its record — the runner (controller/placement.ts), the
 * runtime class in force, gVisor or not, the egress grants in force, the lifetime. Runtimes read
 * these from the record and never decide them again.
 */
import { errors, type HangarError } from "../core/errors.js";
import { effectiveGrants } from "../core/egress.js";
import { NODE_DEFAULT_RUNTIME_CLASS, type EgressGrant, type RunnerInfo, type SandboxSpec } from "../core/types.js";
import { chooseRunner, type Placement } from "./placement.js";

export interface AdmissionOptions {
  /** HANGAR_DEFAULT_DENY_EGRESS: what a sandbox that makes no network choice gets (default true). */
  defaultDenyEgress?: boolean;
  /** The lifetime of a sandbox that asks for none (maxLifetimeSeconds 0). */
  defaultLifetimeSeconds: number;
  /** No sandbox lives longer; a longer ask is cut to this. */
  maxLifetimeSeconds: number;
}

export interface Admitted {
  runner: RunnerInfo;
  /** The runtime class the sandbox runs under: its own, else the runner's default, else the node's (NODE_DEFAULT_RUNTIME_CLASS). */
  effectiveRuntimeClass: string;
  /** The class it asked for is one of the runner's gVisor classes: no network at all. */
  gvisor: boolean;
  /** The egress grants in force; [] = none (always none under gVisor). */
  effectiveEgress: EgressGrant[];
  effectiveLifetimeSeconds: number;
}

export type Refusal = Extract<Placement, { refused: string }>;

export type AdmissionSpec = Parameters<typeof chooseRunner>[0] & Pick<SandboxSpec, "maxLifetimeSeconds">;

export function admit(spec: AdmissionSpec, runners: RunnerInfo[], o: AdmissionOptions): Admitted | Refusal {
  const placed = chooseRunner(spec, runners);
  if ("refused" in placed) return placed;
  const runner = placed.runner;
  const lifetime = spec.maxLifetimeSeconds > 0 ? spec.maxLifetimeSeconds : o.defaultLifetimeSeconds;
  const gvisor = !!spec.runtimeClass && !!runner.gvisorRuntimeClasses?.includes(spec.runtimeClass);
  return {
    runner,
    effectiveRuntimeClass: spec.runtimeClass || runner.defaultRuntimeClass || NODE_DEFAULT_RUNTIME_CLASS,
    gvisor,
    effectiveEgress: gvisor ? [] : effectiveGrants(spec, o.defaultDenyEgress ?? true),
    effectiveLifetimeSeconds: Math.min(lifetime, o.maxLifetimeSeconds),
  };
}

/** The error a refused admission answers with: the SDK's reason where there is one, else the subject it is about, else no runner. */
export function refusalError(r: Refusal): HangarError {
  if (r.reason) return errors.endpointNotSupported(r.reason, r.refused, r.field);
  return r.field ? errors.invalidField(r.field, r.refused) : errors.noSuitableRunner(r.refused);
}
