#!/usr/bin/env bash
# Builds kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and kubectl from the
# k8s.io/kubernetes Go module through the wrapper module in test/cluster/k8s. The output is
# cached in $CACHE/k8s-<version>/bin and rebuilt only when the version changes.
source "$(dirname "$0")/lib.sh"
want=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
missing=0
for b in "${want[@]}"; do [ -x "$BIN/$b" ] || missing=1; done
if [ $missing = 0 ]; then echo "==> Kubernetes $K8S_VERSION binaries cached in $BIN"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build Kubernetes (the machine image provides it)"
step "building Kubernetes $K8S_VERSION binaries into $BIN (cold: tens of minutes on 2 cores)"
mkdir -p "$BIN.tmp"
minor=$(echo "$K8S_VERSION" | cut -d. -f2)
LD="-s -w -X k8s.io/component-base/version.gitVersion=$K8S_VERSION -X k8s.io/component-base/version.gitMajor=1 \
 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean \
 -X k8s.io/client-go/pkg/version.gitVersion=$K8S_VERSION"
( cd "$REPO/test/cluster/k8s" && GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0 \
    go build -p "$(nproc)" -trimpath -ldflags "$LD" -o "$BIN.tmp/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-proxy \
    k8s.io/kubernetes/cmd/kubectl )
rm -rf "$BIN" && mv "$BIN.tmp" "$BIN"
done_step
