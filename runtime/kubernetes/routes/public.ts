/**
 * PUBLIC services: one Gateway API HTTPRoute per public port, attached to the Gateway the operator
 * names (HANGAR_PUBLIC_GATEWAY), sending the port's host name or path (core/public-url.ts) to the
 * sandbox's Service; a TLS passthrough port gets a TLSRoute instead, on the TLS listener the
 * operator names (HANGAR_PUBLIC_TLS_GATEWAY), sending the connections whose SNI is the port's own
 * name, unopened, to it. Owned by the pod, so Kubernetes deletes them with it. A start waits until
 * the Gateway has accepted every route (ADR 0021): an address Get returns is one the Gateway serves.
 */
import * as k8s from "@kubernetes/client-node";
import { publicRoute, type PublicTlsBase, tlsAddress, type PublicUrlBase } from "../../../core/public-url.js";
import type { ServicePort } from "../../../core/types.js";
import { detailOf, isConflict, retryStartWrite } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { ownedByPod, podName } from "../pod/spec.js";

export interface PublicGateway {
  namespace: string;
  name: string;
  /** A listener of that Gateway (absent: every listener that admits the route). */
  sectionName?: string;
  url: PublicUrlBase;
  /** HTTPS share-token ports: the operator's forward-auth filter object in the sandbox namespace (HANGAR_PUBLIC_AUTH_FILTER), named as an ExtensionRef. */
  authFilter?: { group: string; kind: string; name: string };
}

/** The Gateway listener (protocol TLS, mode Passthrough) that TLS passthrough ports are routed on. */
export interface PublicTlsGateway {
  namespace: string;
  name: string;
  sectionName?: string;
  address: PublicTlsBase;
}

const GROUP = "gateway.networking.k8s.io";
const VERSION = "v1";
const PLURAL = "httproutes";
const TLS_PLURAL = "tlsroutes";

export const routeName = (id: string, port: number) => `${podName(id)}-${port}`;

interface RouteCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}
export interface HttpRoute {
  apiVersion: string;
  kind: "HTTPRoute" | "TLSRoute";
  metadata: k8s.V1ObjectMeta;
  spec: Record<string, unknown>;
  status?: { parents?: { parentRef: { name: string; namespace?: string }; conditions?: RouteCondition[] }[] };
}

/** A route of one port of sandbox `id` on a Gateway listener, owned by the sandbox's pod. */
function route(
  kind: HttpRoute["kind"],
  id: string,
  namespace: string,
  port: ServicePort,
  pod: k8s.V1Pod,
  gw: { namespace: string; name: string; sectionName?: string },
  spec: Record<string, unknown>,
): HttpRoute {
  return {
    apiVersion: `${GROUP}/${VERSION}`,
    kind,
    metadata: { name: routeName(id, port.port), namespace, labels: { [SANDBOX_ID]: id }, ownerReferences: ownedByPod(pod) },
    spec: {
      parentRefs: [
        {
          group: GROUP,
          kind: "Gateway",
          namespace: gw.namespace,
          name: gw.name,
          ...(gw.sectionName ? { sectionName: gw.sectionName } : {}),
        },
      ],
      ...spec,
    },
  };
}

/** The route of one public port (pure, table-tested). */
export function buildHttpRoute(id: string, namespace: string, port: ServicePort, pod: k8s.V1Pod, gw: PublicGateway): HttpRoute {
  const r = publicRoute(gw.url, id, port.port);
  if (port.shareToken && !gw.authFilter) throw new Error(`share-token port ${port.port} needs HANGAR_PUBLIC_AUTH_FILTER on this runtime`);
  const filters = [
    // A share-token port: the Gateway asks the operator's filter (which asks Hangar) before it forwards a request.
    ...(port.shareToken && gw.authFilter ? [{ type: "ExtensionRef", extensionRef: gw.authFilter }] : []),
    // Path routing: the sandbox sees the request as if it were served at "/".
    ...(r.hostname ? [] : [{ type: "URLRewrite", urlRewrite: { path: { type: "ReplacePrefixMatch", replacePrefixMatch: "/" } } }]),
  ];
  return route("HTTPRoute", id, namespace, port, pod, gw, {
    ...(r.hostname ? { hostnames: [r.hostname] } : {}),
    rules: [
      {
        matches: [{ path: { type: "PathPrefix", value: r.pathPrefix } }],
        ...(filters.length ? { filters } : {}),
        backendRefs: [{ name: podName(id), port: port.port }],
      },
    ],
  });
}

/** The TLSRoute of one TLS passthrough port (pure, table-tested): its SNI name, and only that port. */
export function buildTlsRoute(id: string, namespace: string, port: ServicePort, pod: k8s.V1Pod, gw: PublicTlsGateway): HttpRoute {
  return route("TLSRoute", id, namespace, port, pod, gw, {
    hostnames: [tlsAddress(gw.address, id, port.port).hostname],
    rules: [{ backendRefs: [{ name: podName(id), port: port.port }] }],
  });
}

/**
 * Whether the Gateway took the route (pure): "accepted"; refused (Accepted=False: its listeners do
 * not admit it, for good); or waiting, with what it waits for. ResolvedRefs=False is waited out: the
 * Gateway may look before the sandbox's Service has its EndpointSlice (BackendNotFound), and looks
 * again when it appears; the start's timeout ends a wait that never resolves, naming it.
 */
export function routeVerdict(
  route: HttpRoute,
  gw: Pick<PublicGateway, "namespace" | "name">,
): "accepted" | { waiting: string } | { refused: string } {
  const mine = route.status?.parents?.find(
    (p) => p.parentRef.name === gw.name && (p.parentRef.namespace ?? route.metadata.namespace) === gw.namespace,
  );
  const cond = (type: string) => mine?.conditions?.find((c) => c.type === type);
  const said = (c: RouteCondition) => `${c.type}=${c.status} (${c.reason ?? "no reason"}): ${c.message ?? ""}`.trim();
  const accepted = cond("Accepted");
  const resolved = cond("ResolvedRefs");
  if (accepted?.status === "False") return { refused: said(accepted) };
  if (accepted?.status === "True" && resolved?.status === "True") return "accepted";
  if (resolved?.status === "False") return { waiting: said(resolved) };
  return { waiting: mine ? "the Gateway has not yet accepted it" : "the Gateway has not yet looked at it" };
}

/**
 * Makes the routes of a pod just created (HTTPRoutes on `gw`, TLSRoutes on `tls`) and waits until
 * the Gateway accepts them; a refusal, a missing Gateway or a timeout is thrown.
 */
export async function createPublicRoutes(
  kc: k8s.KubeConfig,
  namespace: string,
  id: string,
  ports: ServicePort[],
  pod: k8s.V1Pod,
  gateways: { http?: PublicGateway; tls?: PublicTlsGateway },
  timeoutMs = 20_000,
): Promise<void> {
  const api = kc.makeApiClient(k8s.CustomObjectsApi);
  const made: { plural: string; kind: HttpRoute["kind"]; name: string; gw: { namespace: string; name: string } }[] = [];
  for (const p of ports.filter((x) => x.public)) {
    const gw = p.tls ? gateways.tls : gateways.http;
    if (!gw)
      throw new Error(
        p.tls
          ? "TLS passthrough endpoints need HANGAR_PUBLIC_TLS_GATEWAY on this runtime"
          : "PUBLIC services need HANGAR_PUBLIC_GATEWAY on this runtime",
      );
    const plural = p.tls ? TLS_PLURAL : PLURAL;
    const body = p.tls
      ? buildTlsRoute(id, namespace, p, pod, gw as PublicTlsGateway)
      : buildHttpRoute(id, namespace, p, pod, gw as PublicGateway);
    await retryStartWrite(() => api.createNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural, body })).catch(
      (e: unknown) => {
        if (!isConflict(e)) throw new Error(`could not make the ${body.kind} of PUBLIC port ${p.port}: ${detailOf(e)}`);
      },
    );
    made.push({ plural, kind: body.kind, name: body.metadata.name as string, gw });
  }
  const deadline = Date.now() + timeoutMs;
  for (const { plural, kind, name, gw } of made) {
    for (let wait = 50; ; wait = Math.min(wait * 2, 500)) {
      const route = (await retryStartWrite(() =>
        api.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural, name }),
      )) as HttpRoute;
      const v = routeVerdict(route, gw);
      if (v === "accepted") break;
      if ("refused" in v) throw new Error(`Gateway ${gw.namespace}/${gw.name} refused ${kind} ${namespace}/${name}: ${v.refused}`);
      if (Date.now() > deadline)
        throw new Error(
          `Gateway ${gw.namespace}/${gw.name} did not accept ${kind} ${namespace}/${name} within ${timeoutMs / 1000} s: ${v.waiting} (is its controller running, and does a listener admit routes from namespace ${namespace}?)`,
        );
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
