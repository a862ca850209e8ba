#!/usr/bin/env bash
# test/cluster/restart-daemon.sh NAME: a crash and restart of one test-cluster daemon (the chaos
# suite's faults): SIGKILL, then the same command line again (read from /proc before the kill),
# output appended to its log, and back only when it answers again. NAME: etcd, kube-apiserver, kubelet.
source "$(dirname "$0")/lib.sh"
name=${1:?usage: restart-daemon.sh etcd|kube-apiserver|kubelet}
pid=$(cat "$(pidfile "$name")" 2>/dev/null) || die "$name has no pid file (is the cluster up?)"
kill -0 "$pid" 2>/dev/null || die "$name (pid $pid) is not running"
mapfile -d '' argv < "/proc/$pid/cmdline"
kill -KILL "$pid"
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$pid" 2>/dev/null && die "$name (pid $pid) survived SIGKILL"
printf '\n=== restarted by restart-daemon.sh at %s ===\n' "$(date -Is)" >> "$LOGS/$name.log"
setsid "${argv[@]}" >> "$LOGS/$name.log" 2>&1 < /dev/null &
echo $! > "$(pidfile "$name")"
case "$name" in
  etcd) wait_for 60 "etcd health" sh -c 'curl -sf http://127.0.0.1:2379/health | grep -q true' ;;
  kube-apiserver) wait_for 120 "kube-apiserver /readyz" sh -c "curl -sf --cacert $PKI/ca.crt --cert $PKI/admin.crt --key $PKI/admin.key $API/readyz | grep -q ok" ;;
  kubelet) wait_for 60 "kubelet healthz" curl -sf http://127.0.0.1:10248/healthz ;;
  *) ;;
esac
