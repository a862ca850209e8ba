"""What a share token costs a request: GETs to an HTTPS share-token endpoint (the Gateway asks
Hangar's check first, ADR 0021) against GETs to an open HTTPS endpoint of the same kind of sandbox,
through the same Gateway listener, same run, interleaved, over one kept-alive TLS connection each
(so the handshake is not in the figures). Kubernetes runtime, test cluster up. Prints JSON
(docs/benchmarks.md, "Share-token endpoints").
  KUBECONFIG=.cluster/kubeconfig HANGAR_E2E_KUBECONFIG=.cluster/hangar-sa.kubeconfig HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_share_token.py"""
import http.client
import json
import os
import ssl
import statistics
import sys
import time
from urllib.parse import urlparse

sys.path.insert(0, "test/e2e")
sys.path.insert(0, "test/sdk-suite")
from conftest import GATEWAY_CA, https_endpoints_env, start_hangar, stop_hangar  # noqa: E402
import localhost_names  # noqa: E402,F401 (*.localhost -> 127.0.0.1 in this process)

N = int(os.environ.get("BENCH_SHARE_TOKEN_GETS", "400"))
h = start_hangar(https_endpoints_env())
os.environ["CWSANDBOX_BASE_URL"] = h.url
os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
from cwsandbox import Endpoint, EndpointAuth, EndpointKind, Sandbox, Service, ServiceVisibility  # noqa: E402

# One write per response, no Nagle: a split write would add the peer's delayed ACK (~40 ms) to some requests.
SERVE = "import http.server\nclass H(http.server.BaseHTTPRequestHandler):\n    protocol_version = 'HTTP/1.1'\n    wbufsize = 65536\n    disable_nagle_algorithm = True\n    def do_GET(self):\n        self.send_response(200); self.send_header('Content-Length', '2'); self.end_headers(); self.wfile.write(b'ok')\n    def log_message(self, *a): pass\nhttp.server.ThreadingHTTPServer(('0.0.0.0', 8000), H).serve_forever()\n"


def run(auth: EndpointAuth) -> Sandbox:
    svc = Service(port=8000, name="http", visibility=ServiceVisibility.PUBLIC, endpoint=Endpoint(kind=EndpointKind.HTTPS, auth=auth))
    sb = Sandbox.run("python3", "-c", SERVE, tags=["bench-share-token"], max_lifetime_seconds=600, services=[svc])
    sb.wait()
    return sb


def pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(p * len(s)))], 2)


try:
    token_sb, open_sb = run(EndpointAuth.SHARE_TOKEN), run(EndpointAuth.OPEN)
    headers = token_sb.endpoint_share_token.as_headers()
    ctx = ssl.create_default_context(cafile=str(GATEWAY_CA))
    conns = {}
    for name, sb, hdrs in (("share_token", token_sb, headers), ("open", open_sb, {})):
        u = urlparse(sb.service_urls[0][2])
        c = http.client.HTTPSConnection(u.hostname, u.port, context=ctx, timeout=10)
        deadline = time.time() + 60
        while True:  # the route and the server take a moment
            try:
                c.request("GET", "/", headers=hdrs)
                r = c.getresponse()
                r.read()
                if r.status == 200:
                    break
            except OSError:
                c.close()
            assert time.time() < deadline, f"{name}: no 200 within 60 s"
            time.sleep(0.5)
        conns[name] = (c, hdrs)
    times: dict[str, list[float]] = {"share_token": [], "open": []}
    for _ in range(N):
        for name, (c, hdrs) in conns.items():
            t = time.perf_counter()
            c.request("GET", "/", headers=hdrs)
            r = c.getresponse()
            body = r.read()
            times[name].append((time.perf_counter() - t) * 1000)
            assert r.status == 200 and body == b"ok", (name, r.status, body)
    c, _ = conns["share_token"]
    c.request("GET", "/")
    denied = c.getresponse()
    denied.read()
    out = {"gets": N, **{k: {"p50_ms": pct(v, 0.5), "p99_ms": pct(v, 0.99), "mean_ms": round(statistics.mean(v), 2)} for k, v in times.items()},
           "ratio_p50": round(pct(times["share_token"], 0.5) / pct(times["open"], 0.5), 2),
           "ratio_p99": round(pct(times["share_token"], 0.99) / pct(times["open"], 0.99), 2),
           "without_token_status": denied.status}
    print(json.dumps(out, indent=1))
    token_sb.stop().result()
    open_sb.stop().result()
finally:
    stop_hangar(h)
