"""PRIVATE services on Kubernetes, through the real SDK: Discovery advertises PRIVATE, Get returns an
in-cluster address per port, the address (a Service per sandbox) reaches the sandbox's listener on
that port from a plain pod of the cluster, a port the sandbox did not expose stays closed, and other
sandboxes still cannot connect. The test cluster has no DNS: the test resolves the returned name
through the apiserver (the Service of that name), as cluster DNS would."""
import time

import cwsandbox
import pytest
from cwsandbox import Sandbox, Service
from cwsandbox.exceptions import CWSandboxError

from conftest import NAMESPACE, PUBLIC_URL, RUNTIME, _kube
from test_sdk_network import control_probe, pod_ip_of, sandbox_probe

SERVE = "import http.server, threading, socketserver\n" \
        "for port in (8080, 9090):\n" \
        "    s = http.server.ThreadingHTTPServer(('0.0.0.0', port), http.server.SimpleHTTPRequestHandler)\n" \
        "    threading.Thread(target=s.serve_forever, daemon=True).start()\n" \
        "threading.Event().wait()\n"


def _wait_urls(sb: Sandbox) -> tuple:
    deadline = time.time() + 30
    while time.time() < deadline:
        sb.get_status()
        if sb.service_urls:
            return sb.service_urls
        time.sleep(0.3)
    raise AssertionError("no service URL")


@pytest.mark.kubernetes_only
def test_a_private_service_is_reachable_in_the_cluster_on_its_port_only(hangar):
    assert any("private" in r.supported_service_visibilities for r in cwsandbox.list_runners(service_visibility="private"))
    sb = Sandbox.run("python3", "-c", SERVE, tags=["e2e-services"], max_lifetime_seconds=180,
                     services=[Service(port=8080, name="http", visibility="private")])
    other = Sandbox.run(tags=["e2e-services"], max_lifetime_seconds=180)
    try:
        sb.wait()
        other.wait()
        urls = _wait_urls(sb)
        assert [(p, n) for p, n, _ in urls] == [(8080, "http")], urls
        url = urls[0][2]
        assert url == f"sbx-{sb.sandbox_id}.{NAMESPACE}.svc.cluster.local:8080", url
        svc = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/services/{url.split('.')[0]}")
        pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
        assert [o["uid"] for o in svc["metadata"]["ownerReferences"]] == [pod["metadata"]["uid"]]
        service = f"{svc['spec']['clusterIP']}:8080"
        ip = pod_ip_of(sb.sandbox_id)
        deadline = time.time() + 20
        while True:  # the listener comes up a moment after RUNNING
            got = control_probe([service, f"{ip}:8080", f"{ip}:9090"])
            if got[service] == "CONNECTED" or time.time() > deadline:
                break
        assert got[service] == "CONNECTED" and got[f"{ip}:8080"] == "CONNECTED", got
        # Listening is not enough: a port the sandbox did not expose stays closed to the cluster.
        assert got[f"{ip}:9090"] != "CONNECTED", got
        # Other sandboxes still reach nothing cluster-internal, services included.
        from_other = sandbox_probe(other, [service, f"{ip}:8080"])
        assert all(v != "CONNECTED" for v in from_other.values()), from_other
    finally:
        sb.stop().result()
        other.stop().result()
    # Stopped: Get no longer returns an address.
    sb.get_status()
    assert sb.service_urls == ()


@pytest.mark.local_only
def test_public_services_are_refused_naming_the_field(hangar):
    assert cwsandbox.list_runners(service_visibility="public") == []
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[Service(port=8080, visibility="public")]).wait()
    assert "services[0].visibility" in str(e.value) and "PUBLIC services need a Gateway" in str(e.value), e.value


def test_public_beside_private_is_refused_not_implemented(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[Service(port=8080, visibility="public"), Service(port=9090, visibility="private")]).wait()
    assert getattr(e.value, "reason", None) == "CWSANDBOX_NOT_IMPLEMENTED" and "services[0].visibility" in str(e.value), e.value


# Port 8080 answers with the path it was asked for; 9090, not exposed, with a secret.
SERVE_PUBLIC = "import http.server, threading\n" \
    "class H(http.server.BaseHTTPRequestHandler):\n" \
    "    def do_GET(self):\n" \
    "        body = (('public-8080 path=' + self.path) if self.server.server_port == 8080 else 'private-9090').encode()\n" \
    "        self.send_response(200); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)\n" \
    "for port in (8080, 9090):\n" \
    "    s = http.server.ThreadingHTTPServer(('0.0.0.0', port), H)\n" \
    "    threading.Thread(target=s.serve_forever, daemon=True).start()\n" \
    "threading.Event().wait()\n"


def _gateway_get(target: str) -> tuple[int, str]:
    """GET a request-target through the test cluster's Gateway as sent (no client-side path cleaning)."""
    import http.client
    host, port = PUBLIC_URL.removeprefix("http://").split(":")
    c = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        c.request("GET", target)
        r = c.getresponse()
        return r.status, r.read().decode(errors="replace")
    finally:
        c.close()


@pytest.mark.kubernetes_only
def test_a_public_service_is_served_through_the_gateway_on_its_port_only(hangar):
    assert any("public" in r.supported_service_visibilities for r in cwsandbox.list_runners(service_visibility="public"))
    sb = Sandbox.run("python3", "-c", SERVE_PUBLIC, tags=["e2e-services"], max_lifetime_seconds=180,
                     services=[Service(port=8080, name="http", visibility="public")])
    try:
        sb.wait()
        urls = _wait_urls(sb)
        base = f"/{sb.sandbox_id}"
        assert urls == ((8080, "http", f"{PUBLIC_URL}{base}/8080/"),), urls
        assert (8080, "http") in sb.exposed_ports
        # The route is the operator's Gateway's, in the sandbox namespace, owned by the pod.
        route = _kube("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{NAMESPACE}/httproutes/sbx-{sb.sandbox_id}-8080")
        pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
        assert [o["uid"] for o in route["metadata"]["ownerReferences"]] == [pod["metadata"]["uid"]]
        assert route["spec"]["parentRefs"][0]["name"] == "public"
        deadline = time.time() + 30
        while True:  # the listener comes up a moment after RUNNING
            status, body = _gateway_get(f"{base}/8080/")
            if status == 200 or time.time() > deadline:
                break
            time.sleep(0.3)
        # The SDK's own check: the URL answers 200 from the container port, the prefix stripped.
        assert (status, body) == (200, "public-8080 path=/"), (status, body)
        assert _gateway_get(f"{base}/8080/a/b?q=1") == (200, "public-8080 path=/a/b?q=1")
        # Attacks: a port the sandbox listens on but did not make PUBLIC is not routed, not by its
        # own path, not by a dot-dot path, not by an encoded one.
        for target in (f"{base}/9090/", f"{base}/8080/../9090/", f"{base}/8080/%2e%2e/9090/", f"{base}/9090"):
            status, body = _gateway_get(target)
            assert "private-9090" not in body, (target, status, body)
            assert status == 404 or body.startswith("public-8080"), (target, status, body)
    finally:
        sb.stop().result()
    # Stopped: Get returns no URL, and the Gateway no longer reaches the sandbox (the route, owned by
    # the pod, goes with it when Kubernetes deletes the pod).
    sb.get_status()
    assert sb.service_urls == ()
    status, body = _gateway_get(f"/{sb.sandbox_id}/8080/")
    assert status in (404, 502, 503) and "public-8080" not in body, (status, body)


@pytest.mark.local_only
def test_the_local_runtime_refuses_services_naming_the_field(hangar):
    assert cwsandbox.list_runners(service_visibility="private") == []
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[Service(port=8080, visibility="private")]).wait()
    assert "sandbox.spec.services" in str(e.value) and "Kubernetes runtime" in str(e.value), e.value


@pytest.mark.kubernetes_only
def test_deny_ingress_true_accepts_no_inbound_connection(hangar):
    # deny_ingress=true: the listeners on 8080 and 9090 are closed to the cluster (a plain pod of the
    # namespace, no rules of its own, probes the pod IP); false with a service: its port opens, and only it.
    from cwsandbox import NetworkOptions

    shut = Sandbox.run("python3", "-c", SERVE, tags=["e2e-services"], max_lifetime_seconds=180, network=NetworkOptions(deny_ingress=True))
    served = Sandbox.run("python3", "-c", SERVE, tags=["e2e-services"], max_lifetime_seconds=180, network=NetworkOptions(deny_ingress=False),
                         services=[Service(port=8080, name="http", visibility="private")])
    try:
        shut.wait()
        served.wait()
        shut_ip, served_ip = pod_ip_of(shut.sandbox_id), pod_ip_of(served.sandbox_id)
        # The listeners are up inside (each sandbox reaches its own on loopback).
        for sb in (shut, served):
            deadline = time.time() + 20
            while sandbox_probe(sb, ["127.0.0.1:8080"])["127.0.0.1:8080"] != "CONNECTED":
                assert time.time() < deadline, "the listener did not come up"
                time.sleep(0.3)
        got = control_probe([f"{shut_ip}:8080", f"{shut_ip}:9090", f"{served_ip}:8080", f"{served_ip}:9090"])
        assert got[f"{served_ip}:8080"] == "CONNECTED", got  # the probe does reach a sandbox that accepts
        assert got[f"{served_ip}:9090"] != "CONNECTED", got
        assert got[f"{shut_ip}:8080"] != "CONNECTED" and got[f"{shut_ip}:9090"] != "CONNECTED", got
    finally:
        shut.stop().result()
        served.stop().result()
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], network=NetworkOptions(deny_ingress=True), services=[Service(port=8080, visibility="private")]).wait()
    assert "network.deny_ingress" in str(e.value) and "declares services" in str(e.value), e.value
