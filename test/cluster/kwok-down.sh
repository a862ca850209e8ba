#!/usr/bin/env bash
# kwok-down.sh: removes the scale bed's fake nodes (kwok-up.sh) and stops kwok; the cluster stays up.
source "$(dirname "$0")/lib.sh"
step "removing the fake nodes and stopping kwok"
if running kube-apiserver; then kapi -o /dev/null -X DELETE "$API/api/v1/nodes?labelSelector=hangar.dev/kwok%3Dtrue" || true; fi
pid=$(cat "$(pidfile kwok)" 2>/dev/null) && kill -TERM "$pid" 2>/dev/null
rm -f "$(pidfile kwok)"
done_step
