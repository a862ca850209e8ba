/** Whether this cluster's nodes run pods in user namespaces: the probe pod (pod/userns.ts) run, read and deleted. */
import type { CoreV1Api } from "@kubernetes/client-node";
import { detailOf, isTransient } from "../kube-errors.js";
import { probePod, refusedBy, usernsVerdict, type UsernsVerdict } from "../pod/userns.js";

/**
 * How long a replica's start waits for the probe's answer. Past it the answer is `unknown`, which
 * keeps user namespaces on (ADR 0047); a node that refuses them says so in seconds (its event).
 */
export const USERNS_PROBE_MS = 45_000;

/** Runs the probe pod to its end (or the timeout) and deletes it; the answer says why when it is no. */
export async function probeUserNamespaces(
  core: CoreV1Api,
  namespace: string,
  image: string,
  path: string,
  timeoutMs: number,
  suffix: string,
): Promise<UsernsVerdict> {
  const name = `hangar-userns-probe-${suffix}`;
  const started = Date.now();
  try {
    await core.createNamespacedPod({ namespace, body: probePod(name, namespace, image, path) });
  } catch (e) {
    const reason = `the probe pod could not be created: ${detailOf(e)}`;
    return isTransient(e) ? { t: "unknown", reason } : { t: "unsupported", reason };
  }
  try {
    let eventsReadable = true;
    for (;;) {
      const pod = await core.readNamespacedPod({ name, namespace }).catch((e: unknown) => {
        if (isTransient(e)) return undefined; // the apiserver restarting: read again, within the timeout
        throw e;
      });
      if (!pod) {
        if (Date.now() - started > timeoutMs) return { t: "unknown", reason: "the Kubernetes API did not answer reads of the probe pod" };
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
      const v = usernsVerdict(pod, Date.now(), timeoutMs);
      if (v.t !== "pending") return v;
      // A runtime without user namespaces leaves the pod Pending; only an event says why.
      if (eventsReadable) {
        try {
          const ev = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` });
          const why = refusedBy(ev.items.map((e) => ({ reason: e.reason, message: e.message })));
          if (why) return { t: "unsupported", reason: why };
        } catch {
          eventsReadable = false; // no events permission: the timeout decides
        }
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  } finally {
    await core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
  }
}
