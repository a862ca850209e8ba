/**
 * Services: a ClusterIP Service per sandbox (`sbx-<id>`, selecting its pod) and a
 * NetworkPolicy that admits connections to exactly those ports (for CNIs that enforce the chart's
 * deny-all ingress policy); both owned by the pod, so Kubernetes deletes them with it. The
 * sandbox's own rules (netinit, Policy.Inbound) accept the same ports and nothing else inbound.
 */
import * as k8s from "@kubernetes/client-node";
import type { ServicePort } from "../../../core/types.js";
import { detailOf, isConflict, retryStartWrite } from "../kube-errors.js";
import { SANDBOX_ID } from "../pod/labels.js";
import { ownedByPod, podName } from "../pod/spec.js";
import { createPublicRoutes, type PublicGateway, type PublicTlsGateway } from "./public.js";

export const serviceName = (id: string) => podName(id);

/** The Service of a sandbox's ports (pure, table-tested). */
export function buildService(id: string, namespace: string, ports: ServicePort[], pod: k8s.V1Pod): k8s.V1Service {
  return {
    apiVersion: "v1",
    kind: "Service",
    metadata: { name: serviceName(id), namespace, labels: { [SANDBOX_ID]: id }, ownerReferences: ownedByPod(pod) },
    spec: {
      type: "ClusterIP",
      selector: { [SANDBOX_ID]: id },
      ports: ports.map((p) => ({
        name: p.name ?? `${p.protocol.toLowerCase()}-${p.port}`,
        port: p.port,
        targetPort: p.port,
        protocol: p.protocol,
      })),
    },
  };
}

/** Ingress to those ports from anywhere in the cluster (sandboxes' own egress rules keep them out). */
export function buildServicePolicy(id: string, namespace: string, ports: ServicePort[], pod: k8s.V1Pod): k8s.V1NetworkPolicy {
  return {
    apiVersion: "networking.k8s.io/v1",
    kind: "NetworkPolicy",
    metadata: { name: `${serviceName(id)}-services`, namespace, labels: { [SANDBOX_ID]: id }, ownerReferences: ownedByPod(pod) },
    spec: {
      podSelector: { matchLabels: { [SANDBOX_ID]: id } },
      policyTypes: ["Ingress"],
      ingress: [{ ports: ports.map((p) => ({ port: p.port, protocol: p.protocol })) }],
    },
  };
}

/**
 * Creates both for a pod just created, and the routes of PUBLIC ports (public-routes.ts); a
 * refusal is thrown (the start fails, naming it).
 */
export async function createServices(
  kc: k8s.KubeConfig,
  namespace: string,
  id: string,
  ports: ServicePort[],
  pod: k8s.V1Pod,
  gateways: { http?: PublicGateway; tls?: PublicTlsGateway } = {},
): Promise<void> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const net = kc.makeApiClient(k8s.NetworkingV1Api);
  const tolerate = (e: unknown) => {
    if (!isConflict(e)) throw new Error(`could not make the sandbox's Service: ${detailOf(e)}`);
  };
  await retryStartWrite(() => core.createNamespacedService({ namespace, body: buildService(id, namespace, ports, pod) })).catch(tolerate);
  await retryStartWrite(() => net.createNamespacedNetworkPolicy({ namespace, body: buildServicePolicy(id, namespace, ports, pod) })).catch(
    tolerate,
  );
  if (ports.some((p) => p.public)) await createPublicRoutes(kc, namespace, id, ports, pod, gateways);
}
