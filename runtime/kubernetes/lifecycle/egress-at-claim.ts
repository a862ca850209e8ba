/**
 * Egress rules set at claim (ADR 0044): a `+egress` pool pod's hangar-net sidecar loads the claimed
 * sandbox's policy (exactly what a cold pod of it starts with) before the sandbox is RUNNING, and the
 * idle pod's (no egress) at its return, before the pod is claimable again; each load replaces the
 * table in one transaction and flushes the pod's connection tracking. A load that fails fails the
 * start, or keeps the pod out of its pool (deleted).
 */
import type { SandboxRecord } from "../../../core/types.js";
import { claimEgressPolicy, idleEgressPolicy, netSidecarOf, type PodPlanOptions } from "./pod-plan.js";
import { applyArgv, NET_SIDECAR } from "../pod/net-sidecar.js";

export interface EgressAtClaim {
  /** Loads the sandbox's rules into the pod it claimed. */
  claim(pod: string, record: SandboxRecord): Promise<void>;
  /** Loads the idle pod's rules back (its sandbox ended, every process of it gone). */
  reset(pod: string): Promise<void>;
}

export function createEgressAtClaim(o: {
  plan: PodPlanOptions;
  run: (pod: string, argv: string[], input?: Buffer, container?: string) => Promise<number>;
  /** Closes the pod's direct agent link first: the flush would leave its connection judged as new (and refused outbound). */
  closeDirect?: (pod: string) => void;
}): EgressAtClaim {
  async function load(pod: string, policy: unknown, what: string): Promise<void> {
    const s = netSidecarOf(o.plan);
    if (!s || !policy) throw new Error(`pod ${pod}'s egress rules cannot be set here: netinit enforcement is off`);
    o.closeDirect?.(pod);
    const code = await o.run(pod, applyArgv(s, policy), undefined, NET_SIDECAR);
    if (code !== 0) throw new Error(`loading ${what} into pod ${pod} (${NET_SIDECAR}) exited ${code}`);
  }
  return {
    claim: (pod, record) => load(pod, claimEgressPolicy(o.plan, record), "the sandbox's egress rules"),
    reset: (pod) => load(pod, idleEgressPolicy(o.plan), "the idle pod's egress rules"),
  };
}
