/**
 * The shared, mutable state of one Kubernetes runtime: the sandboxes this replica tracks, the other
 * replicas' starts it sees waiting, and what ready() decided. One small explicit object handed to
 * each room (reconciler, start, records, readiness, runners) instead of a closure they all reach into.
 */
import type * as k8s from "@kubernetes/client-node";
import type { SandboxSpec } from "../../../core/types.js";
import type { RuntimeEvent } from "../../types.js";
import type { PodView } from "../pod/state.js";
import { podName } from "../pod/spec.js";
import type { createWarmPools } from "../pool/warm-pool.js";
import type { FreshPod } from "../pool/reuse.js";

export interface Tracked {
  id: string;
  /** The last reason reported while starting (RuntimeEvents.onProgress). */
  progress?: string;
  /** Why a sandbox with warm pools configured started cold (its status says so). */
  coldWhy?: string;
  /** The pod's name: sbx-<id> when created cold, the pool pod's name when claimed warm. */
  pod: string;
  /** Env applied to every exec: the spec's env when the pod was claimed from a pool. */
  baseEnv?: Record<string, string>;
  /** A working directory the pod was not made with, applied at claim: every command starts there. */
  workingDir?: string;
  /** The sandbox's secrets were written by the claim into this file (exec/claim-wrap.ts). */
  secretEnvFile?: string;
  runnerId: string;
  spec: SandboxSpec;
  /** Runs under a gVisor runtime class (decided at admission, from the record). */
  gvisor?: boolean;
  /** This replica's start() is in charge (until it returns); else adopted: another replica's, or from before a restart. */
  own: boolean;
  shell: boolean;
  exited: boolean;
  started: boolean;
  settle?: (v: PodView) => void;
  /** Set while a cold start may try exec before the pod's status says main runs (mayExecEarly); called once. */
  early?: () => void;
  /** What an early exec learned: the image has /bin/sh (undefined: no early exec answered). */
  earlyShell?: boolean;
  lastPod?: k8s.V1Pod;
  /** The record annotation last seen on the pod, to notice changes made elsewhere. */
  recordText?: string;
  /** Settles when the pod was created (writes of the record wait for it). */
  created?: Promise<unknown>;
  /** When this replica first saw the pod of an adopted, not yet started sandbox exited. */
  exitSeenMs?: number;
  /** When this replica first saw an adopted sandbox's pod running while its record said CREATING. */
  creatingSeenMs?: number;
  /** The state in that record. */
  recordState?: string;
  takingOver?: boolean;
  /** What the sandbox asks of its runner (parsed once: runners() sums it on every create). */
  asks?: { cpu: number; memory: number; gpus: number };
  /** Its pod is a reusable pool pod (ADR 0040): the sandbox runs in a cell, and the pod outlives it. */
  cell?: boolean;
  /** The sandbox's cell was replaced and its record lives in its own ConfigMap (stores/ended-records.ts): no pod is its any more. */
  ended?: boolean;
  /** The first save of its end started giving its pod back (lifecycle/cells.ts). */
  givenBack?: boolean;
}

export interface KubeState {
  tracked: Map<string, Tracked>;
  /** Other replicas' starts seen waiting (pod running, record CREATING): the takeover's patience grows with them. */
  waitingStarts: Set<string>;
  /** Pods with a record from a newer Hangar, already logged (left to it). */
  newerSeen: Set<string>;
  /** Whether records are being delivered (records.open). */
  open: boolean;
  closing: boolean;
  /** Whether sandbox pods run with hostUsers: false, and what each sandbox's status says about it. */
  userns: { on: boolean; note: string };
  /** The ip:port sandboxes with hostname grants dial (the proxy's, once it listens). */
  proxyAddress?: string;
  warm?: ReturnType<typeof createWarmPools>;
  /** The controller's side of the event stream (subscribe). */
  listeners: Set<(e: RuntimeEvent) => void>;
  /** Starts of this replica that failed because hangar-netinit failed or could not start (metrics). */
  netinitFailures: number;
  /** Reusable pods given back to their pool, as the apiserver answered, until the watch shows them (pool/reuse.ts withFresh). */
  fresh: Map<string, FreshPod>;
  /**
   * Reusable pods on their way back to their pool (by name: since when), and claims waiting for one:
   * a claim that finds the pool empty while a pod is coming back waits for it instead of starting cold.
   */
  returning: { pods: Map<string, number>; waiters: Set<() => void> };
}

export function createKubeState(): KubeState {
  return {
    tracked: new Map(),
    waitingStarts: new Set(),
    newerSeen: new Set(),
    open: false,
    closing: false,
    userns: { on: false, note: "user namespaces off (HANGAR_KUBE_USER_NAMESPACES=off)" },
    listeners: new Set(),
    netinitFailures: 0,
    fresh: new Map(),
    returning: { pods: new Map(), waiters: new Set() },
  };
}

export const emit = (s: KubeState, e: RuntimeEvent) => {
  for (const l of s.listeners) l(e);
};

/** The pod of a sandbox: the tracked one (a claimed pool pod has its own name), else sbx-<id>. */
export const nameOf = (s: KubeState, id: string) => s.tracked.get(id)?.pod ?? podName(id);

/** Forgets a sandbox (removed, or its start failed). */
export function untrack(s: KubeState, id: string) {
  s.tracked.delete(id);
  s.waitingStarts.delete(id);
}

/**
 * How long a claim waits for a reusable pod on its way back (a cold start takes seconds and loads the
 * node), and how long a pod counts as on its way.
 */
export const RETURN_WAIT_MS = 5000;
const RETURNING_FOR_MS = 10_000;

/** A pod's return began or ended (ended: every waiting claim looks again). */
export function noteReturning(s: KubeState, pod: string, on: boolean, nowMs: number) {
  if (on) s.returning.pods.set(pod, nowMs);
  else {
    s.returning.pods.delete(pod);
    for (const w of [...s.returning.waiters]) w();
  }
}

/** Waits for a reusable pod to come back, when one is on its way (resolves false at once when none is). */
export function waitForReturn(s: KubeState, nowMs: number): Promise<boolean> {
  for (const [pod, since] of s.returning.pods) if (nowMs - since > RETURNING_FOR_MS) s.returning.pods.delete(pod);
  if (!s.returning.pods.size) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      s.returning.waiters.delete(done);
      resolve(true);
    };
    const timer = setTimeout(done, RETURN_WAIT_MS);
    timer.unref();
    s.returning.waiters.add(done);
  });
}
