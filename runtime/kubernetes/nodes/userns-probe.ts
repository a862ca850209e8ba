/** Whether this cluster's nodes run pods in user namespaces: the probe pod (pod/userns.ts) run, read and deleted. */
import type { CoreV1Api } from "@kubernetes/client-node";
import { detailOf } from "../kube-errors.js";
import { probePod, refusedBy, usernsVerdict, type UsernsVerdict } from "../pod/userns.js";

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
  try {
    await core.createNamespacedPod({ namespace, body: probePod(name, namespace, image, path) });
  } catch (e) {
    return { t: "unsupported", reason: `the probe pod could not be created: ${detailOf(e)}` };
  }
  try {
    let eventsReadable = true;
    for (;;) {
      const pod = await core.readNamespacedPod({ name, namespace });
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
