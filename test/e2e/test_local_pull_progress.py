"""PREPARING with pull progress on the local runtime (issue 40): a sandbox whose image must be pulled
shows STATE_PREPARING with the bytes and layers so far in its state_reason, then runs. The image comes
from a registry on loopback that the test starts (docker-registry), named by the operator as reachable
over plain HTTP (HANGAR_LOCAL_INSECURE_REGISTRIES); without that the pull is refused (TLS only).
"""
from __future__ import annotations

import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import LOCAL_IMAGES, start_hangar, stop_hangar

pytestmark = [pytest.mark.own_hangar, pytest.mark.local_only]

PULLING = re.compile(r"^pulling image \S+: \d+\.\d MB of \d+\.\d MB, \d+ of \d+ layers$")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def registry():
    for tool in ("docker-registry", "skopeo", "curl"):
        assert shutil.which(tool), f"{tool} is missing (make test-e2e installs it)"
    d = tempfile.mkdtemp(prefix="hangar-pull-registry-")
    host = f"127.0.0.1:{free_port()}"
    Path(d, "config.yml").write_text(f"version: 0.1\nlog: {{ level: warn }}\nstorage: {{ filesystem: {{ rootdirectory: {d}/data }} }}\nhttp: {{ addr: {host} }}\n")
    proc = subprocess.Popen(["docker-registry", "serve", f"{d}/config.yml"], stdout=open(f"{d}/log", "w"), stderr=subprocess.STDOUT)
    deadline = time.time() + 10
    while subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://{host}/v2/"]).returncode != 0:
        assert time.time() < deadline and proc.poll() is None, Path(d, "log").read_text()
        time.sleep(0.1)
    subprocess.run(["skopeo", "copy", "-q", "--dest-tls-verify=false", f"docker-archive:{LOCAL_IMAGES}/python.tar", f"docker://{host}/e2e/python:pull"], check=True)
    yield host
    proc.terminate()
    proc.wait()
    shutil.rmtree(d, ignore_errors=True)


def states_while_starting(h, image: str) -> tuple[list, str]:
    """Creates a sandbox of the image on the wire and returns the (state, reason) GetSandbox shows until it leaves starting."""
    import grpc
    from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc
    ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
    stub, md = sandbox_pb2_grpc.SandboxServiceStub(ch), (("authorization", f"Bearer {h.keys['alpha']}"),)
    spec = pb.SandboxSpec(containers=[pb.Container(image=image, command="sleep", args=["60"])], max_lifetime_seconds=60, tags=["e2e-pull-progress"])
    sid = stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md).sandbox_id
    seen, deadline = [], time.time() + 300
    try:
        while time.time() < deadline:
            st = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sid), metadata=md, timeout=10).status
            now = (pb.State.Name(st.state), st.state_reason)
            if not seen or seen[-1] != now:
                seen.append(now)
            if st.state in (pb.STATE_RUNNING, pb.STATE_FAILED, pb.STATE_COMPLETED):
                break
            time.sleep(0.02)
        return seen, sid
    finally:
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sid), metadata=md)
        ch.close()


def test_a_pulled_image_shows_preparing_with_bytes_and_layers_then_runs(registry):
    cache = tempfile.mkdtemp(prefix="hangar-pull-cache-")  # nothing unpacked yet: the image must be pulled
    h = start_hangar({"HANGAR_LOCAL_IMAGE_PULL": "true", "HANGAR_LOCAL_IMAGE_CACHE_DIR": cache, "HANGAR_LOCAL_INSECURE_REGISTRIES": registry})
    try:
        seen, _ = states_while_starting(h, f"{registry}/e2e/python:pull")
        assert seen[-1][0] == "STATE_RUNNING", seen
        preparing = [r for s, r in seen if s == "STATE_PREPARING"]
        assert any(PULLING.match(r) for r in preparing), seen
        assert any(r.startswith("unpacking image") for r in preparing), seen
        # Once unpacked, the next sandbox of that image does not prepare at all.
        again, _ = states_while_starting(h, f"{registry}/e2e/python:pull")
        assert "STATE_PREPARING" not in [s for s, _ in again], again
    finally:
        assert stop_hangar(h) == 0
        shutil.rmtree(cache, ignore_errors=True)


def test_a_plain_http_registry_the_operator_did_not_name_is_refused(registry):
    cache = tempfile.mkdtemp(prefix="hangar-pull-cache-")
    h = start_hangar({"HANGAR_LOCAL_IMAGE_PULL": "true", "HANGAR_LOCAL_IMAGE_CACHE_DIR": cache})
    try:
        seen, _ = states_while_starting(h, f"{registry}/e2e/python:pull")
        assert seen[-1][0] == "STATE_FAILED", seen
        assert "server gave HTTP response to HTTPS client" in seen[-1][1], seen
    finally:
        assert stop_hangar(h) == 0
        shutil.rmtree(cache, ignore_errors=True)
