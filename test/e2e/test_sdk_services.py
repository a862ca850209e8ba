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

from conftest import NAMESPACE, RUNTIME, _kube
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


def test_public_services_are_refused_naming_the_field(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[Service(port=8080, visibility="public")]).wait()
    assert "services[0].visibility" in str(e.value) and "PUBLIC" in str(e.value), e.value


@pytest.mark.local_only
def test_the_local_runtime_refuses_services_naming_the_field(hangar):
    assert cwsandbox.list_runners(service_visibility="private") == []
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[Service(port=8080, visibility="private")]).wait()
    assert "sandbox.spec.services" in str(e.value) and "Kubernetes runtime" in str(e.value), e.value
