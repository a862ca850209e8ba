"""OIDC ID tokens through the unmodified SDK (ADR 0037): a local issuer this test starts (discovery
document and JWKS over HTTP on loopback, an RSA key made here) signs ID tokens; a Hangar configured
with that issuer takes them as CWSANDBOX_API_KEY. Runs on both runtimes (make test-e2e, and
make test-e2e-kubernetes on the test cluster).

A token naming tenant alpha creates and execs, and its sandbox is alpha's (the keys-file key of alpha
lists it); a token for another audience, an expired one, one signed by a key the issuer never
published and one naming another issuer are refused; the issuer rotates its key and a token signed
with the new one is taken; the web console signs in with a token and its session ends with the token.
"""
from __future__ import annotations

import base64
import json
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from conftest import start_hangar, stop_hangar

pytestmark = [pytest.mark.own_hangar]

AUDIENCE = "hangar-e2e"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Issuer:
    """An OIDC issuer on 127.0.0.1: discovery, JWKS of its current keys, and ID tokens it signs."""

    def __init__(self):
        self.keys: dict[str, rsa.RSAPrivateKey] = {}
        self.rotate()
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/.well-known/openid-configuration":
                    body = {"issuer": issuer.url, "jwks_uri": issuer.url + "/jwks"}
                elif self.path == "/jwks":
                    body = {"keys": [issuer.jwk(kid, k) for kid, k in issuer.keys.items()]}
                else:
                    self.send_error(404)
                    return
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def rotate(self) -> str:
        """A new signing key replaces the old ones in the JWKS."""
        kid = f"k{len(self.keys)}-{time.time_ns()}"
        self.keys = {kid: rsa.generate_private_key(public_exponent=65537, key_size=2048)}
        return kid

    @staticmethod
    def jwk(kid: str, key: rsa.RSAPrivateKey) -> dict:
        n = key.public_key().public_numbers()
        return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                "n": b64(n.n.to_bytes((n.n.bit_length() + 7) // 8, "big")), "e": b64(n.e.to_bytes(3, "big"))}

    def token(self, tenant: str = "alpha", aud: str = AUDIENCE, exp_in: int = 300, iss: str | None = None,
              key: rsa.RSAPrivateKey | None = None, kid: str | None = None) -> str:
        kid = kid or next(iter(self.keys))
        key = key or self.keys[kid]
        now = int(time.time())
        header = b64(json.dumps({"alg": "RS256", "typ": "JWT", "kid": kid}).encode())
        claims = {"iss": iss or self.url, "aud": aud, "sub": f"user-of-{tenant}", "hangar_tenant": tenant, "iat": now, "exp": now + exp_in}
        payload = b64(json.dumps(claims).encode())
        sig = key.sign(f"{header}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{header}.{payload}.{b64(sig)}"


@pytest.fixture(scope="module")
def oidc():
    issuer = Issuer()
    h = start_hangar({"HANGAR_AUTH_OIDC_ISSUER": issuer.url, "HANGAR_AUTH_OIDC_AUDIENCE": AUDIENCE,
                      "HANGAR_CONSOLE_LISTEN": "127.0.0.1:0"})
    try:
        yield issuer, h
    finally:
        issuer.server.shutdown()
        assert stop_hangar(h) == 0, h.log()[-3000:]


def sdk_as(monkeypatch, h, credential: str) -> None:
    monkeypatch.setenv("CWSANDBOX_BASE_URL", h.url)
    monkeypatch.setenv("CWSANDBOX_API_KEY", credential)


def refused(monkeypatch, h, token: str) -> str:
    from cwsandbox import Sandbox
    sdk_as(monkeypatch, h, token)
    with pytest.raises(Exception) as e:
        Sandbox.list(tags=["e2e-oidc"]).result()
    return str(e.value)


def test_an_id_token_creates_and_execs_as_its_tenant(oidc, monkeypatch):
    from cwsandbox import Sandbox
    issuer, h = oidc
    sdk_as(monkeypatch, h, issuer.token("alpha"))
    sb = Sandbox.run("sleep", "120", tags=["e2e-oidc"], max_lifetime_seconds=120)
    try:
        sb.wait()
        assert sb.exec(["echo", "from-oidc"]).result().stdout == "from-oidc\n"
        # The sandbox is tenant alpha's: alpha's keys-file key sees it, beta's does not.
        sdk_as(monkeypatch, h, h.keys["alpha"])
        assert [s.sandbox_id for s in Sandbox.list(tags=["e2e-oidc"]).result()] == [sb.sandbox_id]
        sdk_as(monkeypatch, h, h.keys["beta"])
        assert Sandbox.list(tags=["e2e-oidc"]).result() == []
    finally:
        sdk_as(monkeypatch, h, h.keys["alpha"])
        Sandbox.delete(sb.sandbox_id, missing_ok=True).result()


def test_wrong_audience_expired_forged_and_foreign_tokens_are_refused(oidc, monkeypatch):
    issuer, h = oidc
    assert "audience" in refused(monkeypatch, h, issuer.token(aud="another-client")).lower()
    assert "expired" in refused(monkeypatch, h, issuer.token(exp_in=-600)).lower()
    forger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    msg = refused(monkeypatch, h, issuer.token(key=forger)).lower()  # the issuer's kid, another key
    assert "signature" in msg, msg
    assert refused(monkeypatch, h, issuer.token(iss="https://evil.example")) != ""


def test_a_rotated_key_is_fetched_and_taken(oidc, monkeypatch):
    """The issuer swaps its key: a token signed with the new one is taken once Hangar refetches the JWKS
    (at most once per 30 s for an unknown key id, jose's cooldown), and one signed with the old is not."""
    from cwsandbox import Sandbox
    issuer, h = oidc
    old = issuer.token()
    kid = issuer.rotate()
    sdk_as(monkeypatch, h, issuer.token(kid=kid))
    deadline = time.time() + 45
    while True:
        try:
            assert Sandbox.list(tags=["e2e-oidc-none"]).result() == []
            break
        except Exception as e:  # refused until the cooldown since the last fetch has passed
            assert "key the issuer's JWKS does not hold" in str(e), e
            assert time.time() < deadline, "the rotated key was not taken within 45 s"
            time.sleep(2)
    assert "JWKS does not hold" in refused(monkeypatch, h, old)


def test_the_console_signs_in_with_a_token_and_its_session_ends_with_it(oidc):
    issuer, h = oidc
    port = next(json.loads(l)["console_port"] for l in h.log().splitlines() if '"msg":"console listening"' in l)
    base = f"http://127.0.0.1:{port}"
    token = issuer.token("alpha", exp_in=120)
    req = urllib.request.Request(base + "/api/login", method="POST", data=json.dumps({"token": token}).encode(),
                                 headers={"Content-Type": "application/json", "Origin": base})
    with urllib.request.urlopen(req) as r:
        me = json.loads(r.read())
    exp = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "=="))["exp"]
    assert me["tenant"] == "alpha" and me["expiresAtMs"] <= exp * 1000
