#!/usr/bin/env bash
# make cluster-down: stops every daemon of the test cluster and removes what it left:
# containers and shims, mounts, network namespaces, the bridge, the iptables rules it
# added, pod cgroups, IPAM leases, state directories. Keeps the build cache.
source "$(dirname "$0")/lib.sh"
set +e
T_START=$(date +%s.%N)

stop_daemon() {
  local name=$1 pid
  pid=$(cat "$(pidfile "$name")" 2>/dev/null) || return 0
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
  fi
  rm -f "$(pidfile "$name")"
}

step "stopping the kubelet and the control plane"
for d in traefik kwok hangar-pullwatch hangar-forkcsi kube-proxy kubelet kube-scheduler kube-controller-manager kube-apiserver etcd; do stop_daemon "$d"; done
done_step

step "killing containers and stopping containerd"
if [ -S "$CSOCK" ] && running containerd; then
  for t in $(ctr -a "$CSOCK" -n k8s.io tasks ls -q 2>/dev/null); do ctr -a "$CSOCK" -n k8s.io tasks kill -s KILL "$t" >/dev/null 2>&1; done
  sleep 0.5
  for t in $(ctr -a "$CSOCK" -n k8s.io tasks ls -q 2>/dev/null); do ctr -a "$CSOCK" -n k8s.io tasks delete -f "$t" >/dev/null 2>&1; done
  for c in $(ctr -a "$CSOCK" -n k8s.io containers ls -q 2>/dev/null); do ctr -a "$CSOCK" -n k8s.io containers delete "$c" >/dev/null 2>&1; done
fi
stop_daemon containerd
# Shims outlive containerd by design: kill the ones serving our socket, and what they run.
for p in $(pgrep -f "containerd-shim.*$RUNDIR/containerd" 2>/dev/null); do pkill -KILL -P "$p" 2>/dev/null; kill -KILL "$p" 2>/dev/null; done
done_step

step "unmounting and removing network namespaces, bridge, iptables rules, cgroups, leases"
findmnt -rn -o TARGET | grep -E "^($STATE|$RUNDIR|/run/netns/cni-|/dev/shm/hangar-test)" | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
if [ -f "$STATE/netns.before" ]; then
  for ns in $(ls /run/netns 2>/dev/null); do
    grep -qx "$ns" "$STATE/netns.before" || { umount -l "/run/netns/$ns" 2>/dev/null; ip netns delete "$ns" 2>/dev/null; rm -f "/run/netns/$ns"; }
  done
fi
ip link del "$BRIDGE" 2>/dev/null
# iptables: every table the kubelet and CNI touched goes back to what it was before cluster-up
# (a table that did not exist then is flushed and its chains deleted).
restore_tables() { # restore_tables iptables|ip6tables BEFORE-FILE
  local cmd=$1 before=$2 t
  [ -f "$before" ] || return 0
  for t in $("$cmd-save" 2>/dev/null | sed -n 's/^\*//p'); do
    if grep -qx "\*$t" "$before"; then
      awk -v t="*$t" '$0 == t {on=1} on {print} on && $0 == "COMMIT" {exit}' "$before" | "$cmd-restore" -T "$t" 2>/dev/null
    else
      "$cmd" -t "$t" -F 2>/dev/null; "$cmd" -t "$t" -X 2>/dev/null
    fi
  done
}
restore_tables iptables "$STATE/iptables.before"
restore_tables ip6tables "$STATE/ip6tables.before"
for ctrl in /sys/fs/cgroup/*/ /sys/fs/cgroup/unified/; do
  [ -d "$ctrl/kubepods" ] && find "$ctrl/kubepods" -depth -type d -exec rmdir {} \; 2>/dev/null
  [ -d "$ctrl/kubepods.slice" ] && find "$ctrl/kubepods.slice" -depth -type d -exec rmdir {} \; 2>/dev/null
done
rm -rf /var/lib/cni/networks/hangar-test /var/lib/cni/results/hangar-test-* 2>/dev/null
done_step

step "removing state directories"
rm -rf "$STATE" "$RUNDIR" /dev/shm/hangar-test-etcd "$OUT/kubeconfig" "$OUT/hangar-sa.kubeconfig"
done_step

left=$(pgrep -fa "($BIN/|$RUNDIR/containerd|containerd --config $ETC)" 2>/dev/null)
mounts=$(findmnt -rn -o TARGET | grep -E "^($STATE|$RUNDIR)")
rules=$( { iptables-save; ip6tables-save; } 2>/dev/null | grep -E "KUBE-|CNI-" )
link=$(ip -br link show "$BRIDGE" 2>/dev/null)
[ -z "$left$mounts$rules$link" ] || { echo "left behind:"; printf '%s\n' "$left" "$mounts" "$rules" "$link" | grep .; exit 1; }
awk -v a="$(date +%s.%N)" -v b="$T_START" 'BEGIN { printf "==> cluster down in %.1fs; nothing left running\n", a - b }'
