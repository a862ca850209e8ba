/**
 * The per-sandbox Secrets that carry a sandbox's secret values (secret-store.ts envSecret) and its
 * registry credentials (pullSecret) in the sandbox namespace. Created before the pod (so the
 * kubelet finds them at once), then owned by the pod, so Kubernetes deletes it with the pod whatever happens to Hangar. A copy whose pod never
 * came (Hangar died in between, or the create was refused) is deleted here: at once when Hangar
 * knows, and by the sweep at start for copies older than a minute that no pod owns.
 */
import * as k8s from "@kubernetes/client-node";
import { errors } from "../../../core/errors.js";
import { detailOf, isConflict, isNotFound, isTransient, retryStartWrite, retryTransient } from "../kube-errors.js";
import type { StartSecrets } from "../../../core/secrets.js";
import { ENV_SECRET_LABEL, envSecret, pullSecret } from "./secret-store.js";
import { SANDBOX_ID } from "../pod/labels.js";

export interface EnvSecretsOptions {
  core: k8s.CoreV1Api;
  namespace: string;
  log: { warn(o: object, m: string): void };
  /** Whether a sandbox's pod exists now (the informer's view). */
  hasPod(id: string): boolean;
}

const mergePatch = k8s.setHeaderOptions("Content-Type", k8s.PatchStrategy.MergePatch);

/** Copies older than this with no owner and no pod are leftovers. */
export const ORPHAN_AFTER_MS = 60_000;

/** Which per-sandbox copies are leftovers (pure, table-tested). */
export function orphanedCopies(secrets: k8s.V1Secret[], hasPod: (id: string) => boolean, nowMs: number): string[] {
  return secrets
    .filter((s) => !s.metadata?.ownerReferences?.length)
    .filter((s) => nowMs - new Date(s.metadata?.creationTimestamp ?? 0).getTime() > ORPHAN_AFTER_MS)
    .filter((s) => !hasPod(s.metadata?.labels?.[SANDBOX_ID] ?? ""))
    .map((s) => s.metadata?.name ?? "")
    .filter(Boolean);
}

export function createEnvSecrets(o: EnvSecretsOptions) {
  const { core, namespace } = o;
  return {
    /** Before the pod: a refusal here refuses the create (nothing else exists yet). Returns the Secrets' names. */
    async create(id: string, s: StartSecrets): Promise<string[]> {
      const bodies = [
        ...(s.env && Object.keys(s.env).length ? [envSecret(id, namespace, s.env)] : []),
        ...(s.pullConfig ? [pullSecret(id, namespace, s.pullConfig)] : []),
      ];
      for (const body of bodies) {
        try {
          await retryStartWrite(() => core.createNamespacedSecret({ namespace, body }), 5);
        } catch (e) {
          if (isConflict(e)) continue; // another replica's start of the same request_id made it
          if (isTransient(e)) throw errors.unavailable("could not store the sandbox's secrets (the Kubernetes API is not answering)", e);
          throw errors.clusterRefused(`the cluster refused the sandbox's Secret: ${detailOf(e)}`);
        }
      }
      return bodies.map((b) => b.metadata?.name ?? "");
    },
    /** After the pod: the pod owns the copies (deleted with it by the garbage collector). */
    async own(id: string, names: string[], pod: k8s.V1Pod): Promise<void> {
      const uid = pod.metadata?.uid;
      if (!uid) return;
      const body = { metadata: { ownerReferences: [{ apiVersion: "v1", kind: "Pod", name: pod.metadata?.name ?? "", uid }] } };
      for (const name of names) {
        await retryTransient(() => core.patchNamespacedSecret({ name, namespace, body }, mergePatch)).catch((e: unknown) => {
          o.log.warn(
            { sandbox_id: id, secret: name, err: detailOf(e) },
            "could not make the sandbox's pod own its Secret; the sweep at start removes it once the pod is gone",
          );
        });
      }
    },
    /** The pod was never made: the copies go now. */
    async drop(id: string, names: string[]): Promise<void> {
      for (const name of names) {
        await retryTransient(() => core.deleteNamespacedSecret({ name, namespace })).catch((e: unknown) => {
          if (!isNotFound(e))
            o.log.warn({ sandbox_id: id, secret: name, err: detailOf(e) }, "could not delete the Secret of a sandbox that did not start");
        });
      }
    },
    /** Deletes copies that no pod owns and whose sandbox has no pod (Hangar died between the two creates). */
    async sweep(nowMs = Date.now()): Promise<number> {
      const list = await core.listNamespacedSecret({ namespace, labelSelector: `${ENV_SECRET_LABEL}=true` });
      const gone = orphanedCopies(list.items, o.hasPod, nowMs);
      for (const name of gone) await core.deleteNamespacedSecret({ name, namespace }).catch(() => undefined);
      return gone.length;
    },
  };
}
