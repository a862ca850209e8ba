#!/usr/bin/env bash
# gen-certs.sh DIR NODE NODE_IP: a throwaway CA and every certificate the cluster needs.
set -euo pipefail
D=$1 NODE=$2 NODE_IP=$3
mkdir -p "$D" && cd "$D"
openssl genrsa -out ca.key 2048 2>/dev/null
openssl req -x509 -new -key ca.key -subj "/CN=hangar-test-ca" -days 3650 -out ca.crt \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
sign() {
  local n=$1 subj=$2; shift 2
  openssl genrsa -out "$n.key" 2048 2>/dev/null
  openssl req -new -key "$n.key" -subj "$subj" -out "$n.csr"
  printf '%s\n' "basicConstraints=CA:FALSE" "keyUsage=critical,digitalSignature,keyEncipherment" "$@" > "$n.ext"
  openssl x509 -req -in "$n.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -out "$n.crt" -extfile "$n.ext" 2>/dev/null
  rm -f "$n.csr" "$n.ext"
}
sign apiserver "/CN=kube-apiserver" "extendedKeyUsage=serverAuth" \
  "subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:127.0.0.1,IP:10.96.0.1"
sign apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" "extendedKeyUsage=clientAuth"
sign admin "/O=system:masters/CN=hangar-test-admin" "extendedKeyUsage=clientAuth"
sign kubelet-client "/O=system:nodes/CN=system:node:$NODE" "extendedKeyUsage=clientAuth"
sign kubelet-server "/CN=$NODE" "extendedKeyUsage=serverAuth" "subjectAltName=DNS:$NODE,DNS:localhost,IP:127.0.0.1,IP:$NODE_IP"
# The Gateway's HTTPS listener (HTTPS endpoints, host routing under *.sbx.localhost).
sign gateway-https "/CN=*.sbx.localhost" "extendedKeyUsage=serverAuth" "subjectAltName=DNS:*.sbx.localhost"
openssl genrsa -out sa.key 2048 2>/dev/null
openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
