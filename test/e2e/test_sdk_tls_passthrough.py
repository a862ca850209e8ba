"""TLS passthrough endpoints through the real SDK (ADR 0021): on Kubernetes a TLSRoute on the test
cluster's Gateway TLS listener (127.0.0.1:18443, SNI names under *.localhost) sends a TLS connection
whose SNI is the port's own name, unopened, to the sandbox, which presents its own certificate; a
port the sandbox listens on but did not publish, another name, or no name reach nothing. The local
runtime refuses with the reason the SDK branches on. The test connects to the listener's address
and sends the name as SNI itself, so it needs no DNS for *.localhost."""
import socket
import ssl
import time

import pytest
from cwsandbox import Endpoint, EndpointKind, Sandbox, Service, ServiceVisibility
from cwsandbox.exceptions import CWSandboxError

from conftest import NAMESPACE, PUBLIC_TLS_ADDRESS, _kube

# 8443 is published; 9443, a second TLS listener in the same sandbox, is not. Each answers with its
# port; the certificate names the sandbox (its CN is argv[1]), so the test knows whose TLS it met.
SERVE_TLS = "import http.server, ssl, subprocess, sys, threading\n" \
    "subprocess.check_call(['openssl', 'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', '/tmp/k.pem', '-out', '/tmp/c.pem', '-days', '1', '-subj', '/CN=' + sys.argv[1]], stderr=subprocess.DEVNULL)\n" \
    "class H(http.server.BaseHTTPRequestHandler):\n" \
    "    def do_GET(self):\n" \
    "        body = ('tls-%d' % self.server.server_port).encode()\n" \
    "        self.send_response(200); self.send_header('Content-Length', str(len(body))); self.end_headers(); self.wfile.write(body)\n" \
    "    def log_message(self, *a): pass\n" \
    "ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain('/tmp/c.pem', '/tmp/k.pem')\n" \
    "for port in (8443, 9443):\n" \
    "    s = http.server.ThreadingHTTPServer(('0.0.0.0', port), H)\n" \
    "    s.socket = ctx.wrap_socket(s.socket, server_side=True)\n" \
    "    threading.Thread(target=s.serve_forever, daemon=True).start()\n" \
    "threading.Event().wait()\n"

TLS_SERVICE = Service(port=8443, name="tls", visibility=ServiceVisibility.PUBLIC, endpoint=Endpoint(kind=EndpointKind.TLS_PASSTHROUGH))


def _tls_get(sni: str | None, timeout: float = 10) -> tuple[str, str]:
    """GET / through the Gateway's TLS listener with this SNI: (the certificate's CN, the body)."""
    host, port = PUBLIC_TLS_ADDRESS
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    with socket.create_connection((host, port), timeout=timeout) as raw, ctx.wrap_socket(raw, server_hostname=sni) as s:
        der = s.getpeercert(binary_form=True)
        s.sendall(b"GET / HTTP/1.0\r\nHost: x\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    from cryptography import x509  # noqa: PLC0415 (only this test needs it)
    cn = x509.load_der_x509_certificate(der).subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value
    return str(cn), data.decode(errors="replace").split("\r\n\r\n", 1)[-1]


def _refused(sni: str | None) -> bool:
    try:
        _tls_get(sni, timeout=5)
    except (OSError, ssl.SSLError):
        return True
    return False


@pytest.mark.kubernetes_only
def test_a_tls_passthrough_port_is_reached_by_its_sni_name_only_and_unopened(hangar):
    sb = Sandbox.run("python3", "-c", SERVE_TLS, "ignored", tags=["e2e-services"], max_lifetime_seconds=180, services=[TLS_SERVICE])
    try:
        # The address is there from create on, as the SDK's own test asserts, and stays after the wait.
        [addr] = sb.service_addresses
        name = f"{sb.sandbox_id}-8443.localhost"
        assert (addr.port, addr.name, addr.kind, addr.address) == (8443, "tls", EndpointKind.TLS_PASSTHROUGH, f"{name}:{PUBLIC_TLS_ADDRESS[1]}"), addr
        sb.wait()
        sb.get_status()
        assert sb.service_addresses == (addr,) and all(p != 8443 for p, _, _ in sb.service_urls), (sb.service_addresses, sb.service_urls)
        # The route is a TLSRoute on the TLS listener, for that one name, owned by the pod.
        route = _kube("GET", f"/apis/gateway.networking.k8s.io/v1/namespaces/{NAMESPACE}/tlsroutes/sbx-{sb.sandbox_id}-8443")
        pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
        assert [o["uid"] for o in route["metadata"]["ownerReferences"]] == [pod["metadata"]["uid"]]
        assert route["spec"]["hostnames"] == [name] and route["spec"]["parentRefs"][0]["sectionName"] == "tls"
        # The command's own argv[1] is not the sandbox id: learn the CN from the first answer, then
        # check the Gateway passed the TLS through (the sandbox's self-signed certificate, not one of the Gateway's).
        deadline = time.time() + 60
        while True:  # the server makes its key first
            try:
                cn, body = _tls_get(name)
                break
            except (OSError, ssl.SSLError):
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        assert (cn, body) == ("ignored", "tls-8443"), (cn, body)
        # Attacks: the unpublished port's name, a made-up sandbox's name, the bare domain, no SNI.
        for sni in (f"{sb.sandbox_id}-9443.localhost", "00000000-0000-4000-8000-000000000000-8443.localhost", "localhost", None):
            assert _refused(sni), sni
    finally:
        sb.stop().result()
    # Stopped: no address, and the route went with the pod.
    sb.get_status()
    assert sb.service_addresses == ()
    deadline = time.time() + 30
    while not _refused(name) and time.time() < deadline:
        time.sleep(0.5)
    assert _refused(name)


@pytest.mark.local_only
def test_the_local_runtime_refuses_tls_passthrough_with_the_sdks_reason(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(tags=["e2e-services"], services=[TLS_SERVICE]).wait()
    assert getattr(e.value, "reason", None) == "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED", e.value
    assert "HANGAR_PUBLIC_TLS_GATEWAY" in str(e.value), e.value

