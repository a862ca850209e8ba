# Shared settings for the offline test cluster scripts (sourced, not run).
# Everything the cluster creates lives under $STATE, $RUNDIR and the repo's .cluster/;
# built artefacts are cached under $CACHE, keyed by version.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
K8S_VERSION="$(sed -n 's/^require k8s.io\/kubernetes \(v[0-9.]*\)$/\1/p' "$REPO/test/cluster/k8s/go.mod")"
CACHE="${HANGAR_TEST_CACHE:-/var/cache/hangar-test}"
BIN="$CACHE/k8s-$K8S_VERSION/bin"
# containerd and runc built from the Go proxy (build-runtime.sh): user namespaces need containerd >= 2, runc >= 1.2.
CONTAINERD_VERSION=v2.4.2
RUNC_VERSION=v1.5.2
RT_BIN="$CACHE/runtime-containerd-$CONTAINERD_VERSION-runc-$RUNC_VERSION/bin"
# gVisor (build-gvisor.sh): the RuntimeClass `gvisor` (handler runsc, no network: runsc --network=none).
GVISOR_VERSION=v0.0.0-20260905035102-160fafc42237
GVISOR_BIN="$CACHE/gvisor-$GVISOR_VERSION/bin"
[ -d "$GVISOR_BIN" ] && PATH="$GVISOR_BIN:$PATH"
[ -d "$RT_BIN" ] && PATH="$RT_BIN:$PATH"
# Traefik (build-gateway.sh): the test cluster's Gateway API implementation, for PUBLIC services (ADR 0021).
TRAEFIK_VERSION=v3.7.13
TRAEFIK_BIN="$CACHE/traefik-$TRAEFIK_VERSION/bin"
# The Gateway API CRDs: the version that Traefik's go.mod requires (its module ships them).
GATEWAY_API_VERSION=v1.6.1
# The Gateway's HTTP listener (gateway-up.sh), on loopback.
PUBLIC_GATEWAY_PORT=18080
# TLS passthrough endpoints: the Gateway's TLS listener (SNI names *.localhost, RFC 6761 loopback names).
PUBLIC_TLS_PORT=18443
# HTTPS endpoints: the Gateway's HTTPS listener (host names *.$PUBLIC_HTTPS_DOMAIN, TLS terminated there).
PUBLIC_HTTPS_PORT=18444
PUBLIC_HTTPS_DOMAIN=sbx.localhost
IMAGES="$CACHE/images-v1"
STATE=/var/lib/hangar-test
RUNDIR=/run/hangar-test
PKI="$STATE/pki"
ETC="$STATE/etc"
LOGS="$STATE/logs"
CSOCK="$RUNDIR/containerd/containerd.sock"
OUT="$REPO/.cluster"
NODE="$(hostname)"
BRIDGE=hangar0
POD_SUBNET=10.88.7.0/24
GATEWAY=10.88.7.1
TEST_NS=hangar-test
# hangar-pullwatch (ADR 0038) listens here on the node's address; the e2e suite points Hangar at it (HANGAR_KUBE_PULL_PROGRESS_PORT).
PULLWATCH_PORT=9470
PAUSE_IMAGE=localhost/hangar-test/pause:1
PYTHON_IMAGE=docker.io/library/python:3.11
NOSHELL_IMAGE=localhost/hangar-test/noshell:1
REDIS_IMAGE=docker.io/library/redis:7
API=https://127.0.0.1:6443
DAEMONS=(traefik kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver etcd containerd)

_t0=0
step() { _t0=$(date +%s.%N); printf '==> %s\n' "$*"; }
done_step() { awk -v a="$(date +%s.%N)" -v b="$_t0" 'BEGIN { printf "    done in %.1fs\n", a - b }'; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# curl against the apiserver as the admin identity
kapi() { curl -sS --fail-with-body --cacert "$PKI/ca.crt" --cert "$PKI/admin.crt" --key "$PKI/admin.key" "$@"; }

wait_for() { # wait_for SECONDS DESCRIPTION CMD...
  local secs=$1 what=$2; shift 2
  local end=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || die "timed out after ${secs}s waiting for $what"
    sleep 0.5
  done
}

pidfile() { echo "$RUNDIR/$1.pid"; }
running() { local p; p=$(cat "$(pidfile "$1")" 2>/dev/null) && kill -0 "$p" 2>/dev/null; }

# Run directly (`bash test/cluster/lib.sh --print-bin`): print where the built binaries are.
if [[ "${BASH_SOURCE[0]}" == "$0" && "${1:-}" == "--print-bin" ]]; then echo "$BIN"; fi
