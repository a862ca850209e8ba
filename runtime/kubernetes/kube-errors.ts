import { errors, type HangarError } from "../../core/errors.js";

/**
 * What a failed Kubernetes API call means, in one place: transient (the apiserver restarting,
 * unreachable, overloaded: try again) or not (refused: forbidden, not found, invalid). Pure.
 */
const TRANSIENT_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ERR_STREAM_PREMATURE_CLOSE",
  "UND_ERR_SOCKET",
]);
const TRANSIENT_TEXT =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up|Premature close|network timeout|apiserver is unreachable/i;

export function isTransient(e: unknown): boolean {
  const x = e as { code?: unknown; statusCode?: unknown; message?: unknown; cause?: unknown } | undefined;
  if (!x) return false;
  const status = typeof x.code === "number" ? x.code : typeof x.statusCode === "number" ? x.statusCode : undefined;
  if (status !== undefined) return status === 429 || status >= 500;
  if (typeof x.code === "string" && TRANSIENT_CODES.has(x.code)) return true;
  if (typeof x.message === "string" && TRANSIENT_TEXT.test(x.message)) return true;
  return x.cause !== undefined && x.cause !== e && isTransient(x.cause);
}

/** The HTTP status of a failed client-node call, when it got one. */
export const statusOf = (e: unknown): number | undefined => {
  const x = e as { code?: unknown; statusCode?: unknown } | undefined;
  return typeof x?.code === "number" ? x.code : typeof x?.statusCode === "number" ? x.statusCode : undefined;
};
export const isNotFound = (e: unknown) => statusOf(e) === 404;
export const isConflict = (e: unknown) => statusOf(e) === 409;

/** What the apiserver said (its Status message when the body is one), for people. */
export function detailOf(e: unknown): string {
  const body = (e as { body?: unknown }).body;
  if (typeof body === "string") {
    try {
      const m = (JSON.parse(body) as { message?: unknown }).message;
      if (typeof m === "string") return m;
    } catch {
      /* not JSON: the text itself */
    }
    return body;
  }
  return (e as Error)?.message ?? String(e);
}

/** A pod create the apiserver did not accept, as the caller should see it: retry later, or refused for good. */
export function podCreateError(e: unknown): HangarError {
  const why = detailOf(e);
  if (isTransient(e)) return errors.unavailable(`could not create the sandbox's pod (the Kubernetes API is not answering: ${why})`, e);
  if (isQuota(e)) return errors.capacityExhausted(`the sandbox namespace's quota is used up: ${why}`, 5000);
  return errors.clusterRefused(`the cluster refused the sandbox's pod: ${why}`);
}

/**
 * An RBAC denial (403, not a quota). A kube-apiserver that has just started answers some requests
 * before its authorizer's caches are filled and denies them; the chaos suite saw a pod create
 * refused that way 1-2 s after an apiserver restart. Worth a few seconds of retries before it is
 * taken as the configuration's answer.
 */
export const isForbidden = (e: unknown) => statusOf(e) === 403 && !isQuota(e);
/** A 403 from the namespace's ResourceQuota: capacity, not permission. */
function isQuota(e: unknown): boolean {
  return statusOf(e) === 403 && /exceeded quota/i.test(detailOf(e));
}

/**
 * Runs `call` again while its error is `retryable`, backing off 250 ms → 4 s, at most `attempts`
 * times; any other error, or the last retryable one, is thrown.
 */
export async function retryWhile<T>(call: () => Promise<T>, retryable: (e: unknown) => boolean, attempts: number): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (e) {
      if (!retryable(e) || attempt + 1 >= attempts) throw e;
      await new Promise((r) => setTimeout(r, Math.min(250 * 2 ** attempt, 4000)).unref());
    }
  }
}

/** Runs `call` again while the apiserver cannot answer (transient errors): retryWhile(isTransient). */
export const retryTransient = <T>(call: () => Promise<T>, attempts = 10): Promise<T> => retryWhile(call, isTransient, attempts);
/**
 * A write a sandbox's start makes beside its pod (its Secrets, Service, NetworkPolicy, HTTPRoutes):
 * retried while the apiserver cannot answer, or denies as a just-started apiserver does (isForbidden).
 */
export const retryStartWrite = <T>(call: () => Promise<T>, attempts = 6): Promise<T> =>
  retryWhile(call, (e) => isTransient(e) || isForbidden(e), attempts);
