#!/usr/bin/env bash
# Builds the test cluster's container runtime from the Go module proxy: containerd v2 (containerd,
# its runc shim, ctr) and runc, which user namespaces for pods (hostUsers: false) need — Debian 12
# ships containerd 1.6 and runc 1.1, which cannot run them. Cached in $RT_BIN by version; runc needs
# cgo and libseccomp-dev (installed by make setup).
source "$(dirname "$0")/lib.sh"
want=(containerd containerd-shim-runc-v2 ctr runc)
missing=0
for b in "${want[@]}"; do [ -x "$RT_BIN/$b" ] || missing=1; done
if [ $missing = 0 ]; then echo "==> containerd $CONTAINERD_VERSION and runc $RUNC_VERSION cached in $RT_BIN"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build containerd and runc"
step "building containerd $CONTAINERD_VERSION and runc $RUNC_VERSION into $RT_BIN (cold: a few minutes on 2 cores)"
mkdir -p "$RT_BIN.tmp"
GOBIN="$RT_BIN.tmp" GOTOOLCHAIN=local CGO_ENABLED=0 go install -trimpath -tags no_btrfs -ldflags "-s -w -X github.com/containerd/containerd/v2/version.Version=$CONTAINERD_VERSION" \
  "github.com/containerd/containerd/v2/cmd/containerd@$CONTAINERD_VERSION" \
  "github.com/containerd/containerd/v2/cmd/containerd-shim-runc-v2@$CONTAINERD_VERSION" \
  "github.com/containerd/containerd/v2/cmd/ctr@$CONTAINERD_VERSION"
GOBIN="$RT_BIN.tmp" GOTOOLCHAIN=local CGO_ENABLED=1 go install -trimpath -tags seccomp -ldflags "-s -w -X main.version=${RUNC_VERSION#v}" \
  "github.com/opencontainers/runc@$RUNC_VERSION"
rm -rf "$RT_BIN" && mv "$RT_BIN.tmp" "$RT_BIN"
done_step
