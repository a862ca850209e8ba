#!/usr/bin/env bash
# make cluster-up: a real single-node Kubernetes (etcd, kube-apiserver, controller-manager,
# scheduler, kubelet, containerd, runc, CNI bridge) from offline parts. Idempotent: a
# healthy cluster is left as it is. Writes the admin kubeconfig to .cluster/kubeconfig and a
# least-privilege ServiceAccount kubeconfig to .cluster/hangar-sa.kubeconfig.
source "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || die "cluster-up needs root (containerd, kubelet, mounts)"
T_START=$(date +%s.%N)

if running kube-apiserver && running kubelet && [ -f "$OUT/kubeconfig" ] && kapi "$API/readyz" >/dev/null 2>&1; then
  echo "==> cluster already up ($(kapi "$API/version" | sed -n 's/.*"gitVersion": "\(.*\)".*/\1/p')); kubeconfig: $OUT/kubeconfig"
  exit 0
fi
if ls "$RUNDIR"/*.pid >/dev/null 2>&1 || [ -d "$STATE" ]; then
  echo "==> a partial cluster is left over: tearing it down first"
  "$REPO/test/cluster/cluster-down.sh"
fi

step "installing Debian packages (CNI plugins, etcd, debootstrap, iptables, libseccomp-dev for runc, a registry for the pull-credential tests)"
need=()
for p in containernetworking-plugins etcd-server libseccomp-dev debootstrap iptables iproute2 openssl curl gcc libc6-dev docker-registry apache2-utils skopeo xfsprogs e2fsprogs; do
  dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
done_step

"$REPO/test/cluster/build-binaries.sh"
"$REPO/test/cluster/build-runtime.sh"
"$REPO/test/cluster/build-gvisor.sh"
"$REPO/test/cluster/build-gateway.sh"
PATH="$RT_BIN:$GVISOR_BIN:$PATH"
"$REPO/test/cluster/build-images.sh"

step "preparing state, certificates and configuration"
mkdir -p "$STATE" "$RUNDIR" "$PKI" "$ETC/cni" "$LOGS" "$OUT"
# What exists before us, so cluster-down removes only what this cluster added.
iptables-save > "$STATE/iptables.before" 2>/dev/null || true
ip6tables-save > "$STATE/ip6tables.before" 2>/dev/null || true
ls /run/netns 2>/dev/null | sort > "$STATE/netns.before" || true
mount --make-rshared /
NODE_IP=$(ip -4 route get 1.1.1.1 2>/dev/null | sed -n 's/.* src \([0-9.]*\).*/\1/p')
[ -n "$NODE_IP" ] || NODE_IP=$(hostname -I | awk '{print $1}')
"$REPO/test/cluster/gen-certs.sh" "$PKI" "$NODE" "${NODE_IP:-127.0.0.1}"
b64() { base64 -w0 < "$1"; }
kubeconfig() { # kubeconfig FILE USER USER-FIELDS
  cat > "$1" <<YAML
apiVersion: v1
kind: Config
clusters:
- name: hangar-test
  cluster: { server: "$API", certificate-authority-data: "$(b64 "$PKI/ca.crt")" }
users:
- name: $2
  user: { $3 }
contexts:
- name: hangar-test
  context: { cluster: hangar-test, user: $2, namespace: $TEST_NS }
current-context: hangar-test
YAML
}
certs() { echo "client-certificate-data: \"$(b64 "$1")\", client-key-data: \"$(b64 "$2")\""; }
kubeconfig "$ETC/admin.kubeconfig" admin "$(certs "$PKI/admin.crt" "$PKI/admin.key")"
kubeconfig "$ETC/kubelet.kubeconfig" "system:node:$NODE" "$(certs "$PKI/kubelet-client.crt" "$PKI/kubelet-client.key")"
cat > "$ETC/containerd.toml" <<TOML
version = 2
root = "$STATE/containerd"
state = "$RUNDIR/containerd"
[grpc]
  address = "$CSOCK"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        BinaryName = "$RT_BIN/runc"
    # gVisor for RuntimeClass gvisor: a user-space kernel, and no network at all (runsc.toml).
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runsc]
      runtime_type = "io.containerd.runsc.v1"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runsc.options]
        TypeUrl = "io.containerd.runsc.v1.options"
        ConfigPath = "$ETC/runsc.toml"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$ETC/cni"
TOML
cat > "$ETC/runsc.toml" <<TOML
binary_name = "$GVISOR_BIN/runsc"
[runsc_config]
  network = "none"
  platform = "systrap"
TOML
cat > "$ETC/cni/10-hangar-test.conflist" <<JSON
{ "cniVersion": "1.0.0", "name": "hangar-test", "plugins": [
  { "type": "bridge", "bridge": "$BRIDGE", "isGateway": true, "ipMasq": false,
    "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$POD_SUBNET" }]], "routes": [{ "dst": "0.0.0.0/0" }] } },
  { "type": "portmap", "capabilities": { "portMappings": true } } ] }
JSON
cat > "$ETC/kubelet.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: 0.0.0.0
port: 10250
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $PKI/ca.crt }
authorization: { mode: Webhook }
tlsCertFile: $PKI/kubelet-server.crt
tlsPrivateKeyFile: $PKI/kubelet-server.key
containerRuntimeEndpoint: unix://$CSOCK
cgroupDriver: cgroupfs
cgroupRoot: /
failSwapOn: false
failCgroupV1: false
oomScoreAdj: 0
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: "100Mi", nodefs.available: "1%", imagefs.available: "1%", nodefs.inodesFree: "1%" }
resolvConf: /etc/resolv.conf
runtimeRequestTimeout: 5m
maxPods: 250
serializeImagePulls: false
# An image pulled with one sandbox's registry credentials is not handed to a pod without them: the
# kubelet asks the registry again (docs/security.md; Hangar's pull-credential test attacks this).
featureGates: { KubeletEnsureSecretPulledImages: true }
imagePullCredentialsVerificationPolicy: NeverVerifyPreloadedImages
YAML
done_step

start() { # start NAME CMD...
  local name=$1; shift
  setsid "$@" > "$LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$(pidfile "$name")"
}

step "starting containerd and importing the offline images"
start containerd containerd --config "$ETC/containerd.toml"
wait_for 30 "the containerd socket" test -S "$CSOCK"
wait_for 30 "containerd to answer" ctr -a "$CSOCK" version
for img in pause python noshell redis; do ctr -a "$CSOCK" -n k8s.io images import --no-unpack=false "$IMAGES/$img.tar" >/dev/null; done
# The SDK suite's Compose test names these images; with no registry here they are stand-ins made
# from the offline images above (Debian bookworm rootfs: python3, bash, getent; redis-server and
# redis-cli), which is all the test runs in them (docs/test-cluster.md). python:3.9 is the TLS
# passthrough test's (python3 and openssl).
while read -r from to; do ctr -a "$CSOCK" -n k8s.io images tag --force "$from" "$to" >/dev/null; done <<EOF
$PYTHON_IMAGE docker.io/library/python:3.12-slim
$PYTHON_IMAGE docker.io/library/ubuntu:22.04
$PYTHON_IMAGE docker.io/library/python:3.9
$REDIS_IMAGE docker.io/library/redis:7-alpine
EOF
ctr -a "$CSOCK" -n k8s.io images label "$PAUSE_IMAGE" io.cri-containerd.pinned=pinned >/dev/null
done_step

step "starting etcd"
mkdir -p /dev/shm/hangar-test-etcd
start etcd etcd --name hangar-test --data-dir /dev/shm/hangar-test-etcd/data \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster hangar-test=http://127.0.0.1:2380 --listen-metrics-urls http://127.0.0.1:2381
wait_for 30 "etcd health" sh -c 'curl -sf http://127.0.0.1:2379/health | grep -q true'
done_step

step "starting kube-apiserver (reachable from loopback and the pod bridge only)"
# Pods reach the apiserver through the kubernetes Service (10.96.0.1 -> $GATEWAY:6443, by
# kube-proxy); everything else outside this machine is refused.
iptables -N HANGAR-TEST-API 2>/dev/null || iptables -F HANGAR-TEST-API
iptables -A HANGAR-TEST-API -i lo -j ACCEPT
iptables -A HANGAR-TEST-API -i "$BRIDGE" -j ACCEPT
iptables -A HANGAR-TEST-API -j DROP
iptables -C INPUT -p tcp --dport 6443 -j HANGAR-TEST-API 2>/dev/null || iptables -I INPUT -p tcp --dport 6443 -j HANGAR-TEST-API
# ProcMountType (beta, off by default) keeps a pod's procMount as asked instead of resetting it to
# Default, so the sandbox admission policy's own procMount rule is what refuses Unmasked (test_admission.py).
start kube-apiserver "$BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 \
  --bind-address=0.0.0.0 --advertise-address="$GATEWAY" --secure-port=6443 --endpoint-reconciler-type=none \
  --tls-cert-file="$PKI/apiserver.crt" --tls-private-key-file="$PKI/apiserver.key" --client-ca-file="$PKI/ca.crt" \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$PKI/sa.pub" --service-account-signing-key-file="$PKI/sa.key" \
  --service-cluster-ip-range=10.96.0.0/16 --authorization-mode=Node,RBAC --enable-admission-plugins=NodeRestriction \
  --kubelet-client-certificate="$PKI/apiserver-kubelet-client.crt" --kubelet-client-key="$PKI/apiserver-kubelet-client.key" \
  --kubelet-certificate-authority="$PKI/ca.crt" --kubelet-preferred-address-types=Hostname,InternalIP \
  --allow-privileged=true --profiling=false --v=1 --feature-gates=ProcMountType=true
wait_for 120 "kube-apiserver /readyz" sh -c "curl -sf --cacert $PKI/ca.crt --cert $PKI/admin.crt --key $PKI/admin.key $API/readyz | grep -q ok"
done_step

step "starting kube-controller-manager and kube-scheduler"
start kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig="$ETC/admin.kubeconfig" \
  --authentication-kubeconfig="$ETC/admin.kubeconfig" --authorization-kubeconfig="$ETC/admin.kubeconfig" \
  --root-ca-file="$PKI/ca.crt" --service-account-private-key-file="$PKI/sa.key" \
  --use-service-account-credentials=false --leader-elect=false --bind-address=127.0.0.1 --v=1
start kube-scheduler "$BIN/kube-scheduler" --kubeconfig="$ETC/admin.kubeconfig" \
  --authentication-kubeconfig="$ETC/admin.kubeconfig" --authorization-kubeconfig="$ETC/admin.kubeconfig" \
  --leader-elect=false --bind-address=127.0.0.1 --kube-api-qps=500 --kube-api-burst=1000 --v=1
done_step

step "starting the kubelet (port 10250 reachable from loopback and the pod bridge only) and waiting for node $NODE to be Ready"
iptables -N HANGAR-TEST-KUBELET 2>/dev/null || iptables -F HANGAR-TEST-KUBELET
iptables -A HANGAR-TEST-KUBELET -i lo -j ACCEPT
iptables -A HANGAR-TEST-KUBELET -i "$BRIDGE" -j ACCEPT
iptables -A HANGAR-TEST-KUBELET -j DROP
iptables -C INPUT -p tcp --dport 10250 -j HANGAR-TEST-KUBELET 2>/dev/null || iptables -I INPUT -p tcp --dport 10250 -j HANGAR-TEST-KUBELET
mkdir -p "$STATE/kubelet"
start kubelet "$BIN/kubelet" --config="$ETC/kubelet.yaml" --kubeconfig="$ETC/kubelet.kubeconfig" --root-dir="$STATE/kubelet" --v=1
node_ready() { kapi "$API/api/v1/nodes/$NODE" | python3 -c 'import json,sys; n=json.load(sys.stdin); sys.exit(0 if any(c["type"]=="Ready" and c["status"]=="True" for c in n["status"]["conditions"]) and not any(t["key"].startswith("node.kubernetes.io/not-ready") for t in n["spec"].get("taints",[])) else 1)'; }
wait_for 180 "node $NODE Ready" node_ready
done_step

step "starting kube-proxy (iptables mode) and pointing the kubernetes Service at the apiserver"
start kube-proxy "$BIN/kube-proxy" --kubeconfig="$ETC/admin.kubeconfig" --proxy-mode=iptables --hostname-override="$NODE" \
  --cluster-cidr="$POD_SUBNET" --healthz-bind-address=127.0.0.1:10256 --metrics-bind-address=127.0.0.1:10249 \
  --conntrack-max-per-core=0 --v=1
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/discovery.k8s.io/v1/namespaces/default/endpointslices" --data-binary @- >/dev/null <<YAML
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: kubernetes-hangar-test
  labels: { kubernetes.io/service-name: kubernetes, endpointslice.kubernetes.io/managed-by: hangar-test }
addressType: IPv4
endpoints: [{ addresses: ["$GATEWAY"], conditions: { ready: true } }]
ports: [{ name: https, port: 6443, protocol: TCP }]
YAML
wait_for 30 "kube-proxy healthz" curl -sf http://127.0.0.1:10256/healthz
done_step

step "creating namespace $TEST_NS and a least-privilege ServiceAccount for Hangar"
kapi -X POST -H 'Content-Type: application/yaml' "$API/api/v1/namespaces" --data-binary @- >/dev/null <<YAML
apiVersion: v1
kind: Namespace
metadata: { name: $TEST_NS }
YAML
wait_for 60 "the default ServiceAccount in $TEST_NS" kapi "$API/api/v1/namespaces/$TEST_NS/serviceaccounts/default"
kapi -X POST -H 'Content-Type: application/yaml' "$API/api/v1/namespaces/$TEST_NS/serviceaccounts" --data-binary @- >/dev/null <<YAML
apiVersion: v1
kind: ServiceAccount
metadata: { name: hangar }
YAML
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/namespaces/$TEST_NS/roles" --data-binary @"$REPO/test/cluster/hangar-role.yaml" >/dev/null
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/namespaces/$TEST_NS/rolebindings" --data-binary @- >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: hangar }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: hangar }
subjects: [{ kind: ServiceAccount, name: hangar, namespace: $TEST_NS }]
YAML
# As the chart's rbac.readNodes: nodes (capacity, GPUs, and the addresses no sandbox may reach) and RuntimeClasses, read-only.
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/clusterroles" --data-binary @- >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: hangar-test-read-nodes }
rules:
- { apiGroups: [""], resources: [nodes], verbs: [get, list, watch] }
- { apiGroups: [node.k8s.io], resources: [runtimeclasses], verbs: [get, list, watch] }
YAML
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/clusterrolebindings" --data-binary @- >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: { name: hangar-test-read-nodes }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: hangar-test-read-nodes }
subjects: [{ kind: ServiceAccount, name: hangar, namespace: $TEST_NS }]
YAML
# The e2e suite's secret store (HANGAR_SECRET_STORES=team=kubernetes:hangar-secrets-{tenant}): one
# namespace per tenant, where Hangar may read Secrets and nothing else.
for tenant in alpha beta; do
  ns="hangar-secrets-$tenant"
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: { name: %s }\n' "$ns" | kapi -X POST -H 'Content-Type: application/yaml' "$API/api/v1/namespaces" --data-binary @- >/dev/null
  kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/namespaces/$ns/roles" --data-binary @- >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: hangar-read-secrets }
rules: [{ apiGroups: [""], resources: [secrets], verbs: [get] }]
YAML
  kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/rbac.authorization.k8s.io/v1/namespaces/$ns/rolebindings" --data-binary @- >/dev/null <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: { name: hangar-read-secrets }
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: Role, name: hangar-read-secrets }
subjects: [{ kind: ServiceAccount, name: hangar, namespace: $TEST_NS }]
YAML
done
TOKEN=$(kapi -X POST -H 'Content-Type: application/json' "$API/api/v1/namespaces/$TEST_NS/serviceaccounts/hangar/token" \
  -d '{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":86400}}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"]["token"])')
kubeconfig "$OUT/hangar-sa.kubeconfig" hangar "token: \"$TOKEN\""
cp "$ETC/admin.kubeconfig" "$OUT/kubeconfig"
done_step

source "$REPO/test/cluster/gateway-up.sh"

step "creating RuntimeClass gvisor (handler runsc, no network)"
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/node.k8s.io/v1/runtimeclasses" --data-binary @- >/dev/null <<YAML
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: { name: gvisor }
handler: runsc
YAML
done_step

step "importing the sandbox pods' init container image (hangar-netinit)"
"$REPO/test/cluster/netinit-image.sh" >/dev/null
done_step

step "starting hangar-forkcsi, the node plugin for copy-on-write restores (ADR 0029), on an XFS pool with reflinks"
make -s -C "$REPO" .build/hangar-forkcsi >/dev/null
mkdir -p "$STATE/fork-pool" "$STATE/snapshots"
if ! findmnt -rn "$STATE/fork-pool" >/dev/null; then
  # A sparse file: it holds the layers (one ext4 image per snapshot and size) and each volume's
  # clone of one; only what is written takes room.
  [ -f "$STATE/fork-pool.img" ] || { truncate -s 200G "$STATE/fork-pool.img" && mkfs.xfs -q -m reflink=1 "$STATE/fork-pool.img"; }
  mount -o loop "$STATE/fork-pool.img" "$STATE/fork-pool"
fi
running hangar-forkcsi || start hangar-forkcsi "$REPO/.build/hangar-forkcsi" --driver-name fork.csi.hangar.dev --kubelet-dir "$STATE/kubelet" \
  --pool "$STATE/fork-pool" --snapshots "$STATE/snapshots" --namespace "$TEST_NS" --node-id "$NODE"
kapi -X POST -H 'Content-Type: application/yaml' "$API/apis/storage.k8s.io/v1/csidrivers" --data-binary @- >/dev/null <<YAML || true
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: { name: fork.csi.hangar.dev }
spec: { attachRequired: false, podInfoOnMount: true, volumeLifecycleModes: [Ephemeral], fsGroupPolicy: None }
YAML
wait_for 60 "the kubelet to register hangar-forkcsi" sh -c "curl -sf --cacert $PKI/ca.crt --cert $PKI/admin.crt --key $PKI/admin.key $API/apis/storage.k8s.io/v1/csinodes/$NODE | grep -q fork.csi.hangar.dev"
done_step

step "starting hangar-pullwatch, the node reporter of image pulls in progress (ADR 0038), on the node's address"
make -s -C "$REPO" .build/hangar-pullwatch >/dev/null
running hangar-pullwatch || start hangar-pullwatch "$REPO/.build/hangar-pullwatch" \
  --content "$STATE/containerd/io.containerd.content.v1.content" --listen "${NODE_IP:-127.0.0.1}:$PULLWATCH_PORT"
wait_for 20 "hangar-pullwatch to answer" curl -sf "http://${NODE_IP:-127.0.0.1}:$PULLWATCH_PORT/healthz"
done_step

awk -v a="$(date +%s.%N)" -v b="$T_START" 'BEGIN { printf "==> cluster up in %.1fs; KUBECONFIG=%s\n", a - b, "'"$OUT/kubeconfig"'" }'
