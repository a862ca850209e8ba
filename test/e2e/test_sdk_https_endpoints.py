"""HTTPS endpoints through the real SDK (ADR 0021, "HTTPS and share-token endpoints"). On Kubernetes,
a Hangar whose HANGAR_PUBLIC_URL is the test cluster's HTTPS listener (TLS terminated at the Gateway,
host names under *.sbx.localhost) publishes `Endpoint(kind=HTTPS, auth=OPEN)` ports there, and
`auth=SHARE_TOKEN` ports behind the operator's forward-auth filter (a Traefik Middleware in the
sandbox namespace), which asks Hangar's share-token check about each request: the sandbox's own
token, in the header the SDK's `as_headers()` sends or in the query, gets through; no token, a wrong
one, another sandbox's, or a forged X-Forwarded-Host gets 401 and never reaches the sandbox. The
token is in the create response only. A Hangar without these settings refuses both, the share-token
one with the reason the SDK skips its test on.

Names under *.sbx.localhost resolve to loopback here through test/sdk-suite/localhost_names.py
(RFC 6761); the client trusts the cluster's CA (.cluster/gateway-ca.crt) and nothing else."""
import ssl
import sys
import time
import urllib.error
import urllib.request

import pytest
from cwsandbox import Endpoint, EndpointAuth, EndpointKind, Sandbox, Service, ServiceVisibility
from cwsandbox.exceptions import CWSandboxError

from conftest import GATEWAY_CA, NAMESPACE, REPO, _kube, https_endpoints_env, point_sdk_at, start_hangar, stop_hangar

sys.path.insert(0, str(REPO / "test/sdk-suite"))
import localhost_names  # noqa: E402,F401 (resolves *.localhost to 127.0.0.1 in this process)

# Answers every GET with the sandbox's marker and whether it saw a share token (it must not matter to it).
SERVE = "import http.server, sys\n" \
    "class H(http.server.BaseHTTPRequestHandler):\n" \
    "    def do_GET(self):\n" \
    "        body = ('served-' + sys.argv[1]).encode()\n" \
    "        self.send_response(200); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)\n" \
    "    def log_message(self, *a): pass\n" \
    "http.server.ThreadingHTTPServer(('0.0.0.0', 8000), H).serve_forever()\n"


def service(auth: EndpointAuth) -> Service:
    return Service(port=8000, name="http", visibility=ServiceVisibility.PUBLIC, endpoint=Endpoint(kind=EndpointKind.HTTPS, auth=auth))


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """GET over HTTPS, trusting only the test cluster's CA: (status, body)."""
    ctx = ssl.create_default_context(cafile=str(GATEWAY_CA))
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10, context=ctx) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace")


def until_served(url: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    """The first answer from the sandbox's server itself (the route and the server take a moment)."""
    deadline = time.time() + 60
    while True:
        try:
            status, body = get(url, headers)
            if status == 200 or time.time() > deadline:
                return status, body
        except OSError:
            if time.time() > deadline:
                raise
        time.sleep(0.5)


@pytest.fixture
def https_hangar(monkeypatch):
    h = start_hangar(https_endpoints_env())
    point_sdk_at(monkeypatch, h)
    yield h
    assert stop_hangar(h) == 0


@pytest.mark.own_hangar
@pytest.mark.kubernetes_only
def test_a_share_token_endpoint_serves_its_token_only(https_hangar):
    a = Sandbox.run("python3", "-c", SERVE, "a", tags=["e2e-https"], max_lifetime_seconds=180, services=[service(EndpointAuth.SHARE_TOKEN)])
    b = Sandbox.run("python3", "-c", SERVE, "b", tags=["e2e-https"], max_lifetime_seconds=180, services=[service(EndpointAuth.SHARE_TOKEN)])
    try:
        ta, tb = a.endpoint_share_token, b.endpoint_share_token
        assert ta is not None and tb is not None, "the create response carries the token"
        assert ta.get_secret_value() != tb.get_secret_value()
        a.wait()
        b.wait()
        a.get_status()
        assert a.endpoint_share_token is ta, "a live handle keeps its token"
        [(port, name, url)] = a.service_urls
        assert (port, name, url) == (8000, "http", f"https://{a.sandbox_id}-8000.sbx.localhost:18444/"), a.service_urls
        [(_, _, url_b)] = b.service_urls
        # Get, List and from_id never carry it.
        assert Sandbox.from_id(a.sandbox_id).result().endpoint_share_token is None
        # The route names the operator's filter.
        route = _kube("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{NAMESPACE}/httproutes/sbx-{a.sandbox_id}-8000")
        assert route["spec"]["rules"][0]["filters"] == [{"type": "ExtensionRef", "extensionRef": {"group": "traefik.io", "kind": "Middleware", "name": "hangar-share-token"}}], route["spec"]
        assert route["spec"]["parentRefs"][0]["sectionName"] == "websecure"

        assert until_served(url, ta.as_headers()) == (200, "served-a")
        assert get(f"{url}?share_token={ta.get_secret_value()}") == (200, "served-a")
        assert until_served(url_b, tb.as_headers()) == (200, "served-b")
        # Attacks: each is stopped at the Gateway (401, the check's own answer, not the sandbox's).
        for headers, why in [
            ({}, "no token"),
            ({"X-Sandbox-Share-Token": "x" * 43}, "a made-up token"),
            (tb.as_headers(), "another sandbox's token"),
            ({"X-Sandbox-Share-Token": ta.get_secret_value()[:-1]}, "a truncated token"),
        ]:
            status, body = get(url, headers)
            assert status == 401 and "served" not in body, (why, status, body)
        assert get(f"{url}?share_token={tb.get_secret_value()}")[0] == 401
        # A client's own X-Forwarded-Host naming sandbox a, sent to b's URL with a's token: the
        # Gateway sets the forwarded headers itself, so the check judges b's host.
        status, body = get(url_b, {**ta.as_headers(), "X-Forwarded-Host": f"{a.sandbox_id}-8000.sbx.localhost", "X-Forwarded-Uri": "/"})
        assert status == 401 and "served" not in body, (status, body)
    finally:
        a.stop().result()
        b.stop().result()
    # Stopped: no URL, and the name serves nothing any more (the route went with the pod).
    a.get_status()
    assert a.service_urls == ()
    deadline = time.time() + 30
    while get(url, ta.as_headers())[0] == 200 and time.time() < deadline:
        time.sleep(0.5)
    assert get(url, ta.as_headers())[0] != 200


@pytest.mark.own_hangar
@pytest.mark.kubernetes_only
def test_an_open_https_endpoint_serves_anyone_over_the_gateways_tls(https_hangar):
    sb = Sandbox.run("python3", "-c", SERVE, "open", tags=["e2e-https"], max_lifetime_seconds=180, services=[service(EndpointAuth.OPEN)])
    try:
        assert sb.endpoint_share_token is None
        sb.wait()
        [(_, _, url)] = sb.service_urls
        assert url.startswith("https://") and url.endswith(".sbx.localhost:18444/"), url
        assert until_served(url) == (200, "served-open")
        # No plaintext: the listener speaks TLS only.
        with pytest.raises((urllib.error.URLError, OSError)):
            urllib.request.urlopen(url.replace("https://", "http://"), timeout=5).read()
    finally:
        sb.stop().result()


def test_a_hangar_without_https_or_share_tokens_refuses_them(hangar):
    # The suite's Hangar publishes PUBLIC ports over plain HTTP (Kubernetes) or not at all (local).
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-https"], services=[service(EndpointAuth.SHARE_TOKEN)]).wait()
    assert getattr(e.value, "reason", None) == "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED", e.value
    assert "HANGAR_PUBLIC_AUTH_FILTER" in str(e.value), e.value
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-https"], services=[service(EndpointAuth.OPEN)]).wait()
    assert "services[0].endpoint.kind" in str(e.value) and "HTTPS endpoints need a Gateway that terminates TLS" in str(e.value), e.value
