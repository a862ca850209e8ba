#!/usr/bin/env bash
# Imports an image tarball (default: .build/hangar-image.tar from make image) into the test
# cluster's containerd, where pods with imagePullPolicy IfNotPresent find it.
source "$(dirname "$0")/lib.sh"
tar="${1:-$REPO/.build/hangar-image.tar}"
[ -f "$tar" ] || die "$tar: no such image tarball (make image builds it)"
running containerd || die "the test cluster is not up (make cluster-up)"
step "importing $(basename "$tar") into the test cluster's containerd"
ctr -a "$CSOCK" -n k8s.io images import --no-unpack=false "$tar" >/dev/null
done_step
