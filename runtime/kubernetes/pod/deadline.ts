/**
 * Kubernetes' own end of a sandbox (activeDeadlineSeconds), the backstop that holds while every
 * Hangar replica is down. The pod's clock starts at status.startTime (before the image pull and
 * netinit), Hangar's lifetime when the sandbox runs; so a cold pod is created with room for the
 * startup timeout, and once the sandbox runs the deadline is lowered to its lifetime from that
 * start plus the margin. Kubernetes only lets the field decrease. Pure, table-tested.
 */
import type { V1Pod } from "@kubernetes/client-node";

export function tightenedDeadline(
  pod: V1Pod | undefined,
  startedAtMs: number | undefined,
  lifetimeSeconds: number,
  marginSeconds: number,
): number | undefined {
  const current = pod?.spec?.activeDeadlineSeconds;
  const podStartMs = pod?.status?.startTime ? new Date(pod.status.startTime).getTime() : NaN;
  if (current === undefined || startedAtMs === undefined || !Number.isFinite(podStartMs) || lifetimeSeconds <= 0) return undefined;
  // Whole seconds, rounded down: at most one second earlier than start + lifetime + margin.
  const want = Math.max(1, Math.floor(Math.max(0, startedAtMs - podStartMs) / 1000) + lifetimeSeconds + marginSeconds);
  return want < current ? want : undefined;
}
