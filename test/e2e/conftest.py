"""End-to-end tests: the real cwsandbox SDK (from PyPI) against a real Hangar on 127.0.0.1:0.

`make test-e2e` builds Hangar first; these fixtures start `node --max-semi-space-size=4 dist/cmd/main.js` (as the image does) with an
API keys file of two tenants and point the SDK at it through CWSANDBOX_BASE_URL.
With HANGAR_E2E_TARGET=http://host:port (and HANGAR_E2E_KEYS_FILE) the suite runs against a
Hangar deployed by the Helm chart instead (make test-e2e-deployed); tests that start their own
Hangar process are marked own_hangar and left out there.
"""
from __future__ import annotations

import json
import re
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NODE = REPO / "node_modules/.bin/node"
# HANGAR_E2E_RUNTIME=kubernetes runs the same suite against the Kubernetes runtime on the
# cluster KUBECONFIG names (make test-cluster does this after cluster-up).
RUNTIME = os.environ.get("HANGAR_E2E_RUNTIME", "local")
LOCAL_IMAGES = os.path.join(os.environ.get("HANGAR_TEST_CACHE", "/var/cache/hangar-test"), "images-v1")
NAMESPACE = os.environ.get("HANGAR_TEST_NAMESPACE", "hangar-test")
DEPLOYED = os.environ.get("HANGAR_E2E_TARGET", "")
DEPLOY_NAMESPACE = os.environ.get("HANGAR_E2E_DEPLOY_NAMESPACE", "hangar-system")
# The test cluster's hangar-forkcsi (test/cluster/cluster-up.sh, ADR 0029): it reads snapshot
# archives under FORK_SNAPSHOTS, so a Hangar that restores copy-on-write keeps its snapshots there.
FORK_DRIVER = "fork.csi.hangar.dev"
FORK_SNAPSHOTS = "/var/lib/hangar-test/snapshots"
PULLWATCH_PORT = 9470  # test/cluster/lib.sh PULLWATCH_PORT
TEST_GATEWAY = "10.88.7.1"  # the test cluster's pod bridge on this host (test/cluster/lib.sh GATEWAY)


def pytest_collection_modifyitems(config, items):
    """Tests marked local_only check what only the local runtime does (its uid, host masking)."""
    if RUNTIME != "local":
        items[:] = [i for i in items if i.get_closest_marker("local_only") is None]
    if RUNTIME != "kubernetes":
        items[:] = [i for i in items if i.get_closest_marker("kubernetes_only") is None]
    if DEPLOYED:
        items[:] = [i for i in items if i.get_closest_marker("own_hangar") is None and i.get_closest_marker("one_replica") is None]
    else:
        items[:] = [i for i in items if i.get_closest_marker("deployed_only") is None]


def pytest_configure(config):
    config.addinivalue_line("markers", "local_only: checks behaviour specific to the embedded local runtime")
    config.addinivalue_line("markers", "kubernetes_only: checks behaviour specific to the Kubernetes runtime (records kept on pods)")
    config.addinivalue_line("markers", "own_hangar: starts its own Hangar process (not run against a deployed Hangar)")
    config.addinivalue_line("markers", "deployed_only: needs Hangar deployed by the chart (HANGAR_E2E_TARGET)")
    config.addinivalue_line("markers", "one_replica: needs a call to see the previous call's delete at once; behind a Service of two replicas the other replica learns it from the pod watch a moment later (docs/errors.md)")


def _kube(method: str, path: str, body: bytes | None = None, content_type: str = "application/json"):
    """One request to the apiserver as the admin kubeconfig from cluster-up (KUBECONFIG)."""
    return json.loads(_kube_text(path, method, body, content_type))


def _kube_text(path: str, method: str = "GET", body: bytes | None = None, content_type: str = "application/json") -> str:
    import base64
    import re
    import ssl
    import urllib.request

    text = Path(os.environ["KUBECONFIG"]).read_text()
    field = lambda k: base64.b64decode(re.search(rf'{k}: "([^"]+)"', text).group(1))
    tmp = tempfile.mkdtemp(prefix="hangar-kc-")
    paths = {}
    for k in ("certificate-authority-data", "client-certificate-data", "client-key-data"):
        paths[k] = os.path.join(tmp, k)
        Path(paths[k]).write_bytes(field(k))
    ctx = ssl.create_default_context(cafile=paths["certificate-authority-data"])
    ctx.load_cert_chain(paths["client-certificate-data"], paths["client-key-data"])
    server = re.search(r'server: "([^"]+)"', text).group(1)
    req = urllib.request.Request(f"{server}{path}", data=body, method=method, headers={"Content-Type": content_type})
    with urllib.request.urlopen(req, context=ctx, timeout=10) as r:
        return r.read().decode(errors="replace")


def hangar_pod_objects() -> list[dict]:
    return _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dhangar")["items"]


def hangar_pods() -> list[str]:
    """Names of pods Hangar manages in the test namespace."""
    return [p["metadata"]["name"] for p in hangar_pod_objects()]


def still_running_pods() -> list[str]:
    """Sandbox pods that have not finished: after a suite, none may be left (finished ones are
    records). Idle warm-pool pods are not sandboxes: the pool keeps them by configuration."""
    return [f'{p["metadata"]["name"]} ({p["status"].get("phase")})' for p in hangar_pod_objects()
            if p["status"].get("phase") not in ("Succeeded", "Failed") and not ("hangar.dev/warm-pool" in p["metadata"].get("labels", {}) and "hangar.dev/sandbox-id" not in p["metadata"].get("labels", {}))]


def release_records() -> None:
    """Ends retention by hand: removes the record finalizer and deletes every Hangar pod, so the next suite starts clean."""
    for name in hangar_pods():
        try:
            _kube("PATCH", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}", b'{"metadata":{"finalizers":null}}', "application/merge-patch+json")
            _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}?gracePeriodSeconds=0")
        except Exception:  # already gone
            pass


@dataclass
class Hangar:
    port: int
    metrics_port: int | None
    url: str
    keys: dict[str, str]
    data_dir: str
    proc: subprocess.Popen | None
    log_path: str
    host: str = "127.0.0.1"

    def log(self) -> str:
        if self.proc is None:
            return deployed_logs()
        return Path(self.log_path).read_text(errors="replace")


def hangar_replicas() -> list[dict]:
    """The deployed Hangar's pods (chart labels)."""
    sel = "app.kubernetes.io%2Fname%3Dhangar"
    return _kube("GET", f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/pods?labelSelector={sel}")["items"]


def deployed_logs() -> str:
    out = []
    for p in hangar_replicas():
        name = p["metadata"]["name"]
        try:
            out.append(_kube_text(f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/pods/{name}/log?container=hangar"))
        except Exception as e:  # a replica killed on purpose has no log left
            out.append(f"[{name}: {e}]")
    return "\n".join(out)


def deployed_hangar() -> Hangar:
    from urllib.parse import urlparse

    u = urlparse(DEPLOYED)
    keys = dict(line.split(":", 1) for line in Path(os.environ["HANGAR_E2E_KEYS_FILE"]).read_text().split() if ":" in line)
    return Hangar(u.port or 80, 9464, DEPLOYED, keys, "/tmp/hangar", None, "", host=u.hostname or "127.0.0.1")


def netinit_image() -> str:
    """The sandbox pods' init container image in the test cluster (test/cluster/netinit-image.sh imports it)."""
    f = REPO / ".cluster/netinit-image"
    if not f.exists():
        raise RuntimeError(f"{f} is missing: run bash test/cluster/netinit-image.sh (the Makefile's Kubernetes targets do)")
    return f.read_text().strip()


PUBLIC_GATEWAY = "hangar-gateway/public/web"
PUBLIC_URL = "http://127.0.0.1:18080"
# TLS passthrough endpoints: the same Gateway's TLS listener (SNI names <id>-<port>.localhost).
PUBLIC_TLS_GATEWAY = "hangar-gateway/public/tls"
PUBLIC_TLS_ADDRESS = ("127.0.0.1", 18443)


# HTTPS endpoints: the Gateway's HTTPS listener (TLS terminated there with a certificate of the
# cluster's CA, .cluster/gateway-ca.crt; host names under *.sbx.localhost, RFC 6761 loopback names).
PUBLIC_HTTPS_GATEWAY = "hangar-gateway/public/websecure"
PUBLIC_HTTPS_URL = "https://*.sbx.localhost:18444"
GATEWAY_CA = REPO / ".cluster/gateway-ca.crt"
SHARE_TOKEN_MIDDLEWARE = "hangar-share-token"


def https_endpoints_env() -> dict[str, str]:
    """Settings for a Hangar whose PUBLIC ports are published on the Gateway's HTTPS listener, with
    HTTPS share-token endpoints: a key of its own, its share-token check on a free loopback port, and
    the sandbox namespace's Traefik Middleware (the operator's forward-auth filter) pointed at that
    check. The Middleware is the test's stand-in for what an operator sets up once."""
    tmp = tempfile.mkdtemp(prefix="hangar-share-token-")
    key = os.path.join(tmp, "key")
    Path(key).write_bytes(secrets.token_bytes(32))
    os.chmod(key, 0o600)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    middleware = {"apiVersion": "traefik.io/v1alpha1", "kind": "Middleware", "metadata": {"name": SHARE_TOKEN_MIDDLEWARE, "namespace": NAMESPACE},
                  "spec": {"forwardAuth": {"address": f"http://127.0.0.1:{port}/share-token", "trustForwardHeader": False}}}
    _kube("PATCH", f"/apis/traefik.io/v1alpha1/namespaces/{NAMESPACE}/middlewares/{SHARE_TOKEN_MIDDLEWARE}?fieldManager=hangar-e2e&force=true",
          json.dumps(middleware).encode(), "application/apply-patch+yaml")
    return dict(HANGAR_PUBLIC_GATEWAY=PUBLIC_HTTPS_GATEWAY, HANGAR_PUBLIC_URL=PUBLIC_HTTPS_URL,
                HANGAR_PUBLIC_AUTH_FILTER=f"traefik.io/Middleware/{SHARE_TOKEN_MIDDLEWARE}",
                HANGAR_SHARE_TOKEN_KEY_FILE=key, HANGAR_SHARE_TOKEN_CHECK_LISTEN=f"127.0.0.1:{port}")


def start_hangar(extra_env: dict[str, str] | None = None, keys: bool = True, prefix: list[str] | None = None) -> Hangar:
    """Starts dist/cmd/main.js (after `prefix`, e.g. a pid namespace and an init) with its own data dir and keys."""
    tmp = tempfile.mkdtemp(prefix="hangar-e2e-")
    os.chmod(tmp, 0o755)  # sandboxes start as unprivileged slot uids, which must reach the data dir
    key_map = {"alpha": "alpha-" + secrets.token_hex(16), "beta": "beta-" + secrets.token_hex(16)}
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANGAR_")}
    env.update(
        HANGAR_LISTEN="127.0.0.1:0",
        HANGAR_METRICS_LISTEN="127.0.0.1:0",
        HANGAR_DATA_DIR=os.path.join(tmp, "data"),
        HANGAR_REAP_INTERVAL_MS="200",
        HANGAR_LOG_LEVEL="info",
        # The offline images (make images); the unpacked copies are shared by every Hangar of the run.
        HANGAR_LOCAL_IMAGE_DIRS=LOCAL_IMAGES,
        HANGAR_LOCAL_IMAGE_CACHE_DIR=os.path.join(tempfile.gettempdir(), "hangar-e2e-image-cache"),
        HANGAR_LOCAL_IMAGE_PULL="false",
    )
    if RUNTIME == "kubernetes":
        # Hangar runs as HANGAR_E2E_KUBECONFIG (the least-privilege ServiceAccount in make
        # test-cluster); KUBECONFIG (admin) is only for the leak check below.
        env.update(HANGAR_RUNTIME="kubernetes", HANGAR_NAMESPACE=NAMESPACE, HANGAR_STARTUP_TIMEOUT_SECONDS="60",
                   KUBECONFIG=os.environ.get("HANGAR_E2E_KUBECONFIG", os.environ["KUBECONFIG"]),
                   HANGAR_KUBE_NETINIT_IMAGE=netinit_image(),
                   # The test cluster's RuntimeClass gvisor runs runsc with --network=none.
                   HANGAR_KUBE_GVISOR_RUNTIME_CLASSES="gvisor",
                   # Hangar runs on the node here: a directory of its own holds the snapshots (the chart names a shared volume),
                   # where the cluster's node plugin reads them to serve restores copy-on-write.
                   HANGAR_SNAPSHOT_DIR=tempfile.mkdtemp(prefix="e2e-", dir=FORK_SNAPSHOTS) if os.path.isdir(FORK_SNAPSHOTS) else os.path.join(tmp, "snapshots"),
                   HANGAR_KUBE_FORK_DRIVER=FORK_DRIVER if os.path.isdir(FORK_SNAPSHOTS) else "",
                   # The test cluster's hangar-pullwatch (test/cluster/cluster-up.sh, ADR 0038): PREPARING shows the pull's bytes.
                   HANGAR_KUBE_PULL_PROGRESS_PORT=str(PULLWATCH_PORT),
                   # PUBLIC services: the test cluster's Gateway (test/cluster/gateway-up.sh), path routing on loopback.
                   HANGAR_PUBLIC_GATEWAY=PUBLIC_GATEWAY, HANGAR_PUBLIC_URL=PUBLIC_URL,
                   HANGAR_PUBLIC_TLS_GATEWAY=PUBLIC_TLS_GATEWAY, HANGAR_PUBLIC_TLS_ADDRESS=f"*.localhost:{PUBLIC_TLS_ADDRESS[1]}")
    if keys:
        keys_file = os.path.join(tmp, "keys")
        with open(keys_file, "w") as f:
            f.write("# e2e tenants\n\n" + "".join(f"{t}:{k}\n" for t, k in key_map.items()))
        env["HANGAR_API_KEYS_FILE"] = keys_file
    env.update(extra_env or {})
    log_path = os.path.join(tmp, "hangar.log")
    log = open(log_path, "w")
    proc = subprocess.Popen([*(prefix or []), str(NODE), "--max-semi-space-size=4", str(REPO / "dist/cmd/main.js")], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
    deadline = time.time() + 20
    while time.time() < deadline:
        for line in Path(log_path).read_text().splitlines():
            if '"msg":"listening"' in line:
                rec = json.loads(line)
                port = rec["port"]
                return Hangar(port, rec.get("metrics_port"), f"http://127.0.0.1:{port}", key_map, env["HANGAR_DATA_DIR"], proc, log_path)
        if proc.poll() is not None:
            raise RuntimeError(f"hangar exited with {proc.returncode}:\n{Path(log_path).read_text()}")
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("hangar did not start listening within 20 s:\n" + Path(log_path).read_text())


def point_sdk_at(monkeypatch, h: Hangar, tenant: str = "alpha") -> None:
    """The SDK's calls in this test go to Hangar h as the given tenant."""
    monkeypatch.setenv("CWSANDBOX_BASE_URL", h.url)
    monkeypatch.setenv("CWSANDBOX_API_KEY", h.keys[tenant])


def sandbox_processes(data_dir: str) -> list[str]:
    """Host processes that belong to sandboxes of this Hangar (bwrap with its data dir)."""
    out = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            cmd = (p / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if data_dir in cmd:
            out.append(f"{p.name}: {cmd[:200]}")
    return out


def stop_hangar(h: Hangar) -> int:
    h.proc.send_signal(signal.SIGTERM)
    try:
        return h.proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        h.proc.kill()
        raise


@pytest.fixture(scope="session")
def hangar():
    if DEPLOYED:
        h = deployed_hangar()
        os.environ["CWSANDBOX_BASE_URL"] = h.url
        os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
        yield h
        deadline = time.time() + 60
        while still_running_pods() and time.time() < deadline:
            time.sleep(0.5)
        assert still_running_pods() == [], f"sandbox pods still running after the suite: {still_running_pods()}"
        release_records()
        assert "internal error" not in h.log(), "an RPC failed with INTERNAL; see the replicas' logs"
        return
    h = start_hangar()
    os.environ["CWSANDBOX_BASE_URL"] = h.url
    os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
    yield h
    code = stop_hangar(h)
    assert code == 0, f"hangar exited with {code} on SIGTERM:\n{h.log()[-4000:]}"
    leftovers = sandbox_processes(h.data_dir)
    assert leftovers == [], f"sandbox processes left after shutdown: {leftovers}"
    if RUNTIME == "kubernetes":
        # Finished sandboxes stay as terminated pods (their records) until retention ends; none may still run.
        deadline = time.time() + 30
        while still_running_pods() and time.time() < deadline:
            time.sleep(0.5)
        assert still_running_pods() == [], f"sandbox pods still running after the suite: {still_running_pods()}"
        release_records()
        deadline = time.time() + 30
        while hangar_pods() and time.time() < deadline:
            time.sleep(0.5)
        assert hangar_pods() == [], f"sandbox pods left after their records were released: {hangar_pods()}"
    assert "internal error" not in h.log(), "an RPC failed with INTERNAL; see the log"


@pytest.fixture
def sandbox(hangar):
    from cwsandbox import Sandbox

    sb = Sandbox.run(tags=["e2e"], max_lifetime_seconds=300)
    sb.wait()
    yield sb
    sb.stop(missing_ok=True).result()


def free_test_range() -> str:
    """A /24 of the benchmarking range 198.18.0.0/15 that no route of this machine uses."""
    routes = subprocess.run(["ip", "-4", "route", "show", "table", "all"], capture_output=True, text=True, check=True).stdout
    for i in range(256):
        net = f"198.18.{i}"
        if f"{net}." not in routes:
            return net
    raise AssertionError("every /24 of 198.18.0.0/16 is routed on this machine: no safe range for the stand-in internet")


# Answers HTTP GET with "internet-ok" on every (address, port) given as address:port arguments.
# HTTPServer.server_bind asks the resolver for its address's name (socket.getfqdn): from this
# namespace that query went off the machine and timed out, 40 s per fixture. S binds without it.
INTERNET_SERVER = r"""
import http.server, socketserver, sys, threading
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"internet-ok")
    def log_message(self, *a): pass
class S(http.server.ThreadingHTTPServer):
    def server_bind(self):
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = "internet", self.server_address[1]
servers = [S((a.rsplit(":", 1)[0], int(a.rsplit(":", 1)[1])), H) for a in sys.argv[1:]]
for s in servers: threading.Thread(target=s.serve_forever, daemon=True).start()
print("ready", flush=True)
threading.Event().wait()
"""

FETCH = "import sys, urllib.request\ntry:\n    print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())\nexcept Exception as e:\n    print('failed', e.__class__.__name__)\n"

METADATA = "169.254.169.254"


@dataclass
class Internet:
    address: str  # HTTP on ports 8080, 8081 and 443 (plain HTTP: the hostname tests tunnel it through CONNECT)
    metadata: str  # the cloud metadata address, HTTP on port 80, at home in the same namespace


def sweep_stale_internets() -> None:
    """Removes the stand-in internets of a run that was killed before its cleanup (a namespace
    named hangar-inet-* with no process left in it): its route to the metadata address would
    otherwise make this run's `ip route add` fail with "File exists"."""
    listing = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    for ns in re.findall(r"^(hangar-inet-([0-9a-f]+))\b", listing, re.M):
        name, tag = ns
        if subprocess.run(["ip", "netns", "pids", name], capture_output=True, text=True).stdout.strip():
            continue  # a live run's (its server is in there): not ours to remove
        subprocess.run(["ip", "route", "del", f"{METADATA}/32", "dev", f"hgi{tag}"], capture_output=True)
        subprocess.run(["ip", "link", "del", f"hgi{tag}"], capture_output=True)
        subprocess.run(["ip", "netns", "del", name], capture_output=True)


@pytest.fixture
def internet():
    """A stand-in internet in a network namespace of its own behind a veth, routed from this host
    (and so from the test cluster's pods), with the cloud metadata address given a home there too:
    a firewall that fails sends nothing off the machine."""
    sweep_stale_internets()
    net, tag = free_test_range(), secrets.token_hex(3)
    ns, host_if, peer_if = f"hangar-inet-{tag}", f"hgi{tag}", f"hgp{tag}"
    sh = lambda *cmd: subprocess.run(cmd, check=True, capture_output=True)  # noqa: E731
    sh("ip", "netns", "add", ns)
    try:
        sh("ip", "link", "add", host_if, "type", "veth", "peer", "name", peer_if)
        sh("ip", "link", "set", peer_if, "netns", ns)
        sh("ip", "addr", "add", f"{net}.1/24", "dev", host_if)
        sh("ip", "link", "set", host_if, "up")
        sh("ip", "netns", "exec", ns, "ip", "addr", "add", f"{net}.2/24", "dev", peer_if)
        sh("ip", "netns", "exec", ns, "ip", "addr", "add", f"{METADATA}/32", "dev", peer_if)
        sh("ip", "netns", "exec", ns, "ip", "link", "set", peer_if, "up")
        sh("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up")
        # Replies to pods (the test cluster's bridge does not masquerade) go back through this host.
        sh("ip", "netns", "exec", ns, "ip", "route", "add", "default", "via", f"{net}.1")
        sh("ip", "route", "add", f"{METADATA}/32", "via", f"{net}.2", "dev", host_if)
        server = subprocess.Popen(["ip", "netns", "exec", ns, sys.executable, "-c", INTERNET_SERVER, f"{net}.2:8080", f"{net}.2:8081", f"{net}.2:443", f"{METADATA}:80"],
                                  stdout=subprocess.PIPE, text=True)
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        try:
            yield Internet(f"{net}.2", METADATA)
        finally:
            server.kill()
            server.wait()
    finally:
        subprocess.run(["ip", "route", "del", f"{METADATA}/32", "via", f"{net}.2"], capture_output=True)
        subprocess.run(["ip", "link", "del", host_if], capture_output=True)
        subprocess.run(["ip", "netns", "del", ns], capture_output=True)
