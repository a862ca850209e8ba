"""Image pull credentials (ImagePullCredentials) through the real SDK. On Kubernetes, against a real
registry that demands a password (docker-registry with htpasswd, on loopback, where the node's
containerd pulls from): without credentials the image cannot be pulled; with the tenant's secret it
runs; the password never comes back and is not on the pod; the sandbox's pull Secret goes with its
pod. The local runtime refuses credentials, naming the field."""
import base64
import json
import os
import secrets as pysecrets
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from cwsandbox import ImagePullCredentials, Sandbox
from cwsandbox.exceptions import CWSandboxError

from conftest import DEPLOYED, LOCAL_IMAGES, NAMESPACE, _kube, point_sdk_at, start_hangar, stop_hangar

pytestmark = pytest.mark.skipif(bool(DEPLOYED), reason="starts Hangars of its own with a secret store")

PASSWORD = f"pw-{pysecrets.token_hex(12)}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def registry():
    """A password-protected registry on loopback holding the shell-less test image as private/noshell:1."""
    for tool in ("docker-registry", "htpasswd", "skopeo"):
        assert shutil.which(tool), f"{tool} is missing: make cluster-up installs it (apt)"
    d = tempfile.mkdtemp(prefix="hangar-registry-")
    port = _free_port()
    Path(d, "htpasswd").write_text(subprocess.run(["htpasswd", "-Bbn", "hangar", PASSWORD], capture_output=True, text=True, check=True).stdout)
    Path(d, "config.yml").write_text(
        f"version: 0.1\nlog: {{ level: warn }}\nstorage: {{ filesystem: {{ rootdirectory: {d}/data }} }}\n"
        f"http: {{ addr: 127.0.0.1:{port} }}\nauth: {{ htpasswd: {{ realm: hangar-test, path: {d}/htpasswd }} }}\n")
    proc = subprocess.Popen(["docker-registry", "serve", f"{d}/config.yml"], stdout=open(f"{d}/log", "w"), stderr=subprocess.STDOUT)
    host = f"127.0.0.1:{port}"
    deadline = time.time() + 10
    while subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://{host}/v2/"]).returncode != 0:
        assert time.time() < deadline and proc.poll() is None, Path(d, "log").read_text()
        time.sleep(0.1)
    subprocess.run(["skopeo", "copy", "-q", "--dest-tls-verify=false", "--dest-creds", f"hangar:{PASSWORD}",
                    f"docker-archive:{LOCAL_IMAGES}/noshell.tar", f"docker://{host}/private/noshell:1"], check=True)
    # An image name no node holds yet, for STATE_PREPARING.
    subprocess.run(["skopeo", "copy", "-q", "--dest-tls-verify=false", "--dest-creds", f"hangar:{PASSWORD}",
                    f"docker-archive:{LOCAL_IMAGES}/noshell.tar", f"docker://{host}/private/fresh:{pysecrets.token_hex(4)}"], check=True)
    yield host
    proc.terminate()
    proc.wait()
    shutil.rmtree(d, ignore_errors=True)


def _states_while_starting(image: str, registry: str, h) -> list:
    """Creates a sandbox of the image on the wire (the SDK's run waits) and returns the states (and
    reasons) GetSandbox shows until it runs, polled every 50 ms."""
    import grpc
    from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc
    ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
    stub, md = sandbox_pb2_grpc.SandboxServiceStub(ch), (("authorization", f"Bearer {h.keys['alpha']}"),)
    creds = pb.ImagePullCredentials(registry=registry, credentials=pb.SecretSource(store_name="team", path="regcred"))
    spec = pb.SandboxSpec(containers=[pb.Container(image=image, command="/bin/pause", image_pull_credentials=creds)], max_lifetime_seconds=60, tags=["e2e-pull"])
    sid = stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md).sandbox_id
    seen, deadline = [], time.time() + 120
    try:
        while time.time() < deadline:
            st = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sid), metadata=md, timeout=10).status
            now = (pb.State.Name(st.state), st.state_reason)
            if not seen or seen[-1] != now:
                seen.append(now)
            if st.state in (pb.STATE_RUNNING, pb.STATE_FAILED, pb.STATE_COMPLETED):
                break
            time.sleep(0.05)
        return seen
    finally:
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sid), metadata=md)
        ch.close()


@pytest.mark.kubernetes_only
def test_a_private_image_runs_with_the_tenants_credentials_and_not_without(registry, monkeypatch):
    ns = "hangar-secrets-alpha"
    body = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "regcred", "labels": {"hangar.dev/secret-store": "team"}},
            "data": {"login": base64.b64encode(f"hangar:{PASSWORD}".encode()).decode()}}
    try:
        _kube("DELETE", f"/api/v1/namespaces/{ns}/secrets/regcred")
    except Exception:
        pass
    _kube("POST", f"/api/v1/namespaces/{ns}/secrets", json.dumps(body).encode())
    h = start_hangar({"HANGAR_SECRET_STORES": "team=kubernetes:hangar-secrets-{tenant}"})
    try:
        image = f"{registry}/private/noshell:1"
        creds = ImagePullCredentials(registry=registry, store="team", name="regcred")
        point_sdk_at(monkeypatch, h, "alpha")
        # The registry refuses an anonymous pull: the sandbox fails, saying why.
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("/bin/pause", container_image=image, tags=["e2e-pull"], max_lifetime_seconds=60).wait()
        assert "pull" in str(e.value).lower(), e.value
        sb = Sandbox.run("/bin/pause", container_image=image, tags=["e2e-pull"], max_lifetime_seconds=60, image_pull_credentials=creds)
        try:
            sb.wait()
            assert sb.exec(["/bin/hello", "pulled", "privately"]).result().stdout.strip() == "pulled privately"
            pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
            assert pod["spec"]["imagePullSecrets"] == [{"name": f"sbx-{sb.sandbox_id}-pull"}]
            assert PASSWORD not in json.dumps(pod)
            pull = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/secrets/sbx-{sb.sandbox_id}-pull")
            assert pull["type"] == "kubernetes.io/dockerconfigjson"
            assert [o["uid"] for o in pull["metadata"]["ownerReferences"]] == [pod["metadata"]["uid"]]
        finally:
            sb.stop().result()
        # An image the node does not hold: PREPARING while the kubelet pulls it, then RUNNING.
        tags = json.loads(subprocess.run(["curl", "-s", "-u", f"hangar:{PASSWORD}", f"http://{registry}/v2/private/fresh/tags/list"], capture_output=True, text=True, check=True).stdout)["tags"]
        seen = _states_while_starting(f"{registry}/private/fresh:{tags[0]}", registry, h)
        assert "STATE_PREPARING" in [s for s, _ in seen] and seen[-1][0] == "STATE_RUNNING", seen
        assert any("pulling image" in why for s, why in seen if s == "STATE_PREPARING"), seen
        # Tenant beta has no such secret: refused before anything runs, naming the field.
        point_sdk_at(monkeypatch, h, "beta")
        # Nor can beta run the image alpha's credentials brought onto the node: the kubelet asks
        # the registry again for a pod without them (KubeletEnsureSecretPulledImages).
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("/bin/pause", container_image=image, tags=["e2e-pull"], max_lifetime_seconds=60).wait()
        assert "pull" in str(e.value).lower(), e.value
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("/bin/pause", container_image=image, tags=["e2e-pull"], image_pull_credentials=creds).wait()
        assert "image_pull_credentials.credentials" in str(e.value) and "not there for this tenant" in str(e.value), e.value
        # A registry other than the image's is refused, naming the field.
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("/bin/pause", container_image=image, tags=["e2e-pull"], image_pull_credentials=ImagePullCredentials(registry="ghcr.io", store="team", name="regcred")).wait()
        assert "image_pull_credentials.registry" in str(e.value), e.value
    finally:
        assert stop_hangar(h) == 0
        assert PASSWORD not in h.log()


@pytest.mark.local_only
def test_the_local_runtime_refuses_pull_credentials_naming_the_field(monkeypatch):
    d = tempfile.mkdtemp(prefix="hangar-secret-store-")
    Path(d, "alpha").mkdir()
    Path(d, "alpha", "regcred").write_text("u:p")
    h = start_hangar({"HANGAR_SECRET_STORES": f"team=dir:{d}/{{tenant}}"})
    try:
        point_sdk_at(monkeypatch, h, "alpha")
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run(tags=["e2e-pull"], container_image="docker.io/library/python:3.11",
                        image_pull_credentials=ImagePullCredentials(registry="docker.io", store="team", name="regcred")).wait()
        assert "image_pull_credentials" in str(e.value) and "not supported by this runtime" in str(e.value), e.value
    finally:
        assert stop_hangar(h) == 0
