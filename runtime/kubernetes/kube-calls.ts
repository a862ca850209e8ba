/**
 * Apiserver calls counted (metrics: hangar_kube_api_calls_total, hangar_kube_api_responses_total):
 * a KubeConfig whose typed API clients carry a middleware that counts each request by verb and
 * resource, and each answer by its status code. The watch and exec streams are not among them.
 */
import * as k8s from "@kubernetes/client-node";
import type { ApiCallCount } from "../types.js";

/** The resource (and subresource) a request path names: "pods", "pods/log", "nodes"; "other" when it names none. Pure, table-tested. */
export function resourceOf(url: string): string {
  let parts: string[];
  try {
    parts = new URL(url).pathname.split("/").filter(Boolean);
  } catch {
    return "other";
  }
  let rest = parts[0] === "api" ? parts.slice(2) : parts[0] === "apis" ? parts.slice(3) : [];
  if (rest[0] === "namespaces" && rest.length > 2) rest = rest.slice(2);
  if (!rest[0] || !/^[a-z0-9.-]+$/.test(rest[0])) return "other";
  return rest[2] && /^[a-z]+$/.test(rest[2]) ? `${rest[0]}/${rest[2]}` : rest[0];
}

/**
 * A KubeConfig whose API clients count their calls and answers: makeApiClient as the library's,
 * with the library's own HTTP layer wrapped to count each request (by verb and resource) and its
 * answer (by status code; "error" when none came).
 */
export class CountedKubeConfig extends k8s.KubeConfig {
  private readonly counts = new Map<string, ApiCallCount>();
  private readonly http = new k8s.IsomorphicFetchHttpLibrary();

  private count(verb: string, resource: string, code?: string) {
    const key = `${verb} ${resource} ${code ?? ""}`;
    const c = this.counts.get(key) ?? { verb, resource, ...(code ? { code } : {}), count: 0 };
    c.count++;
    this.counts.set(key, c);
  }

  private async send(ctx: k8s.RequestContext): Promise<k8s.ResponseContext> {
    const verb = ctx.getHttpMethod();
    const resource = resourceOf(ctx.getUrl());
    this.count(verb, resource);
    try {
      const res = await this.http.send(ctx).toPromise();
      this.count(verb, resource, String(res.httpStatusCode));
      return res;
    } catch (e) {
      this.count(verb, resource, "error");
      throw e;
    }
  }

  override makeApiClient<T extends k8s.ApiType>(apiClientType: k8s.ApiConstructor<T>): T {
    const cluster = this.getCurrentCluster();
    if (!cluster) throw new Error("No active cluster!");
    return new apiClientType(
      k8s.createConfiguration({
        baseServer: new k8s.ServerConfiguration(cluster.server, {}),
        authMethods: { default: this },
        httpApi: k8s.wrapHttpLibrary({ send: (ctx) => this.send(ctx) }),
      }),
    );
  }

  /** Calls and answers since start. */
  stats(): ApiCallCount[] {
    return [...this.counts.values()].map((c) => ({ ...c }));
  }
}
