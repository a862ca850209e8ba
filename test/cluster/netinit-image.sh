#!/usr/bin/env bash
# The sandbox pods' init container image for the test cluster: .build/hangar-netinit and the exec
# agent it copies into each pod (ADR 0023), at the paths Hangar's own image has them
# (/app/.build/hangar-netinit, /app/.build/hangar-agent), tagged by the binaries' hash so a
# rebuilt binary is a new image. Imports it into the cluster's containerd when missing and writes
# its name to .cluster/netinit-image (the tests and benchmarks read HANGAR_KUBE_NETINIT_IMAGE from it).
source "$(dirname "$0")/lib.sh"
make -s -C "$REPO" .build/hangar-netinit .build/hangar-agent >/dev/null
running containerd || die "the test cluster is not up (make cluster-up)"
hash=$(cat "$REPO/.build/hangar-netinit" "$REPO/.build/hangar-agent" | sha256sum | cut -c1-12)
name="localhost/hangar-test/netinit:$hash"
if ! ctr -a "$CSOCK" -n k8s.io images ls -q | grep -qx "$name"; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  install -D -m 0755 "$REPO/.build/hangar-netinit" "$tmp/root/app/.build/hangar-netinit"
  install -D -m 0755 "$REPO/.build/hangar-agent" "$tmp/root/app/.build/hangar-agent"
  python3 "$REPO/test/cluster/mkimage.py" "$tmp/root" "$tmp/netinit.tar" "$name" /app/.build/hangar-netinit
  ctr -a "$CSOCK" -n k8s.io images import --no-unpack=false "$tmp/netinit.tar" >/dev/null
fi
mkdir -p "$OUT"
echo "$name" > "$OUT/netinit-image"
echo "$name"
