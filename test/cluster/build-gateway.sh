#!/usr/bin/env bash
# Builds Traefik ($TRAEFIK_VERSION, github.com/traefik/traefik/v3 from the Go module proxy), the
# test cluster's Gateway API implementation for PUBLIC services (ADR 0021). Cached in $TRAEFIK_BIN;
# cold: ~10 min on 2 cores. Also keeps the Gateway API CRDs ($GATEWAY_API_VERSION, from its Go module) beside it.
#
# Three changes so it builds offline, none in the HTTP routing the tests use:
# - the proxy refuses Traefik's fork of go-http-auth (basic/digest auth middlewares): the upstream
#   module it forks, github.com/abbot/go-http-auth v0.4.0, is used instead; it lacks two functions of
#   the fork, so the basic-auth middleware denies every password here (fails closed) and a stale digest
#   nonce gets a plain challenge; the tests use neither middleware;
# - the proxy refuses a dozen DNS-provider SDKs that ACME DNS-01 challenges import: that one call is
#   replaced by an error ("not built into this traefik"); ACME is not used here;
# - the nested module github.com/traefik/traefik/dynamic/ext (two empty extension structs, upstream
#   pkg/config/dynamic/ext/ext.go) is not in the module's zip nor served: it is written out as upstream has it.
source "$(dirname "$0")/lib.sh"
# Traefik's own CRDs (its Middleware is the forward-auth filter that HTTPS share-token routes name),
# as its module ships them: kept beside the binary, added to a cache that predates them.
TRAEFIK_CRDS="$TRAEFIK_BIN/../traefik-crds.yaml"
traefik_crds() {
  local dir
  dir=$(cd /tmp && GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "github.com/traefik/traefik/v3@$TRAEFIK_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  cp "$dir/docs/content/reference/dynamic-configuration/kubernetes-crd-definition-v1.yml" "$TRAEFIK_CRDS.tmp" && mv "$TRAEFIK_CRDS.tmp" "$TRAEFIK_CRDS"
}
if [ -x "$TRAEFIK_BIN/traefik" ] && [ -d "$TRAEFIK_BIN/../gateway-api-crds" ]; then
  [ -f "$TRAEFIK_CRDS" ] || traefik_crds
  echo "==> Traefik $TRAEFIK_VERSION cached in $TRAEFIK_BIN"; exit 0
fi
command -v go >/dev/null || die "Go is needed to build Traefik"
step "building Traefik $TRAEFIK_VERSION (the test cluster's Gateway) into $TRAEFIK_BIN"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
src=$(cd "$tmp" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "github.com/traefik/traefik/v3@$TRAEFIK_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
cp -r "$src" "$tmp/traefik" && chmod -R u+w "$tmp/traefik"
cd "$tmp/traefik"
patch_file() { # file old new
  python3 - "$@" <<'PY' || die "Traefik changed: a patch in build-gateway.sh no longer applies ($1)"
import sys
path, old, new = sys.argv[1:]
s = open(path).read()
if old not in s: sys.exit(1)
open(path, "w").write(s.replace(old, new, 1))
PY
}
patch_file go.mod $'\tgithub.com/abbot/go-http-auth => github.com/containous/go-http-auth v0.4.1-0.20260804094822-b975dcaa8c48\n' ''
patch_file go.mod 'github.com/abbot/go-http-auth v0.0.0-00010101000000-000000000000' 'github.com/abbot/go-http-auth v0.4.0'
patch_file pkg/middlewares/auth/basic_auth.go 'checkSecret:       goauth.CheckSecret,' 'checkSecret:       func(string, string) bool { return false },'
patch_file pkg/middlewares/auth/digest_auth.go 'd.auth.RequireAuthStale(rw, req)' 'd.auth.RequireAuth(rw, req)'
patch_file pkg/provider/acme/provider.go $'\t"github.com/go-acme/lego/v5/providers/dns"\n' ''
patch_file pkg/provider/acme/provider.go 'provider, err = dns.NewDNSChallengeProviderByName(p.DNSChallenge.Provider)' \
  'err = fmt.Errorf("DNS-01 challenge provider %q: not built into this traefik", p.DNSChallenge.Provider)'
mkdir -p pkg/config/dynamic/ext
printf 'module github.com/traefik/traefik/dynamic/ext\n\ngo 1.26.0\n' > pkg/config/dynamic/ext/go.mod
printf 'package ext\n\n// HTTP is a dynamic.HTTP extension.\ntype HTTP struct{}\n\n// Router is a dynamic.Router extension.\ntype Router struct{}\n' > pkg/config/dynamic/ext/ext.go
mkdir -p "$TRAEFIK_BIN.tmp"
GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0 nice -n 5 go build -trimpath -ldflags "-s -w" -o "$TRAEFIK_BIN.tmp/traefik" ./cmd/traefik
crds=$(cd "$tmp" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go mod download -json "sigs.k8s.io/gateway-api@$GATEWAY_API_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')/config/crd/standard
rm -rf "$TRAEFIK_BIN/../gateway-api-crds.tmp" && mkdir -p "$TRAEFIK_BIN/../gateway-api-crds.tmp"
# The CRDs alone: the safe-upgrades ValidatingAdmissionPolicy is for clusters that upgrade them.
cp "$crds"/gateway.networking.k8s.io_*.yaml "$TRAEFIK_BIN/../gateway-api-crds.tmp/" && rm -f "$TRAEFIK_BIN/../gateway-api-crds.tmp/"*vap*
rm -rf "$TRAEFIK_BIN" && mv "$TRAEFIK_BIN.tmp" "$TRAEFIK_BIN"
rm -rf "$TRAEFIK_BIN/../gateway-api-crds" && mv "$TRAEFIK_BIN/../gateway-api-crds.tmp" "$TRAEFIK_BIN/../gateway-api-crds"
traefik_crds
done_step
