/**
 * Sized pools (ADR 0043): `image=8+cpu:2+memory:4Gi` makes reused pool pods that take a sandbox's
 * own CPU and memory limits at claim, resized in place (the pod's `resize` subresource), up to the
 * pool's caps. Kubernetes 1.33 lets a running container's CPU go up and down and its memory limit
 * only up, so a pool pod starts at the memory floor and keeps the limit its last sandbox raised it
 * to; a claim takes a pod whose memory limit is at most the sandbox's. Everything here is pure.
 */
import type { SandboxSpec } from "../../../core/types.js";
import { cpuMillicores, parseQuantity } from "../../../core/quantity.js";
import { cpuMemory } from "../pod/state.js";

/** The most a sandbox of a sized pool may ask (limits); a resource named here must be limited by the sandbox. */
export interface PoolCaps {
  cpu?: string;
  memory?: string;
}

/** The main container's resources as the pod spec has them. */
export interface MainResources {
  requests: { cpu?: string; memory?: string };
  limits: { cpu?: string; memory?: string };
}

/** A sized pool's idle pod starts with this memory limit (it can only be raised in place) and a CPU request this small. */
export const MEMORY_FLOOR = "64Mi";
export const IDLE_CPU_REQUEST = "10m";

/** The most a sized pool may name: Kubernetes' own quantity grammar, and sizes a node could have. */
const MAX_CPU_MILLI = 1024 * 1000;
const MAX_MEMORY_BYTES = 2 ** 50;

/**
 * One `+cpu:<q>` or `+memory:<q>` modifier of a HANGAR_KUBE_WARM_POOLS entry, checked (throws a
 * sentence naming the entry and the limit).
 */
export function parseCap(entry: string, key: string, value: string, caps: PoolCaps): PoolCaps {
  const v = value.trim();
  if (key === "cpu") {
    const m = cpuMillicores(v);
    if (caps.cpu !== undefined) throw new Error(`"${entry}": +cpu appears twice`);
    if (m === undefined || m < 1 || m > MAX_CPU_MILLI)
      throw new Error(`"${entry}": +cpu:<quantity> is a CPU limit from 1m to 1024, e.g. +cpu:2 or +cpu:500m`);
    return { ...caps, cpu: v };
  }
  if (key === "memory") {
    const b = parseQuantity(v);
    if (caps.memory !== undefined) throw new Error(`"${entry}": +memory appears twice`);
    if (b === undefined || b < bytes(MEMORY_FLOOR) || b > MAX_MEMORY_BYTES)
      throw new Error(`"${entry}": +memory:<quantity> is a memory limit of at least ${MEMORY_FLOOR}, e.g. +memory:4Gi`);
    return { ...caps, memory: v };
  }
  throw new Error(`"${entry}": after the size, + takes https, cpu:<quantity> or memory:<quantity> (got +${key})`);
}

const bytes = (q: string) => parseQuantity(q) ?? NaN;
const milli = (q: string) => cpuMillicores(q) ?? NaN;
/** What a sized pool's idle pod is made with: the CPU cap and the memory floor as limits, small requests. */
export function idleResources(caps: PoolCaps): MainResources {
  return {
    requests: { ...(caps.cpu ? { cpu: IDLE_CPU_REQUEST } : {}), ...(caps.memory ? { memory: MEMORY_FLOOR } : {}) },
    limits: { ...(caps.cpu ? { cpu: caps.cpu } : {}), ...(caps.memory ? { memory: MEMORY_FLOOR } : {}) },
  };
}

/**
 * The resources a sandbox's pod would have, when a sized pool can give them at claim, or why not:
 * the sandbox limits exactly the resources the pool caps (a pool pod's limits cannot be removed),
 * each at most its cap, memory at least the floor; requests it leaves out are its limits (as the
 * apiserver defaults a cold pod's).
 */
export function capsFit(spec: Pick<SandboxSpec, "requests" | "limits">, caps: PoolCaps): { resources: MainResources } | { why: string } {
  const limits = cpuMemory(spec.limits);
  const requests = cpuMemory(spec.requests);
  const named = (o: object) => Object.keys(o).sort().join(" and ") || "none";
  if (named(limits) !== named(caps))
    return { why: `the pool's pods are sized for sandboxes that limit ${named(caps)}, and it limits ${named(limits)}` };
  for (const k of Object.keys(requests))
    if (!(k in limits)) return { why: `it requests ${k} without limiting it, and the pool's pods limit it` };
  if (limits.cpu && caps.cpu && !(milli(limits.cpu) <= milli(caps.cpu)))
    return { why: `its cpu limit ${limits.cpu} is above the pool's cap of ${caps.cpu}` };
  if (limits.memory && caps.memory) {
    if (!(bytes(limits.memory) <= bytes(caps.memory)))
      return { why: `its memory limit ${limits.memory} is above the pool's cap of ${caps.memory}` };
    if (!(bytes(limits.memory) >= bytes(MEMORY_FLOOR)))
      return {
        why: `its memory limit ${limits.memory} is below the ${MEMORY_FLOOR} a pool pod starts with (a memory limit is only raised in place)`,
      };
  }
  return { resources: { requests: { ...limits, ...requests }, limits } };
}

/** Whether a pod whose main container has `now` can be resized to `want` in place (its memory limit only goes up). */
export function canResize(now: MainResources, want: MainResources): boolean {
  const have = now.limits.memory;
  if (!want.limits.memory) return !have;
  return have !== undefined && bytes(have) <= bytes(want.limits.memory);
}

/** Whether the pod already has exactly these resources (no resize needed), compared as quantities. */
export function sameResources(a: MainResources, b: MainResources): boolean {
  const eq = (x?: string, y?: string, f = bytes) => (x === undefined ? y === undefined : y !== undefined && f(x) === f(y));
  return (
    eq(a.limits.cpu, b.limits.cpu, milli) &&
    eq(a.requests.cpu, b.requests.cpu, milli) &&
    eq(a.limits.memory, b.limits.memory) &&
    eq(a.requests.memory, b.requests.memory)
  );
}

/** What the container's cgroup shows once the kubelet has applied `limits` (kubelet: quota = milli × period / 1000, at least 1 ms). */
export interface CgroupWant {
  memory_bytes?: number;
  cpu_quota_us?: number;
  cpu_period_us?: number;
}

export const CFS_PERIOD_US = 100_000;

export function cgroupWant(limits: MainResources["limits"]): CgroupWant {
  const m = limits.memory ? bytes(limits.memory) : undefined;
  const c = limits.cpu ? milli(limits.cpu) : undefined;
  return {
    ...(m !== undefined ? { memory_bytes: Math.floor(m) } : {}),
    ...(c !== undefined ? { cpu_quota_us: Math.max(1000, Math.floor((c * CFS_PERIOD_US) / 1000)), cpu_period_us: CFS_PERIOD_US } : {}),
  };
}
