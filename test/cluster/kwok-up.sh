#!/usr/bin/env bash
# kwok-up.sh [NODES] [PODS_PER_NODE]: the scale test bed (make bench-scale). kwok (sigs.k8s.io/kwok,
# built from the Go module proxy) runs against the test cluster's own apiserver and etcd and
# plays the kubelet of NODES fake nodes (default 10, 1100 pods each): it marks their pods Running
# without containers, so 10,000 sandbox pods fit on a 2-core machine. The real node keeps its
# kubelet; nothing is scheduled onto a fake node without the toleration of its taint.
#
# Exec on a fake node (Hangar's start probe runs `/bin/sh -c "exit 0"` in every new sandbox) goes
# from the apiserver to kwok's kubelet-like server on 127.0.0.1:$KWOK_PORT (TLS, certificate signed
# by the cluster's CA, as the apiserver checks kubelets), which runs it as a local process as
# uid 65534 in an empty directory: only the bench's own sandboxes are scheduled there, and only the
# bench sends their commands. kwok loses non-zero exit codes (docs/test-cluster.md), so the bed
# measures the control plane, not exec semantics.
source "$(dirname "$0")/lib.sh"
NODES=${1:-10}
PODS_PER_NODE=${2:-1100}
KWOK_VERSION=v0.7.0
KWOK_BIN="$CACHE/kwok-$KWOK_VERSION/bin/kwok"
KWOK_PORT=10247
KWOK_DIR="$STATE/kwok"
running kube-apiserver || die "the test cluster is not up (make cluster-up)"

if [ ! -x "$KWOK_BIN" ]; then
  step "building kwok $KWOK_VERSION from the Go module proxy"
  mkdir -p "$(dirname "$KWOK_BIN")"
  GOBIN="$(dirname "$KWOK_BIN")" GOFLAGS=-mod=mod go install "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  done_step
fi

step "starting kwok for $NODES fake nodes ($PODS_PER_NODE pods each)"
mkdir -p "$KWOK_DIR/empty"
chmod 0555 "$KWOK_DIR/empty"
if [ ! -f "$KWOK_DIR/server.crt" ]; then
  openssl genrsa -out "$KWOK_DIR/server.key" 2048 2>/dev/null
  openssl req -new -key "$KWOK_DIR/server.key" -subj "/CN=hangar-kwok" -out "$KWOK_DIR/server.csr"
  printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" "subjectAltName=IP:127.0.0.1" > "$KWOK_DIR/server.ext"
  openssl x509 -req -in "$KWOK_DIR/server.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -days 30 -out "$KWOK_DIR/server.crt" -extfile "$KWOK_DIR/server.ext" 2>/dev/null
fi
cat > "$KWOK_DIR/kwok.yaml" <<YAML
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterExec
metadata:
  name: hangar-bench
spec:
  execs:
  - local:
      workDir: $KWOK_DIR/empty
      securityContext:
        runAsUser: 65534
        runAsGroup: 65534
YAML
if ! running kwok; then
  setsid "$KWOK_BIN" --kubeconfig="$ETC/admin.kubeconfig" --config="$KWOK_DIR/kwok.yaml" \
    --manage-nodes-with-label-selector=hangar.dev/kwok=true --cidr=10.250.0.1/16 \
    --node-ip=127.0.0.1 --node-port=$KWOK_PORT --server-address=127.0.0.1:$KWOK_PORT \
    --tls-cert-file="$KWOK_DIR/server.crt" --tls-private-key-file="$KWOK_DIR/server.key" --v=WARN \
    > "$LOGS/kwok.log" 2>&1 < /dev/null &
  echo $! > "$(pidfile kwok)"
fi
for i in $(seq 0 $((NODES - 1))); do
  n="hangar-kwok-$i"
  kapi -o /dev/null -X POST -H 'Content-Type: application/json' "$API/api/v1/nodes" -d "{
    \"metadata\": {\"name\": \"$n\", \"labels\": {\"type\": \"kwok\", \"kubernetes.io/hostname\": \"$n\"}, \"annotations\": {\"node.alpha.kubernetes.io/ttl\": \"0\"}},
    \"spec\": {\"taints\": [{\"key\": \"kwok.x-k8s.io/node\", \"value\": \"fake\", \"effect\": \"NoSchedule\"}]}}" 2>/dev/null || true
  # Only an InternalIP (127.0.0.1): the apiserver prefers a Hostname address, and a fake name resolves nowhere.
  kapi -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' "$API/api/v1/nodes/$n/status" -d "{\"status\": {
    \"addresses\": [{\"type\": \"InternalIP\", \"address\": \"127.0.0.1\"}],
    \"capacity\": {\"cpu\": \"1000\", \"memory\": \"4Ti\", \"pods\": \"$PODS_PER_NODE\"},
    \"allocatable\": {\"cpu\": \"1000\", \"memory\": \"4Ti\", \"pods\": \"$PODS_PER_NODE\"}}}"
  kapi -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' "$API/api/v1/nodes/$n" -d '{"metadata": {"labels": {"hangar.dev/kwok": "true"}}}'
done
ready() { kapi "$API/api/v1/nodes?labelSelector=hangar.dev/kwok%3Dtrue" | python3 -c "
import json, sys
items = json.load(sys.stdin)['items']
ok = [n for n in items if any(c['type'] == 'Ready' and c['status'] == 'True' for c in n.get('status', {}).get('conditions', []))]
sys.exit(0 if len(ok) >= $NODES else 1)"; }
wait_for 60 "$NODES fake nodes Ready" ready
done_step
