#!/usr/bin/env bash
# make deploy: installs (or upgrades) charts/hangar with helm into the cluster of $KUBECONFIG.
#   HANGAR_RELEASE (hangar), HANGAR_DEPLOY_NAMESPACE (hangar-system), HANGAR_SANDBOX_NAMESPACE
#   (hangar-sandboxes), HANGAR_IMAGE (localhost/hangar:dev), HANGAR_HELM (helm), KUBECTL (kubectl),
#   HANGAR_DEPLOY_VALUES (extra values file, optional). API keys: HANGAR_DEPLOY_KEYS_FILE, a file of
#   tenant:key lines (made with two random keys in .build/deploy-keys when missing).
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
HELM="${HANGAR_HELM:-helm}"
KUBECTL="${KUBECTL:-kubectl}"
RELEASE="${HANGAR_RELEASE:-hangar}"
NS="${HANGAR_DEPLOY_NAMESPACE:-hangar-system}"
SBX="${HANGAR_SANDBOX_NAMESPACE:-hangar-sandboxes}"
IMAGE="${HANGAR_IMAGE:-localhost/hangar:dev}"
KEYS="${HANGAR_DEPLOY_KEYS_FILE:-$REPO/.build/deploy-keys}"
if [[ ! -f "$KEYS" ]]; then
  mkdir -p "$(dirname "$KEYS")"
  printf 'alpha:alpha-%s\nbeta:beta-%s\n' "$(openssl rand -hex 16)" "$(openssl rand -hex 16)" > "$KEYS"
  chmod 600 "$KEYS"
fi
for ns in "$NS" "$SBX"; do
  "$KUBECTL" get namespace "$ns" >/dev/null 2>&1 || "$KUBECTL" create namespace "$ns" >/dev/null
done
# Hangar under "restricted". Sandboxes: "privileged", because the hangar-netinit init container adds NET_ADMIN
# (ADR 0012); the chart's ValidatingAdmissionPolicy (sandboxAdmissionPolicy) guards the pods' shape instead.
"$KUBECTL" label --overwrite namespace "$NS" pod-security.kubernetes.io/enforce=restricted >/dev/null
"$KUBECTL" label --overwrite namespace "$SBX" pod-security.kubernetes.io/enforce=privileged pod-security.kubernetes.io/audit=baseline >/dev/null
"$KUBECTL" -n "$NS" create secret generic "$RELEASE-api-keys" --from-file=keys="$KEYS" --dry-run=client -o yaml | "$KUBECTL" apply -f - >/dev/null
args=(upgrade --install "$RELEASE" "$REPO/charts/hangar" -n "$NS" --wait --timeout 5m
  --set "image.repository=${IMAGE%:*}" --set "image.tag=${IMAGE##*:}" --set "sandboxNamespace=$SBX"
  --set "auth.existingSecret=$RELEASE-api-keys")
[[ -n "${HANGAR_DEPLOY_VALUES:-}" ]] && args+=(-f "$HANGAR_DEPLOY_VALUES")
echo "==> helm ${args[*]}" >&2
"$HELM" "${args[@]}" >&2
"$KUBECTL" -n "$NS" rollout status "deployment/$RELEASE" --timeout=3m >&2
echo "==> Hangar is up: $("$KUBECTL" -n "$NS" get svc "$RELEASE" -o jsonpath='{.spec.clusterIP}'):$("$KUBECTL" -n "$NS" get svc "$RELEASE" -o jsonpath='{.spec.ports[0].port}') (keys in $KEYS)" >&2
