#!/usr/bin/env bash
# Builds the Prometheus server from its Go module (no GitHub downloads here; no web UI assets:
# the tests use its HTTP API only), cached by version in $HANGAR_TEST_CACHE/prometheus-<version>;
# prints the binary's path. Same version as build-promtool.sh.
set -euo pipefail
PROMETHEUS_VERSION="${HANGAR_PROMETHEUS_VERSION:-v0.316.0}"
CACHE="${HANGAR_TEST_CACHE:-/var/cache/hangar-test}"
OUT="$CACHE/prometheus-$PROMETHEUS_VERSION"
if [[ ! -x "$OUT/prometheus" ]]; then
  echo "==> building prometheus $PROMETHEUS_VERSION from its Go module (once; cached in $OUT)" >&2
  mkdir -p "$OUT"
  ( cd /tmp && GOBIN="$OUT" GOTOOLCHAIN=local GOFLAGS= CGO_ENABLED=0 go install -ldflags "-s -w" "github.com/prometheus/prometheus/cmd/prometheus@$PROMETHEUS_VERSION" ) >&2
fi
echo "$OUT/prometheus"
