#!/usr/bin/env bash
# with-cluster.sh CMD...: bring the test cluster up, run CMD with KUBECONFIG set, and tear
# the cluster down afterwards whatever happened. Exits with CMD's status.
source "$(dirname "$0")/lib.sh"
trap '"$REPO/test/cluster/cluster-down.sh" || echo "warning: cluster-down reported leftovers"' EXIT
"$REPO/test/cluster/cluster-up.sh"
export KUBECONFIG="$OUT/kubeconfig"
"$@"
