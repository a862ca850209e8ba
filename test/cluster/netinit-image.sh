#!/usr/bin/env bash
# The sandbox pods' init container image for the test cluster: .build/hangar-netinit alone, at the
# path Hangar's own image has it (/app/.build/hangar-netinit), tagged by the binary's hash so a
# rebuilt binary is a new image. Imports it into the cluster's containerd when missing and writes
# its name to .cluster/netinit-image (the tests and benchmarks read HANGAR_KUBE_NETINIT_IMAGE from it).
source "$(dirname "$0")/lib.sh"
make -s -C "$REPO" .build/hangar-netinit >/dev/null
running containerd || die "the test cluster is not up (make cluster-up)"
hash=$(sha256sum "$REPO/.build/hangar-netinit" | cut -c1-12)
name="localhost/hangar-test/netinit:$hash"
if ! ctr -a "$CSOCK" -n k8s.io images ls -q | grep -qx "$name"; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  install -D -m 0755 "$REPO/.build/hangar-netinit" "$tmp/root/app/.build/hangar-netinit"
  python3 "$REPO/test/cluster/mkimage.py" "$tmp/root" "$tmp/netinit.tar" "$name" /app/.build/hangar-netinit
  ctr -a "$CSOCK" -n k8s.io images import --no-unpack=false "$tmp/netinit.tar" >/dev/null
fi
mkdir -p "$OUT"
echo "$name" > "$OUT/netinit-image"
echo "$name"
