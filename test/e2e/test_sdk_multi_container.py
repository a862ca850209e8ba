"""Multi-container sandboxes through the real SDK (Kubernetes): a primary and a sidecar in one pod,
commands, files and logs by container name, their own filesystems but shared volumes and loopback,
and the primary's exit ending the sidecar too. The local runtime refuses more than one container."""
import time
import uuid

import pytest
from cwsandbox import Container, Sandbox, ScratchVolumeOptions, VolumeMount
from cwsandbox.exceptions import CWSandboxError, SandboxFileError

from conftest import NAMESPACE, RUNTIME, _kube

RES = {"cpu": "250m", "memory": "128Mi"}
SERVE = "import http.server; http.server.ThreadingHTTPServer(('127.0.0.1', 8099), http.server.SimpleHTTPRequestHandler).serve_forever()"


@pytest.mark.kubernetes_only
def test_a_primary_and_a_sidecar_share_volumes_and_loopback_not_files(hangar):
    mount = VolumeMount(volume="work", mount_path="/shared")
    sb = Sandbox.run(
        containers=[
            Container(name="main", primary=True, image="python:3.11", command="sleep", args=("300",), resources=RES, volume_mounts=[mount]),
            Container(name="helper", image="python:3.11", command="python3", args=("-c", SERVE), resources=RES, volume_mounts=[mount]),
        ],
        volumes=[ScratchVolumeOptions(name="work", size="64Mi")],
        tags=["e2e-multi"], max_lifetime_seconds=300,
    )
    try:
        sb.wait()
        assert {c.name for c in sb.container_statuses} == {"main", "helper"}
        marker = uuid.uuid4().hex
        assert sb.exec(["sh", "-c", f"echo {marker} > /shared/m && echo {marker} > /tmp/own"]).result().returncode == 0
        assert sb.exec(["cat", "/shared/m"], container="helper").result().stdout.strip() == marker
        assert sb.exec(["cat", "/tmp/own"], container="helper").result().returncode != 0, "the sidecar sees the primary's own files"
        sb.write_file("/tmp/h.txt", b"helper-only", container="helper").result()
        assert sb.read_file("/tmp/h.txt", container="helper").result() == b"helper-only"
        with pytest.raises(SandboxFileError):
            sb.read_file("/tmp/h.txt").result()
        # Loopback is shared: the primary reaches the sidecar's server on 127.0.0.1.
        deadline, got = time.time() + 20, None
        while time.time() < deadline:
            got = sb.exec(["python3", "-c", "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:8099/').status)"]).result()
            if got.returncode == 0:
                break
            time.sleep(0.5)
        assert got is not None and got.stdout.strip() == "200", got
        with pytest.raises(CWSandboxError) as e:
            sb.exec(["true"], container="nope").result()
        assert "container" in str(e.value), e.value
    finally:
        sb.stop().result()


@pytest.mark.kubernetes_only
def test_the_primarys_exit_ends_its_sidecars(hangar):
    sb = Sandbox.run(
        containers=[
            Container(name="main", primary=True, image="python:3.11", command="sh", args=("-c", "sleep 3; exit 7"), resources=RES),
            Container(name="helper", image="python:3.11", command="sleep", args=("300",), resources=RES),
        ],
        tags=["e2e-multi"], max_lifetime_seconds=120,
    )
    sb.wait_until_complete().result()
    sid = sb.sandbox_id
    assert sb.returncode == 7, (sb.status, sb.returncode)
    deadline = time.time() + 60
    while time.time() < deadline:
        pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sid}")
        states = {c["name"]: c["state"] for c in pod["status"].get("containerStatuses", []) + pod["status"].get("initContainerStatuses", [])}
        if "terminated" in states.get("helper", {}):
            return
        time.sleep(0.5)
    raise AssertionError(f"the sidecar still runs after the primary ended: {states}")


@pytest.mark.local_only
def test_the_local_runtime_runs_one_container(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run(containers=[Container(name="main", primary=True, image="python:3.11", resources=RES), Container(name="b", image="python:3.11", resources=RES)], tags=["e2e-multi"]).wait()
    assert "only one container is supported" in str(e.value) and "sandbox.spec.containers" in str(e.value), e.value
