/**
 * Which idle pods a claim tries, in which order (pure, table-tested): shuffled, so replicas start at
 * different pods; for a sized pool's claim (ADR 0043) only pods it can resize to, those already at
 * its resources first.
 */
import type * as k8s from "@kubernetes/client-node";
import { canResize, type MainResources, sameResources } from "./caps.js";
import { cpuMemory } from "../pod/state.js";
import { EXEC_ANNOTATION } from "../pod/keys.js";
import { claimableBy } from "./reuse.js";

/** The main container's resources as the pod's spec has them now (a resize changes the spec). */
export function mainResourcesOf(pod: k8s.V1Pod | undefined): MainResources {
  const r = pod?.spec?.containers?.find((c) => c.name === "main")?.resources;
  return { requests: cpuMemory(r?.requests), limits: cpuMemory(r?.limits) };
}

/** Shuffled: replicas start at different pods. */
export const shuffled = <T>(a: T[]) => [...a].sort(() => Math.random() - 0.5);

/** Candidates in claim order (pure): pods that fit, shuffled; for a sized claim those already at its resources first. */
export function claimOrder(pods: k8s.V1Pod[], want: MainResources | undefined, shuffle: <T>(a: T[]) => T[]): k8s.V1Pod[] {
  if (!want) return shuffle(pods);
  const ok = pods.filter((p) => canResize(mainResourcesOf(p), want));
  const at = ok.filter((p) => sameResources(mainResourcesOf(p), want));
  return [...shuffle(at), ...shuffle(ok.filter((p) => !at.includes(p)))];
}

/** Whether a claim may try the pod: not being claimed here, its tenant's (reuse), with /bin/sh when the claim needs it. */
const fits = (p: k8s.V1Pod, tenant: string, shell: boolean, claiming: Set<string>) =>
  !claiming.has(p.metadata?.name ?? "") && claimableBy(p, tenant) && (!shell || p.metadata?.annotations?.[EXEC_ANNOTATION] === "sh");

/** The pods a claim tries, in order. */
export const candidates = (ready: k8s.V1Pod[], tenant: string, shell: boolean, claiming: Set<string>, want?: MainResources) =>
  claimOrder(
    ready.filter((p) => fits(p, tenant, shell, claiming)),
    want,
    shuffled,
  );
