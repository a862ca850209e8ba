# Sourced by cluster-up.sh (uses its start/kapi/wait_for): the Gateway that publishes PUBLIC
# services (ADR 0021). The Gateway API CRDs ($GATEWAY_API_VERSION, standard channel), Traefik
# (build-gateway.sh) running on this machine as the Gateway's controller and data plane, with a
# ServiceAccount that may read Gateway API objects, Services and EndpointSlices and write their
# status; GatewayClass hangar-test and Gateway hangar-gateway/public with an HTTP listener `web`
# on 127.0.0.1:$PUBLIC_GATEWAY_PORT, an HTTPS listener `websecure` on 127.0.0.1:$PUBLIC_HTTPS_PORT
# (host names *.$PUBLIC_HTTPS_DOMAIN, TLS terminated with a certificate of the cluster's CA; Traefik's
# CRD provider on too, for the share-token Middleware) and a TLS passthrough listener `tls` on 127.0.0.1:$PUBLIC_TLS_PORT
# (SNI names under *.localhost), admitting routes from the sandbox namespaces only ($TEST_NS; hangar-sandboxes, the chart-deployed Hangar's). Hangar's e2e
# runs set HANGAR_PUBLIC_GATEWAY=hangar-gateway/public/web, HANGAR_PUBLIC_URL=http://127.0.0.1:$PUBLIC_GATEWAY_PORT,
# HANGAR_PUBLIC_TLS_GATEWAY=hangar-gateway/public/tls, HANGAR_PUBLIC_TLS_ADDRESS=*.localhost:$PUBLIC_TLS_PORT.
step "starting the Gateway for PUBLIC services (Gateway API $GATEWAY_API_VERSION CRDs, Traefik $TRAEFIK_VERSION on 127.0.0.1:$PUBLIC_GATEWAY_PORT and :$PUBLIC_TLS_PORT)"
crds="$TRAEFIK_BIN/../gateway-api-crds"
for f in "$crds"/gateway.networking.k8s.io_*.yaml "$TRAEFIK_BIN/../traefik-crds.yaml"; do
  "$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" apply --server-side -f "$f" >/dev/null
done
"$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" wait --for=condition=Established --timeout=60s crd/gateways.gateway.networking.k8s.io crd/httproutes.gateway.networking.k8s.io crd/gatewayclasses.gateway.networking.k8s.io crd/tlsroutes.gateway.networking.k8s.io crd/middlewares.traefik.io >/dev/null
# The HTTPS listener's certificate (*.$PUBLIC_HTTPS_DOMAIN, signed by the cluster's CA; clients trust $OUT/gateway-ca.crt).
"$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" create namespace hangar-gateway --dry-run=client -o yaml | "$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" apply -f - >/dev/null
"$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" -n hangar-gateway create secret tls public-https --cert="$PKI/gateway-https.crt" --key="$PKI/gateway-https.key" --dry-run=client -o yaml | "$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" apply -f - >/dev/null
cp "$PKI/ca.crt" "$OUT/gateway-ca.crt"
"$BIN/kubectl" --kubeconfig="$ETC/admin.kubeconfig" apply -f - >/dev/null <<YAML
apiVersion: v1
kind: Namespace
metadata: { name: hangar-gateway }
---
apiVersion: v1
kind: ServiceAccount
metadata: { name: traefik, namespace: hangar-gateway }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: hangar-test-gateway }
rules:
- { apiGroups: [""], resources: [namespaces, services, secrets, configmaps], verbs: [get, list, watch] }
- { apiGroups: [discovery.k8s.io], resources: [endpointslices], verbs: [get, list, watch] }
- { apiGroups: [gateway.networking.k8s.io], resources: ["*"], verbs: [get, list, watch, update, patch] }
- { apiGroups: [traefik.io], resources: ["*"], verbs: [get, list, watch] }
- { apiGroups: [""], resources: [nodes], verbs: [get, list, watch] }
- { apiGroups: [""], resources: [pods], verbs: [get] }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: hangar-test-gateway }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: hangar-test-gateway }
subjects: [{ kind: ServiceAccount, name: traefik, namespace: hangar-gateway }]
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: { name: hangar-test }
spec: { controllerName: traefik.io/gateway-controller }
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: { name: public, namespace: hangar-gateway }
spec:
  gatewayClassName: hangar-test
  listeners:
  - name: web
    port: $PUBLIC_GATEWAY_PORT
    protocol: HTTP
    allowedRoutes:
      kinds: [{ kind: HTTPRoute }]
      namespaces: { from: Selector, selector: { matchExpressions: [{ key: kubernetes.io/metadata.name, operator: In, values: [$TEST_NS, hangar-sandboxes] }] } }
  - name: websecure
    port: $PUBLIC_HTTPS_PORT
    protocol: HTTPS
    hostname: "*.$PUBLIC_HTTPS_DOMAIN"
    tls: { mode: Terminate, certificateRefs: [{ kind: Secret, name: public-https }] }
    allowedRoutes:
      kinds: [{ kind: HTTPRoute }]
      namespaces: { from: Selector, selector: { matchExpressions: [{ key: kubernetes.io/metadata.name, operator: In, values: [$TEST_NS, hangar-sandboxes] }] } }
  - name: tls
    port: $PUBLIC_TLS_PORT
    protocol: TLS
    hostname: "*.localhost"
    tls: { mode: Passthrough }
    allowedRoutes:
      kinds: [{ kind: TLSRoute }]
      namespaces: { from: Selector, selector: { matchExpressions: [{ key: kubernetes.io/metadata.name, operator: In, values: [$TEST_NS, hangar-sandboxes] }] } }
YAML
GW_TOKEN=$(kapi -X POST -H 'Content-Type: application/json' "$API/api/v1/namespaces/hangar-gateway/serviceaccounts/traefik/token" \
  -d '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":86400}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"]["token"])')
printf '%s' "$GW_TOKEN" > "$STATE/gateway.token" && chmod 600 "$STATE/gateway.token"
# The CRD provider too: an HTTPRoute's ExtensionRef filter names a Traefik Middleware (the forward-auth
# hop of HTTPS share-token endpoints, which each Hangar under test points at its own check).
start traefik "$TRAEFIK_BIN/traefik" --entryPoints.web.address="127.0.0.1:$PUBLIC_GATEWAY_PORT" --entryPoints.tls.address="127.0.0.1:$PUBLIC_TLS_PORT" \
  --entryPoints.websecure.address="127.0.0.1:$PUBLIC_HTTPS_PORT" \
  --providers.kubernetesgateway=true --providers.kubernetesgateway.endpoint="$API" \
  --providers.kubernetesgateway.token="$GW_TOKEN" --providers.kubernetesgateway.certAuthFilePath="$PKI/ca.crt" \
  --providers.kubernetescrd=true --providers.kubernetescrd.endpoint="$API" \
  --providers.kubernetescrd.token="$GW_TOKEN" --providers.kubernetescrd.certAuthFilePath="$PKI/ca.crt" \
  --providers.kubernetesgateway.statusAddress.ip=127.0.0.1 --providers.providersThrottleDuration=0s \
  --ping=true --ping.entryPoint=ping --entryPoints.ping.address=127.0.0.1:18082 --log.level=INFO
gw_programmed() { kapi "$API/apis/gateway.networking.k8s.io/v1/namespaces/hangar-gateway/gateways/public" | python3 -c 'import json,sys; g=json.load(sys.stdin); sys.exit(0 if any(c["type"]=="Programmed" and c["status"]=="True" for c in g.get("status",{}).get("conditions",[])) else 1)'; }
wait_for 60 "Gateway hangar-gateway/public Programmed by Traefik" gw_programmed
done_step
