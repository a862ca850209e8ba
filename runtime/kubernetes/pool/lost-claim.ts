/**
 * A claim patch whose answer was lost (ADR 0046). The apiserver can apply a patch and die before
 * it answers (a restart: "Premature close"); counting that as a miss gave the sandbox a second,
 * cold pod while the first carried its claim (two pods for one sandbox id, the record stuck
 * CREATING: chaos suite). So a claim without an answer reads its pod back until the apiserver
 * answers, and the pod's sandbox-id label decides: this claim's (a hit) or not (the next candidate).
 */
import * as k8s from "@kubernetes/client-node";
import { errors } from "../../../core/errors.js";
import { detailOf, isNotFound, statusOf } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";

/** How long a claim waits for the apiserver to answer its read-back (an apiserver restart takes seconds). */
export const READ_BACK_MS = 30_000;
const READ_BACK_PAUSE_MS = 500;

const unanswered = new WeakSet<object>();
/** Whether an error is claimLanded's: no answer came, so the claim may hold its pod. */
export const isUnanswered = (e: unknown): boolean => typeof e === "object" && e !== null && unanswered.has(e);

/** Whether a failed claim patch may have been applied all the same: no answer at all, or a 5xx. Pure. */
export function mayHaveApplied(e: unknown): boolean {
  const s = statusOf(e);
  return s === undefined || s >= 500;
}

/** The sandbox id a claim patch gives its pod. Pure. */
export const idOfPatch = (body: object): string | undefined =>
  (body as { metadata?: { labels?: Record<string, string | null> } }).metadata?.labels?.[SANDBOX_ID] ?? undefined;

/** Whether a pod read back carries the claim of sandbox `id`. Pure. */
export const heldFor = (pod: k8s.V1Pod | undefined, id: string): boolean => pod?.metadata?.labels?.[SANDBOX_ID] === id;

/**
 * Reads pod `name` back until the apiserver answers, for about `waitMs`: true when it carries the
 * claim of sandbox `id`, false when it does not (still idle, another's) or is gone. Throws an
 * unavailable error when no answer came: the claim may hold the pod, so neither the pod nor a cold
 * one may be taken for the sandbox.
 */
export async function claimLanded(
  read: (name: string) => Promise<k8s.V1Pod>,
  name: string,
  id: string,
  waitMs = READ_BACK_MS,
): Promise<boolean> {
  let last: unknown;
  for (let tries = Math.max(1, Math.ceil(waitMs / READ_BACK_PAUSE_MS)); tries > 0; tries--) {
    try {
      return heldFor(await read(name), id);
    } catch (e) {
      if (isNotFound(e)) return false;
      last = e;
    }
    if (tries > 1) await new Promise((r) => setTimeout(r, READ_BACK_PAUSE_MS));
  }
  const err = errors.unavailable(
    `claiming warm pod ${name}: the Kubernetes API answered neither the claim nor ${Math.ceil(waitMs / 1000)} s of reads of the pod (${detailOf(last)}); try again`,
    last,
  );
  unanswered.add(err);
  throw err;
}

const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

/**
 * Applies a claim patch to pod `name`. Without an answer the pod read back decides: resolves when
 * it carries the claim, rethrows the patch's error when it does not (the caller tries the next).
 */
export async function patchClaim(
  core: k8s.CoreV1Api,
  namespace: string,
  name: string,
  body: object,
  log?: { warn: (o: object, m: string) => void },
): Promise<void> {
  await core.patchNamespacedPod({ name, namespace, body }, mergePatch).catch(async (e: unknown) => {
    const id = mayHaveApplied(e) ? idOfPatch(body) : undefined;
    if (!id) throw e;
    const held = await claimLanded((n) => core.readNamespacedPod({ name: n, namespace }), name, id);
    log?.warn(
      { err: e, pod: name, sandbox_id: id, held },
      "a warm pod's claim got no answer; the pod read back says whether it holds the claim",
    );
    if (!held) throw e;
  });
}
