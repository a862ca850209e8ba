"""PREPARING with pull progress on Kubernetes (ADR 0038), on the test cluster: the node's kubelet pulls
an image no node holds (the offline python image plus a layer of random bytes, so nothing of it is on
the node) from a registry on loopback behind a proxy that serves blobs slowly; hangar-pullwatch reads
containerd's content store and GetSandbox shows STATE_PREPARING with the bytes and layers so far, then
the sandbox runs.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import secrets
import shutil
import subprocess
import tarfile
import tempfile
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import LOCAL_IMAGES, start_hangar, stop_hangar
from test_local_pull_progress import free_port, states_while_starting

pytestmark = [pytest.mark.own_hangar, pytest.mark.kubernetes_only]

PROGRESS = re.compile(r"^pulling image \S+: (\d+\.\d) MB of (\d+\.\d) MB, \d+ of \d+ layers \(node \S+\)$")
RATE = 4_000_000  # bytes per second the proxy serves a blob at


def image_with_random_layer(out: str, tag: str, mb: int = 16) -> None:
    """A docker-archive: the offline python image with one more layer of random bytes on top."""
    layer = io.BytesIO()
    with tarfile.open(fileobj=layer, mode="w") as t:
        data = secrets.token_bytes(mb * 1_000_000)
        info = tarfile.TarInfo("random.bin")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    layer_bytes = layer.getvalue()
    with tarfile.open(f"{LOCAL_IMAGES}/python.tar") as src, tarfile.open(out, "w") as dst:
        manifest = json.load(src.extractfile("manifest.json"))[0]
        config = json.load(src.extractfile(manifest["Config"]))
        for m in src.getmembers():
            if m.name not in ("manifest.json", manifest["Config"]) and m.isfile():
                dst.addfile(m, src.extractfile(m))
        config["rootfs"]["diff_ids"].append("sha256:" + hashlib.sha256(layer_bytes).hexdigest())
        for name, body in (("random.tar", layer_bytes), ("config-random.json", json.dumps(config).encode()),
                           ("manifest.json", json.dumps([{"Config": "config-random.json", "RepoTags": [tag], "Layers": [*manifest["Layers"], "random.tar"]}]).encode())):
            info = tarfile.TarInfo(name)
            info.size = len(body)
            dst.addfile(info, io.BytesIO(body))


def slow_proxy(upstream: str) -> ThreadingHTTPServer:
    """Forwards GET and HEAD to the registry; blob bodies at RATE bytes per second."""
    class Handler(BaseHTTPRequestHandler):
        def handle_one_request(self):
            # containerd tries TLS first and falls back to HTTP for a loopback registry only when the
            # answer is an HTTP response (as Go's servers give); Python's would be an HTTP/0.9 body.
            if self.rfile.peek(1)[:1] == b"\x16":
                self.wfile.write(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
                self.close_connection = True
                return
            super().handle_one_request()

        def forward(self, body: bool):
            req = urllib.request.Request(f"http://{upstream}{self.path}", method=self.command,
                                         headers={k: v for k, v in self.headers.items() if k.lower() in ("accept", "authorization", "range")})
            try:
                r = urllib.request.urlopen(req, timeout=60)
            except urllib.error.HTTPError as e:
                r = e
            self.send_response(r.status)
            for k, v in r.headers.items():
                if k.lower() not in ("connection", "transfer-encoding"):
                    self.send_header(k, v)
            self.end_headers()
            if not body:
                return
            slow = "/blobs/" in self.path
            while chunk := r.read(64 * 1024):
                self.wfile.write(chunk)
                if slow:
                    time.sleep(len(chunk) / RATE)

        def do_GET(self):
            self.forward(True)

        def do_HEAD(self):
            self.forward(False)

        def log_message(self, *args):
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


@pytest.fixture(scope="module")
def slow_registry():
    for tool in ("docker-registry", "skopeo", "curl"):
        assert shutil.which(tool), f"{tool} is missing (make cluster-up installs it)"
    d = tempfile.mkdtemp(prefix="hangar-slow-registry-")
    host = f"127.0.0.1:{free_port()}"
    Path(d, "config.yml").write_text(f"version: 0.1\nlog: {{ level: warn }}\nstorage: {{ filesystem: {{ rootdirectory: {d}/data }} }}\nhttp: {{ addr: {host} }}\n")
    proc = subprocess.Popen(["docker-registry", "serve", f"{d}/config.yml"], stdout=open(f"{d}/log", "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + 10
    while subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://{host}/v2/"]).returncode != 0:
        assert time.time() < deadline and proc.poll() is None, Path(d, "log").read_text()
        time.sleep(0.1)
    proxy = slow_proxy(host)
    yield f"127.0.0.1:{proxy.server_address[1]}", host, d
    proxy.shutdown()
    proc.terminate()
    proc.wait()
    shutil.rmtree(d, ignore_errors=True)


def test_preparing_shows_the_bytes_and_layers_the_node_has_pulled(slow_registry):
    proxy, registry, d = slow_registry
    tag = f"e2e/random:{secrets.token_hex(4)}"
    image_with_random_layer(f"{d}/random.tar", tag)
    subprocess.run(["skopeo", "copy", "-q", "--dest-tls-verify=false", f"docker-archive:{d}/random.tar", f"docker://{registry}/{tag}"], check=True)
    h = start_hangar()
    try:
        seen, _ = states_while_starting(h, f"{proxy}/{tag}")
    finally:
        assert stop_hangar(h) == 0
    assert seen[-1][0] == "STATE_RUNNING", seen[-1][1]
    progress = [PROGRESS.match(r) for s, r in seen if s == "STATE_PREPARING"]
    counted = [(float(m.group(1)), float(m.group(2))) for m in progress if m]
    assert counted, seen
    # Seen part-way: some bytes in, not all, of an image of at least the random layer's size.
    assert any(0 < done < total for done, total in counted), seen
    assert all(total >= 16.0 for _, total in counted), seen
