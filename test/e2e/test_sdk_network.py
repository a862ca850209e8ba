"""What a sandbox can reach over the network on Kubernetes, through the real SDK (ADR 0012,
docs/security.md). Every "cannot reach" target is first reached by a control pod in the same
namespace that has no Hangar rules, so a target that is simply down cannot pass for a blocked one;
the stand-in internet and the metadata address live in a network namespace of the test's own
(conftest.internet), so nothing leaves the machine even if the rules fail."""
import json
import secrets
import socket
import time

import pytest
from cwsandbox import CidrBlock, EgressRule, NetworkOptions, Sandbox
from cwsandbox.exceptions import CWSandboxError

from conftest import DEPLOY_NAMESPACE, DEPLOYED, FETCH, NAMESPACE, TEST_GATEWAY, _kube, _kube_text, point_sdk_at, start_hangar, stop_hangar

pytestmark = pytest.mark.kubernetes_only

# Runs in a pod or a sandbox: one line per target, "gateway" standing for the pod's default gateway.
PROBE = r"""
import json, socket, sys
def gateway():
    for line in open("/proc/net/route").read().splitlines()[1:]:
        f = line.split()
        if f[1] == "00000000":
            v = int(f[2], 16)
            return ".".join(str((v >> s) & 255) for s in (0, 8, 16, 24))
out = {}
for t in sys.argv[1:]:
    host, port = t.rsplit(":", 1)
    if host == "gateway":
        host = gateway()
        if host is None:
            out[t] = "no default route"
            continue
    s = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    s.settimeout(3)
    try:
        s.connect((host, int(port)))
        out[t] = "CONNECTED"
    except socket.timeout:
        out[t] = "timeout"
    except OSError as e:
        out[t] = e.strerror or str(e)
    finally:
        s.close()
print(json.dumps(out))
"""


def node_ip() -> str:
    node = _kube("GET", "/api/v1/nodes")["items"][0]
    return next(a["address"] for a in node["status"]["addresses"] if a["type"] == "InternalIP")


def pod_ip_of(sandbox_id: str) -> str:
    deadline = time.time() + 30
    while time.time() < deadline:
        pods = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev/sandbox-id%3D{sandbox_id}")["items"]
        ip = pods[0]["status"].get("podIP") if pods else None
        if ip:
            return ip
        time.sleep(0.2)
    raise AssertionError(f"no pod IP for sandbox {sandbox_id}")


def control_probe(targets: list[str]) -> dict[str, str]:
    """PROBE from a plain pod of the sandbox namespace (no init container, no rules)."""
    name = f"hangar-control-{secrets.token_hex(4)}"
    pod = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "labels": {"app.kubernetes.io/managed-by": "hangar-e2e-control"}},
        "spec": {"restartPolicy": "Never", "automountServiceAccountToken": False, "terminationGracePeriodSeconds": 0,
                 # Sandbox-shaped: on the deployed tier the namespace's admission policy holds every pod to it.
                 "securityContext": {"seccompProfile": {"type": "RuntimeDefault"}},
                 "containers": [{"name": "probe", "image": "python:3.11", "imagePullPolicy": "IfNotPresent", "command": ["python3", "-c", PROBE, *targets],
                                 "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}}}]},
    }
    _kube("POST", f"/api/v1/namespaces/{NAMESPACE}/pods", json.dumps(pod).encode())
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            phase = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}")["status"].get("phase")
            if phase in ("Succeeded", "Failed"):
                break
            time.sleep(0.3)
        log = _kube_text(f"/api/v1/namespaces/{NAMESPACE}/pods/{name}/log")
        return json.loads(log.strip().splitlines()[-1])
    finally:
        _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}")


def sandbox_probe(sb, targets: list[str]) -> dict[str, str]:
    r = sb.exec(["python3", "-c", PROBE, *targets], timeout_seconds=120).result()
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture
def host_listener():
    """A listener on every address of the node: stands for any node service, and for a Hangar bound to 0.0.0.0 on it."""
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", 0))
    srv.listen(64)
    yield srv.getsockname()[1]
    srv.close()


def hangar_targets() -> list[str]:
    """In-cluster Hangar (the deployed tier): its Service and every replica, gRPC and metrics."""
    if not DEPLOYED:
        return []
    svc = _kube("GET", f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/services/hangar")
    out = [f"{svc['spec']['clusterIP']}:{p['port']}" for p in svc["spec"]["ports"]]
    for p in _kube("GET", f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/pods?labelSelector=app.kubernetes.io/name%3Dhangar")["items"]:
        if p["status"].get("podIP"):
            out += [f"{p['status']['podIP']}:{c['containerPort']}" for c in p["spec"]["containers"][0]["ports"]]
    return out


def cluster_targets(host_port: int, metadata: str) -> list[str]:
    api = _kube("GET", "/api/v1/namespaces/default/services/kubernetes")["spec"]["clusterIP"]
    node = node_ip()
    return [
        f"{api}:443",  # the kube-apiserver's Service
        "gateway:6443", f"{node}:6443",  # the kube-apiserver on the node
        "gateway:10250", f"{node}:10250",  # the kubelet
        f"gateway:{host_port}", f"{node}:{host_port}",  # any other node port (a Hangar on the node)
        f"{metadata}:80",  # cloud metadata
        *hangar_targets(),
    ]


def test_a_sandbox_reaches_nothing_of_the_cluster_with_or_without_egress(hangar, internet, host_listener):
    targets = cluster_targets(host_listener, internet.metadata)
    control = control_probe(targets)
    assert all(v == "CONNECTED" for v in control.values()), f"the control pod must reach every target first: {control}"
    default = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300)
    allowed = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
    try:
        for sb in (default, allowed):
            sb.wait()
            got = sandbox_probe(sb, targets)
            assert not [t for t, v in got.items() if v == "CONNECTED"], got
        # The allowed one does reach the internet (so the rules above are not just "no network").
        assert allowed.exec(["python3", "-c", FETCH, f"http://{internet.address}:8080/"], timeout_seconds=60).result().stdout == "internet-ok\n"
    finally:
        default.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        allowed.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def test_no_sandbox_reaches_another_of_the_same_or_another_tenant(hangar, monkeypatch):
    listener = Sandbox.run("python3", "-m", "http.server", "8000", tags=["e2e-network"], max_lifetime_seconds=300)
    same = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
    point_sdk_at(monkeypatch, hangar, "beta")
    other = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
    try:
        listener.wait()
        target = f"{pod_ip_of(listener.sandbox_id)}:8000"
        deadline = time.time() + 30
        while sandbox_probe(listener, ["127.0.0.1:8000"])["127.0.0.1:8000"] != "CONNECTED":
            assert time.time() < deadline, "the listener sandbox never listened"
            time.sleep(0.3)
        for sb in (same, other):
            sb.wait()
            assert sandbox_probe(sb, [target])[target] != "CONNECTED"
    finally:
        for sb in (listener, same, other):
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def fetch(sb, url: str) -> str:
    return sb.exec(["python3", "-c", FETCH, url], timeout_seconds=60).result().stdout.strip()


def test_egress_grants_by_cidr_exception_and_port(hangar, internet):
    a = internet.address
    net = a.rsplit(".", 1)[0]
    port_only = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(egress=[EgressRule(cidr=f"{a}/32", ports=[8080])]))
    excepted = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(egress=[EgressRule(cidr=CidrBlock(cidr=f"{net}.0/24", except_cidrs=(f"{a}/32",)))]))
    anywhere = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(egress=[EgressRule(any=True)]))
    try:
        for sb in (port_only, excepted, anywhere):
            sb.wait()
        assert fetch(port_only, f"http://{a}:8080/") == "internet-ok"
        assert fetch(port_only, f"http://{a}:8081/").startswith("failed")
        assert fetch(excepted, f"http://{a}:8080/").startswith("failed")
        assert fetch(anywhere, f"http://{a}:8081/") == "internet-ok"
        for sb in (port_only, excepted, anywhere):
            assert fetch(sb, f"http://{internet.metadata}/").startswith("failed")
        got = Sandbox.from_id(port_only.sandbox_id).result()
        assert [(r.cidr.cidr if r.cidr else None, [p.port for p in r.ports or ()]) for r in got.effective_egress] == [(f"{a}/32", [8080])]
    finally:
        for sb in (port_only, excepted, anywhere):
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


@pytest.mark.parametrize("rule, field, why", [
    (EgressRule(cidr="10.1.2.3/32"), "network.egress[0].cidr", "which sandboxes never reach"),
    (EgressRule(dns_name="pypi"), "network.egress[0].https_hostname", "hostname"),
])
def test_grants_hangar_cannot_honour_are_refused_naming_the_field(hangar, rule, field, why):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-network"], network=NetworkOptions(egress=[rule])).wait()
    assert field in str(e.value) and why in str(e.value), e.value


# Through HTTPS_PROXY (set by Hangar for a sandbox with hostname grants): CONNECT name:443, then a
# plain HTTP GET inside the tunnel (the stand-in internet serves HTTP on 443; TLS is not the point).
VIA_PROXY = r"""
import http.client, os, sys
proxy = os.environ.get("HTTPS_PROXY", "")
if not proxy:
    print("no HTTPS_PROXY"); sys.exit()
host, port = proxy[len("http://"):].rsplit(":", 1)
c = http.client.HTTPConnection(host, int(port), timeout=5)
c.set_tunnel(sys.argv[1], 443)
try:
    c.request("GET", "/")
    print(c.getresponse().read().decode())
except Exception as e:
    print("failed", e)
"""


@pytest.mark.own_hangar
def test_hostname_grants_go_through_hangars_proxy_and_nowhere_else(monkeypatch, internet):
    # A Hangar whose proxy resolves the test's names to the stand-in internet (and one into the cluster).
    # Every granted name is pinned: the proxy never asks DNS, so nothing leaves the machine. It
    # listens on all addresses (the pod bridge appears with the first pod); sandboxes dial the gateway.
    h = start_hangar({"HANGAR_KUBE_EGRESS_PROXY_LISTEN": "0.0.0.0:0", "HANGAR_KUBE_EGRESS_PROXY_ADDRESS": f"{TEST_GATEWAY}:0",
                      "HANGAR_KUBE_EGRESS_PROXY_PINNED": f"allowed.test={internet.address},a.wild.test={internet.address},inside.test=10.96.0.1"})
    try:
        point_sdk_at(monkeypatch, h)
        sb = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(egress=[EgressRule(dns_name="allowed.test"), EgressRule(dns_name="*.wild.test"), EgressRule(dns_name="inside.test")]))
        plain = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
        try:
            sb.wait()
            plain.wait()
            via = lambda name: sb.exec(["python3", "-c", VIA_PROXY, name], timeout_seconds=60).result().stdout.strip()  # noqa: E731
            assert via("allowed.test") == "internet-ok"
            assert via("a.wild.test") == "internet-ok"
            assert via("denied.test").startswith("failed") and "403" in via("denied.test")
            assert via("inside.test").startswith("failed")  # granted, but it resolves into the cluster
            # Not around the proxy: the address itself is not granted.
            assert fetch(sb, f"http://{internet.address}:443/").startswith("failed")
            # The proxy is reachable only by sandboxes with hostname grants.
            proxy = sb.exec(["/bin/sh", "-c", "echo $HTTPS_PROXY"], timeout_seconds=30).result().stdout.strip()[len("http://"):]
            assert proxy.startswith(f"{TEST_GATEWAY}:"), proxy
            assert sandbox_probe(plain, [proxy])[proxy] != "CONNECTED"
            got = Sandbox.from_id(sb.sandbox_id).result()
            assert sorted(r.dns_name for r in got.effective_egress) == ["*.wild.test", "allowed.test", "inside.test"]
        finally:
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
            plain.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    finally:
        assert stop_hangar(h) == 0


@pytest.mark.own_hangar
def test_the_proxy_refuses_names_resolving_to_ipv6_forms_of_the_cluster(monkeypatch, internet):
    # A tenant may grant itself any name; each of these resolves (pinned) to an IPv6 form that carries
    # the apiserver Service, cloud metadata or the node. Before the fix the proxy tunnelled the mapped
    # forms (HTTP 200 Connection Established into the cluster).
    api = _kube("GET", "/api/v1/namespaces/default/services/kubernetes")["spec"]["clusterIP"]
    node = node_ip()
    hexed = lambda a: "%02x%02x:%02x%02x" % tuple(int(o) for o in a.split("."))  # noqa: E731
    names = {
        "api-mapped.test": f"::ffff:{api}", "api-nat64.test": f"64:ff9b::{hexed(api)}", "api-compat.test": f"::{api}",
        "meta-mapped.test": "::ffff:169.254.169.254", "meta-6to4.test": f"2002:{hexed('169.254.169.254')}::1",
        "node-mapped.test": f"::ffff:{node}", "node-translated.test": f"::ffff:0:{node}", "node.test": node,
        "loop-mapped.test": "::ffff:127.0.0.1",
    }
    h = start_hangar({"HANGAR_KUBE_EGRESS_PROXY_LISTEN": "0.0.0.0:0", "HANGAR_KUBE_EGRESS_PROXY_ADDRESS": f"{TEST_GATEWAY}:0",
                      "HANGAR_KUBE_EGRESS_PROXY_PINNED": ",".join([f"allowed.test={internet.address}", *(f"{n}={a}" for n, a in names.items())])})
    try:
        point_sdk_at(monkeypatch, h)
        sb = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, network=NetworkOptions(egress=[EgressRule(dns_name=n) for n in ["allowed.test", *names]]))
        try:
            sb.wait()
            via = lambda name: sb.exec(["python3", "-c", VIA_PROXY, name], timeout_seconds=60).result().stdout.strip()  # noqa: E731
            assert via("allowed.test") == "internet-ok"  # the proxy itself works for this sandbox
            for name in names:
                got = via(name)
                assert got.startswith("failed") and "403" in got, (name, names[name], got)
        finally:
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    finally:
        assert stop_hangar(h) == 0


GVISOR_CHECKS = r"""
import ctypes, json, os, platform
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    r = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    return "ok" if r >= 0 else os.strerror(ctypes.get_errno())
print(json.dumps({
    "kernel": open("/proc/version").read(),
    "interfaces": sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else [l.split(":")[0].strip() for l in open("/proc/net/dev").read().splitlines()[2:]],
    "keyctl": call(250, 0, 0, 0, 0, 0), "bpf": call(321, 0, 0, 0), "io_uring": call(425, 1, 0),
}))
"""


def test_gvisor_sandboxes_run_in_a_user_space_kernel_with_no_network(hangar, internet, host_listener):
    sb = Sandbox.run(tags=["e2e-network"], max_lifetime_seconds=300, runtime_class="gvisor")
    try:
        sb.wait()
        r = sb.exec(["python3", "-c", GVISOR_CHECKS], timeout_seconds=120).result()
        got = json.loads(r.stdout.strip().splitlines()[-1])
        assert "-gvisor" in got["kernel"], got  # runsc's own kernel, not the node's
        assert got["interfaces"] == ["lo"], got  # runsc --network=none: loopback only
        assert all(got[k] != "ok" for k in ("keyctl", "bpf", "io_uring")), got
        targets = cluster_targets(host_listener, internet.metadata) + [f"{internet.address}:8080"]
        reached = [t for t, v in sandbox_probe(sb, targets).items() if v == "CONNECTED"]
        assert reached == [], reached
        assert Sandbox.from_id(sb.sandbox_id).result().effective_egress == ()
    finally:
        sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-network"], runtime_class="gvisor", network=NetworkOptions(deny_egress=False)).wait()
    assert "network.deny_egress" in str(e.value) and "no network at all" in str(e.value), e.value
