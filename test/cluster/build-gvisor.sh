#!/usr/bin/env bash
# Builds gVisor's runsc and its containerd shim (containerd-shim-runsc-v1) from the Go module proxy
# (gvisor.dev/gvisor has no tags: a pinned pseudo-version), for the test cluster's RuntimeClass
# `gvisor`. Cached in $GVISOR_BIN; cold: ~2 min and ~1 GB of memory on 2 cores.
#
# One patch, for these VMs: the shim lowers its own OOM score to -999, which needs CAP_SYS_RESOURCE,
# which these VMs do not give root (containerd's runc shim is told so by restrict_oom_score_adj).
# The build tolerates EPERM there, as containerd's own sys.SetOOMScore does for unprivileged callers.
source "$(dirname "$0")/lib.sh"
if [ -x "$GVISOR_BIN/runsc" ] && [ -x "$GVISOR_BIN/containerd-shim-runsc-v1" ]; then echo "==> gVisor $GVISOR_VERSION cached in $GVISOR_BIN"; exit 0; fi
command -v go >/dev/null || die "Go is needed to build gVisor"
step "building gVisor's runsc and containerd-shim-runsc-v1 ($GVISOR_VERSION) into $GVISOR_BIN"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
src=$(cd "$tmp" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "gvisor.dev/gvisor@$GVISOR_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
cp -r "$src" "$tmp/gvisor" && chmod -R u+w "$tmp/gvisor"
manager="$tmp/gvisor/pkg/shim/v1/manager.go"
grep -q 'if err := sys.SetOOMScore(cmd.Process.Pid, oomScoreMax); err != nil {' "$manager" || die "gVisor's shim changed: the OOM-score patch in build-gvisor.sh no longer applies"
sed -i 's/if err := sys.SetOOMScore(cmd.Process.Pid, oomScoreMax); err != nil {/if err := sys.SetOOMScore(cmd.Process.Pid, oomScoreMax); err != nil \&\& !os.IsPermission(err) {/' "$manager"
mkdir -p "$GVISOR_BIN.tmp"
( cd "$tmp/gvisor" && GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$GVISOR_BIN.tmp/runsc" ./runsc \
  && GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$GVISOR_BIN.tmp/containerd-shim-runsc-v1" ./shim )
rm -rf "$GVISOR_BIN" && mv "$GVISOR_BIN.tmp" "$GVISOR_BIN"
done_step
