#!/usr/bin/env bash
# Builds promtool from Prometheus's Go module (no GitHub downloads here), cached by version in
# $HANGAR_TEST_CACHE/promtool-<version>; prints the binary's path. The module's v0.3xx.y is
# Prometheus 3.xx.y.
set -euo pipefail
PROMETHEUS_VERSION="${HANGAR_PROMETHEUS_VERSION:-v0.316.0}"
CACHE="${HANGAR_TEST_CACHE:-/var/cache/hangar-test}"
OUT="$CACHE/promtool-$PROMETHEUS_VERSION"
if [[ ! -x "$OUT/promtool" ]]; then
  echo "==> building promtool $PROMETHEUS_VERSION from its Go module (once; cached in $OUT)" >&2
  mkdir -p "$OUT"
  ( cd /tmp && GOBIN="$OUT" GOTOOLCHAIN=local GOFLAGS= CGO_ENABLED=0 go install -ldflags "-s -w" "github.com/prometheus/prometheus/cmd/promtool@$PROMETHEUS_VERSION" ) >&2
fi
echo "$OUT/promtool"
