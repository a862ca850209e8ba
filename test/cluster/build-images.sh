#!/usr/bin/env bash
# Builds the offline test images as docker-archive tarballs in $IMAGES (cached):
#   pause      localhost/hangar-test/pause:1   the pod sandbox image (static C)
#   python     docker.io/library/python:3.11    Debian bookworm + python3 (python -> python3),
#              sh, bash, coreutils, tar, openssl: so the SDK's default image name resolves offline
#              (openssl: the SDK suite's TLS passthrough test makes its certificate with it; an
#              image cached without it is rebuilt once, python.with-openssl marks the new build)
#   noshell    localhost/hangar-test/noshell:1  two static programs and no /bin/sh
#   redis      docker.io/library/redis:7        Debian bookworm + redis-server 7 (the SDK suite's sidecar)
# Arguments name a subset (pause noshell python redis); none = all.
source "$(dirname "$0")/lib.sh"
want=" ${*:-pause noshell python redis} "
mkdir -p "$IMAGES"
cd "$IMAGES"
if [ ! -f pause.tar ] || [ ! -f noshell.tar ]; then
  step "building the pause and shell-less images"
  rm -rf pause-root noshell-root && mkdir -p pause-root noshell-root/bin
  gcc -Os -static -o pause-root/pause "$REPO/test/cluster/pause.c" && strip pause-root/pause
  cp pause-root/pause noshell-root/bin/pause
  gcc -Os -static -o noshell-root/bin/hello "$REPO/test/cluster/hello.c" && strip noshell-root/bin/hello
  python3 "$REPO/test/cluster/mkimage.py" pause-root pause.tar "$PAUSE_IMAGE" /pause
  python3 "$REPO/test/cluster/mkimage.py" noshell-root noshell.tar "$NOSHELL_IMAGE" /bin/pause
  rm -rf pause-root noshell-root
  done_step
fi
if [[ "$want" == *" python "* ]] && { [ ! -f python.tar ] || [ ! -f python.with-openssl ]; }; then
  step "building the python:3.11 image from a Debian bookworm rootfs (debootstrap)"
  rm -rf rootfs
  command -v debootstrap >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -qq debootstrap >/dev/null; } || die "debootstrap is needed (apt-get install debootstrap)"
  mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include=python3,bash,coreutils,tar,procps,openssl bookworm rootfs "${mirror:-http://deb.debian.org/debian}" > debootstrap.log 2>&1 \
    || { tail -20 debootstrap.log; die "debootstrap failed (log: $IMAGES/debootstrap.log)"; }
  ln -sf python3 rootfs/usr/bin/python
  rm -rf rootfs/var/lib/apt/lists/* rootfs/var/cache/apt/* rootfs/usr/share/doc rootfs/usr/share/man rootfs/usr/share/locale
  python3 "$REPO/test/cluster/mkimage.py" rootfs python.tar.new "$PYTHON_IMAGE" && mv -f python.tar.new python.tar
  touch python.with-openssl
  rm -rf rootfs
  done_step
fi
# redis:7 for the SDK suite's multi-container test (a primary talking to a redis sidecar on loopback).
if [[ "$want" == *" redis "* ]] && [ ! -f redis.tar ]; then
  step "building the redis:7 image from a Debian bookworm rootfs (debootstrap, redis-server 7)"
  rm -rf rootfs
  mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  debootstrap --variant=minbase --include=redis-server bookworm rootfs "${mirror:-http://deb.debian.org/debian}" > debootstrap-redis.log 2>&1 \
    || { tail -20 debootstrap-redis.log; die "debootstrap failed (log: $IMAGES/debootstrap-redis.log)"; }
  rm -rf rootfs/var/lib/apt/lists/* rootfs/var/cache/apt/* rootfs/usr/share/doc rootfs/usr/share/man rootfs/usr/share/locale
  python3 "$REPO/test/cluster/mkimage.py" rootfs redis.tar "$REDIS_IMAGE" /usr/bin/redis-server
  rm -rf rootfs
  done_step
fi
echo "==> images cached in $IMAGES: $(ls "$IMAGES"/*.tar | xargs -n1 basename | tr '\n' ' ')"
