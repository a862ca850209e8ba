#!/usr/bin/env bash
# make cluster-status: which daemons run, whether the apiserver is ready, the node's state.
source "$(dirname "$0")/lib.sh"
set +e
for d in "${DAEMONS[@]}"; do
  if running "$d"; then printf '  %-24s running (pid %s)\n' "$d" "$(cat "$(pidfile "$d")")"; else printf '  %-24s stopped\n' "$d"; fi
done
if kapi "$API/readyz" >/dev/null 2>&1; then
  echo "  apiserver                ready ($(kapi "$API/version" | sed -n 's/.*"gitVersion": "\(.*\)".*/\1/p'))"
  kapi "$API/api/v1/nodes" | python3 -c 'import json,sys
for n in json.load(sys.stdin)["items"]:
    ready = [c["status"] for c in n["status"]["conditions"] if c["type"] == "Ready"]
    name = n["metadata"]["name"]
    print("  node %-19s Ready=%s" % (name, ready[0] if ready else "?"))'
  echo "  KUBECONFIG=$OUT/kubeconfig"
else
  echo "  apiserver                not reachable"
  exit 1
fi
