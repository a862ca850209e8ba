/**
 * Which runner a new sandbox goes to (pure, table-tested in test/unit/placement.test.ts): the
 * runners it names (else all of them), and for a GPU sandbox only those with a node that has
 * enough GPUs of the model and memory asked. A request no runner can ever satisfy is refused at
 * once, saying what exists; one that only waits for free GPUs is placed and waits in the
 * scheduler, whose reason the sandbox's status shows.
 */
import { contains, overlaps, parseCidr } from "../core/cidr.js";
import { gpuTypeMatches } from "../core/gpu.js";
import { type EgressGrant, type GpuAsk, gpuAsk, type RunnerEgress, type RunnerInfo, type SandboxSpec } from "../core/types.js";

export function fits(ask: GpuAsk, r: RunnerInfo): boolean {
  const g = r.gpus;
  if (!g || g.perNodeMax < ask.count) return false;
  if (ask.type && !g.types.some((t) => gpuTypeMatches(ask.type as string, t))) return false;
  if (ask.memoryGb && (g.maxMemoryGb ?? 0) < ask.memoryGb) return false;
  return true;
}

function describeGpus(r: RunnerInfo): string {
  const g = r.gpus;
  if (!g || g.perNodeMax === 0) return `${r.runnerId}: no GPUs`;
  const mem = g.maxMemoryGb ? `, up to ${g.maxMemoryGb} GB each` : "";
  return `${r.runnerId}: up to ${g.perNodeMax} per node (${g.types.join(", ") || "model not labelled"}${mem})`;
}

/**
 * A refusal names the domain subject it is about ("spec.egress[0].cidr"; api/wire-fields.ts names
 * it as the request's field), and may carry the reason the SDK branches on (FAILED_PRECONDITION).
 */
export type Placement =
  | { runner: RunnerInfo }
  | {
      refused: string;
      field?: string;
      reason?: "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED" | "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED";
    };

const classesOf = (r: RunnerInfo) => (r.runtimeClasses.length ? r.runtimeClasses.join(", ") : "none");

/**
 * A grant whose whole range lies in the runner's cluster-internal space, with no part the operator
 * opened, would reach nothing: refused, naming the range (a grant that only partly overlaps is
 * honoured for its other part).
 */
export function unreachableGrant(grants: EgressGrant[], e: RunnerEgress): { refused: string; field: string } | undefined {
  const open = e.grantableCidrs.map(parseCidr).filter((c) => c !== undefined);
  for (const [i, g] of grants.entries()) {
    if (g.to === "any" || "hostname" in g.to) continue;
    const c = parseCidr(g.to.cidr);
    if (!c) continue;
    const inside = e.privateCidrs.find((p) => {
      const pc = parseCidr(p);
      return pc !== undefined && contains(pc, c);
    });
    if (inside && !open.some((o) => overlaps(o, c))) {
      const grantable = e.grantableCidrs.length
        ? `; ranges opened to grants: ${e.grantableCidrs.join(", ")}`
        : "; the operator opens such ranges with HANGAR_KUBE_EGRESS_GRANTABLE_CIDRS";
      return {
        refused: `egress to ${g.to.cidr} cannot be granted: it lies in ${inside}, which sandboxes never reach${grantable}`,
        field: `spec.egress[${i}].cidr`,
      };
    }
  }
  return undefined;
}

type PlacementSpec = Pick<
  SandboxSpec,
  | "runnerIds"
  | "requests"
  | "limits"
  | "runtimeClass"
  | "egress"
  | "denyEgress"
  | "imagePull"
  | "services"
  | "sidecars"
  | "imageEntrypoint"
  | "hostAliases"
>;
type Refusal = Extract<Placement, { refused: string }>;
/** One filter of the runners still able to take the sandbox: those left, or why none is. */
type Step = (spec: PlacementSpec, able: RunnerInfo[], runners: RunnerInfo[]) => RunnerInfo[] | Refusal;

const named: Step = (spec, able, runners) => {
  const out = spec.runnerIds.length ? able.filter((r) => spec.runnerIds.includes(r.runnerId)) : able;
  if (out.length) return out;
  return { refused: `no runner among [${spec.runnerIds.join(", ")}]; this Hangar's runners: ${runners.map((r) => r.runnerId).join(", ")}` };
};

const gpus: Step = (spec, able) => {
  const ask = gpuAsk(spec);
  if (!ask) return able;
  const out = able.filter((r) => fits(ask, r));
  if (out.length) return out;
  const what = `${ask.count} GPU${ask.count > 1 ? "s" : ""}${ask.type ? ` of type ${ask.type}` : ""}${ask.memoryGb ? ` with at least ${ask.memoryGb} GB each` : ""}`;
  return { refused: `no runner can give one sandbox ${what}; ${able.map(describeGpus).join("; ")}` };
};

const containers: Step = (spec, able) => {
  if (spec.sidecars?.length) {
    able = able.filter((r) => r.multiContainer);
    if (!able.length)
      return {
        refused: `only one container is supported by this runtime (got ${spec.sidecars.length + 1}): sandboxes with several containers need the Kubernetes runtime`,
        field: "spec.sidecars",
      };
  }
  if (spec.imageEntrypoint || spec.hostAliases?.length) {
    able = able.filter((r) => r.multiContainer);
    if (!able.length)
      return spec.imageEntrypoint
        ? {
            refused: "this runtime does not read an image's ENTRYPOINT and CMD: give the service an entrypoint (its full command)",
            field: "spec.command",
          }
        : { refused: "host aliases need the Kubernetes runtime", field: "spec.hostAliases" };
  }
  return able;
};

const services: Step = (spec, able, runners) => {
  if (!spec.services?.length) return able;
  const tlsAt = spec.services.findIndex((s) => s.public && s.tls);
  if (tlsAt >= 0) {
    able = able.filter((r) => r.serviceDomain && r.publicTls);
    if (!able.length)
      return {
        refused: `TLS passthrough endpoints need a Gateway TLS listener, and none is configured on this Hangar (HANGAR_PUBLIC_TLS_GATEWAY, HANGAR_PUBLIC_TLS_ADDRESS; field spec.services[${tlsAt}].endpoint.kind)`,
        field: `spec.services[${tlsAt}].endpoint.kind`,
        reason: "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
      };
  }
  // Share-token first: the SDK skips its test on this reason alone.
  const tokenAt = spec.services.findIndex((s) => s.public && s.shareToken);
  if (tokenAt >= 0) {
    able = able.filter((r) => r.serviceDomain && r.publicShareTokens);
    if (!able.length)
      return {
        refused: `HTTPS share-token endpoints need the Gateway to ask Hangar about each request, and this Hangar is not set up for it (HANGAR_PUBLIC_AUTH_FILTER, HANGAR_SHARE_TOKEN_KEY_FILE, HANGAR_SHARE_TOKEN_CHECK_LISTEN; field spec.services[${tokenAt}].endpoint.auth)`,
        field: `spec.services[${tokenAt}].endpoint.auth`,
        reason: "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED",
      };
  }
  const httpsAt = spec.services.findIndex((s) => s.public && s.https);
  if (httpsAt >= 0) {
    able = able.filter((r) => r.serviceDomain && r.publicUrl?.scheme === "https");
    if (!able.length)
      return {
        refused: `HTTPS endpoints need a Gateway that terminates TLS, and this Hangar publishes PUBLIC services ${runners.some((r) => r.publicUrl) ? "over plain HTTP (HANGAR_PUBLIC_URL is http://)" : "nowhere (HANGAR_PUBLIC_GATEWAY, HANGAR_PUBLIC_URL=https://...)"}`,
        field: `spec.services[${httpsAt}].endpoint.kind`,
      };
  }
  const publicAt = spec.services.findIndex((s) => s.public && !s.tls);
  able = able.filter((r) => r.serviceDomain && (publicAt < 0 || r.publicUrl));
  if (!able.length && publicAt >= 0) {
    const privateToo = runners.some((r) => r.serviceDomain) ? "; PRIVATE services are offered" : "";
    return {
      refused: `PUBLIC services need a Gateway, and none is configured on this Hangar (HANGAR_PUBLIC_GATEWAY, HANGAR_PUBLIC_URL)${privateToo}`,
      field: `spec.services[${publicAt}].public`,
    };
  }
  if (!able.length)
    return {
      refused: "PRIVATE services need the Kubernetes runtime (a Service per sandbox): local sandboxes take no inbound connections",
      field: "spec.services",
    };
  return able;
};

const imagePull: Step = (spec, able) => {
  if (!spec.imagePull) return able;
  able = able.filter((r) => r.pullCredentials);
  if (able.length) return able;
  return {
    refused:
      "image pull credentials are not supported by this runtime: the local runtime runs images from HANGAR_LOCAL_IMAGE_DIRS or anonymous pulls, and shares its unpacked images between tenants (use the Kubernetes runtime for private images)",
    field: "spec.imagePull",
  };
};

const runtimeClass: Step = (spec, able, runners) => {
  const rc = spec.runtimeClass;
  if (!rc) return able;
  const offering = able.filter((r) => r.runtimeClasses.includes(rc));
  if (!offering.length) {
    const elsewhere = runners
      .filter((r) => !able.includes(r) && r.runtimeClasses.length)
      .map((r) => `${r.runnerId} offers: ${classesOf(r)}`);
    return {
      refused: `runtime class "${rc}" is not offered by ${able.map((r) => `${r.runnerId} (it offers ${classesOf(r)})`).join(", ")}${elsewhere.length ? `; ${elsewhere.join("; ")}` : ""}`,
      field: "spec.runtimeClass",
    };
  }
  if ((spec.egress?.length || spec.denyEgress === false) && offering.every((r) => r.gvisorRuntimeClasses?.includes(rc))) {
    return {
      refused: `runtime class "${rc}" runs sandboxes with no network at all: egress cannot be granted there (ask for none, or another runtime class)`,
      field: spec.egress?.length ? "spec.egress" : "spec.denyEgress",
    };
  }
  return offering;
};

const egress: Step = (spec, able) => {
  const hostRule = (spec.egress ?? []).findIndex((g) => g.to !== "any" && "hostname" in g.to);
  if (hostRule >= 0 && !able.some((r) => r.egress?.hostnames)) {
    return {
      refused:
        "hostname egress grants (dns_name in the SDK) need Hangar's egress proxy, which this Hangar does not run (HANGAR_KUBE_EGRESS_PROXY_LISTEN on Kubernetes): grant the addresses by cidr",
      field: `spec.egress[${hostRule}].hostname`,
    };
  }
  if (!spec.egress?.length) return able;
  const enforcing = able.filter((r) => r.egress);
  if (!enforcing.length)
    return {
      refused: `egress rules are not enforced by ${able.map((r) => r.runnerId).join(", ")} (this runtime offers deny_egress=true or false only)`,
      field: "spec.egress",
    };
  able = hostRule >= 0 ? enforcing.filter((r) => r.egress?.hostnames) : enforcing;
  return unreachableGrant(spec.egress, able[0]?.egress as RunnerEgress) ?? able;
};

const STEPS: Step[] = [named, gpus, containers, services, imagePull, runtimeClass, egress];

export function chooseRunner(spec: PlacementSpec, runners: RunnerInfo[]): Placement {
  let able = runners;
  for (const step of STEPS) {
    const next = step(spec, able, runners);
    if (!Array.isArray(next)) return next;
    able = next;
  }
  if (!gpuAsk(spec)) return { runner: able[0] as RunnerInfo };
  // The runner with the most free GPUs: the scheduler then waits least.
  return { runner: able.reduce((best, r) => ((r.gpus?.available ?? 0) > (best.gpus?.available ?? 0) ? r : best)) };
}
