#!/usr/bin/env bash
# Builds helm from its Go module (no GitHub downloads here), cached by version in
# $HANGAR_TEST_CACHE/helm-<version>; prints the binary's path.
set -euo pipefail
HELM_VERSION="${HANGAR_HELM_VERSION:-v3.22.0}"
CACHE="${HANGAR_TEST_CACHE:-/var/cache/hangar-test}"
OUT="$CACHE/helm-$HELM_VERSION"
if [[ ! -x "$OUT/helm" ]]; then
  echo "==> building helm $HELM_VERSION from its Go module (once; cached in $OUT)" >&2
  mkdir -p "$OUT"
  ( cd /tmp && GOBIN="$OUT" GOTOOLCHAIN=local GOFLAGS= CGO_ENABLED=0 go install -ldflags "-s -w" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" ) >&2
fi
echo "$OUT/helm"
