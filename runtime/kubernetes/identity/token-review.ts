/**
 * The cluster's TokenReview API (authentication.k8s.io/v1), asked whether a bearer token is valid
 * for Hangar's audience (ADR 0037). Answers in plain terms (api/auth-service-accounts.ts judges them);
 * an apiserver that does not answer in time is an error, never a verdict.
 */
import { within } from "../../../core/within.js";
import * as k8s from "@kubernetes/client-node";

export interface TokenReviewAnswer {
  authenticated: boolean;
  username?: string;
  audiences?: string[];
  error?: string;
}

export function createTokenReviewer(kc: k8s.KubeConfig, timeoutMs = 5000) {
  const api = kc.makeApiClient(k8s.AuthenticationV1Api);
  return {
    async review(token: string, audiences: string[]): Promise<TokenReviewAnswer> {
      const r = await within(
        api.createTokenReview({ body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token, audiences } } }),
        timeoutMs,
        () => new Error(`no answer from the apiserver in ${timeoutMs} ms`),
      );
      const s = r.status ?? {};
      return {
        authenticated: s.authenticated === true,
        ...(s.user?.username ? { username: s.user.username } : {}),
        ...(s.audiences ? { audiences: s.audiences } : {}),
        ...(s.error ? { error: s.error } : {}),
      };
    },
  };
}
