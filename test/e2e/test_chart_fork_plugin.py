"""The chart's fork plugin (snapshots.forkPlugin, ADR 0029) as an operator deploys it: the DaemonSet
and CSIDriver rendered by the real helm from charts/hangar, run from Hangar's image (imported by make
deploy-test-cluster) on the test cluster, privileged, with the kubelet directory shared both ways.
A pod of the sandbox namespace gets a clone of a snapshot's archive read from the snapshot claim
(a hostPath PersistentVolume here); a pod of another namespace is refused. Its own driver name, so
it runs beside the cluster's host plugin (fork.csi.hangar.dev). Deployed tier only."""
import io
import json
import os
import shutil
import subprocess
import tarfile
import time

import pytest

from conftest import DEPLOYED, REPO, _kube

pytestmark = pytest.mark.skipif(not DEPLOYED, reason="the DaemonSet runs from Hangar's image, which make deploy-test-cluster imports")

STATE = "/var/lib/hangar-test"
DRIVER = "fork-check.csi.hangar.dev"
NS, SBX = "hangar-fork-check", "hangar-fork-check-sbx"
ARCHIVES = f"{STATE}/snapshots/fork-check"
POOL = f"{STATE}/fork-pool/chart"
KUBECTL = os.path.join(subprocess.run(["bash", str(REPO / "test/cluster/lib.sh"), "--print-bin"], capture_output=True, text=True).stdout.strip(), "kubectl")


def kubectl(*args: str, stdin: str | None = None, check: bool = True) -> str:
    r = subprocess.run([KUBECTL, *args], input=stdin, capture_output=True, text=True, timeout=120)
    if check and r.returncode != 0:
        raise AssertionError(f"kubectl {' '.join(args)}: {r.stderr}")
    return r.stdout


def wait(what: str, seconds: float, fn):
    end = time.time() + seconds
    while True:
        v = fn()
        if v:
            return v
        if time.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(1)


def archive() -> bytes:
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.GNU_FORMAT) as t:
        def add(name, data=None, **kw):
            ti = tarfile.TarInfo(name)
            for k, v in kw.items():
                setattr(ti, k, v)
            if data is not None:
                ti.size = len(data)
            t.addfile(ti, io.BytesIO(data) if data is not None else None)
        add("./", type=tarfile.DIRTYPE, mode=0o755)
        add("./src", type=tarfile.DIRTYPE, mode=0o750, uid=1000, gid=1000)
        add("./src/hello", b"hello from the snapshot\n", mode=0o640, uid=1000, gid=1000)
        add("./entry", type=tarfile.SYMTYPE, linkname="src/hello")
    return b.getvalue()


@pytest.fixture(scope="module")
def chart_plugin():
    os.makedirs(f"{ARCHIVES}/t", exist_ok=True)
    with open(f"{ARCHIVES}/t/s.tar", "wb") as f:
        f.write(archive())
    for ns, level in [(NS, "privileged"), (SBX, "privileged")]:
        kubectl("create", "namespace", ns, check=False)
        kubectl("label", "--overwrite", "namespace", ns, f"pod-security.kubernetes.io/enforce={level}")
    kubectl("apply", "-f", "-", stdin=json.dumps({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "hangar-fork-check"},
         "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteMany"], "storageClassName": "", "persistentVolumeReclaimPolicy": "Retain",
                  "hostPath": {"path": ARCHIVES, "type": "Directory"}, "claimRef": {"namespace": NS, "name": "snapshots"}}},
        {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "snapshots", "namespace": NS},
         "spec": {"accessModes": ["ReadWriteMany"], "storageClassName": "", "volumeName": "hangar-fork-check", "resources": {"requests": {"storage": "1Gi"}}}},
    ]}))
    helm = subprocess.run(["bash", str(REPO / "test/cluster/build-helm.sh")], capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1]
    rendered = subprocess.run([helm, "template", "hangar", str(REPO / "charts/hangar"), "-n", NS, "--kube-version", "1.33.0", "--show-only", "templates/forkcsi.yaml",
                               "--set", "auth.open=true", "--set", "image.repository=localhost/hangar", "--set", "image.tag=dev", "--set", "image.pullPolicy=Never",
                               "--set", f"sandboxNamespace={SBX}", "--set", "snapshots.claimName=snapshots", "--set", "snapshots.forkPlugin.enabled=true",
                               "--set", f"snapshots.forkPlugin.driverName={DRIVER}", "--set", f"snapshots.forkPlugin.kubeletDir={STATE}/kubelet",
                               "--set", f"snapshots.forkPlugin.poolPath={POOL}"], capture_output=True, text=True, check=True).stdout
    kubectl("-n", NS, "apply", "-f", "-", stdin=rendered)
    wait("the chart's plugin to register with the kubelet", 120,
         lambda: DRIVER in json.dumps(_kube("GET", f"/apis/storage.k8s.io/v1/csinodes/{os.uname().nodename}")))
    yield
    kubectl("delete", "namespace", SBX, NS, "--wait=true", "--timeout=90s", check=False)
    kubectl("delete", "pv/hangar-fork-check", f"csidriver/{DRIVER}", "--wait=false", check=False)
    shutil.rmtree(ARCHIVES, ignore_errors=True)


def pod(name: str, ns: str) -> dict:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns},
            "spec": {"hostUsers": False, "restartPolicy": "Never", "terminationGracePeriodSeconds": 0,
                     "containers": [{"name": "main", "image": "python:3.11", "imagePullPolicy": "Never",
                                     "command": ["sh", "-c", "cat /ws/entry; stat -c '%u:%g %a' /ws/src/hello; stat -f -c %T /ws; sleep 300"],
                                     "volumeMounts": [{"name": "ws", "mountPath": "/ws"}]}],
                     "volumes": [{"name": "ws", "csi": {"driver": DRIVER, "volumeAttributes": {
                         "hangar.dev/archive": "/var/lib/hangar-snapshots/t/s.tar", "hangar.dev/layer": "ab" * 32, "hangar.dev/size": str(16 << 20)}}}]}}


def test_the_charts_plugin_clones_a_snapshot_for_the_sandbox_namespace_only(chart_plugin):
    kubectl("apply", "-f", "-", stdin=json.dumps(pod("fork-check", SBX)))
    kubectl("apply", "-f", "-", stdin=json.dumps(pod("fork-check-outside", NS)))
    logs = wait("the sandbox namespace's pod to print its volume", 120,
                lambda: (lambda out: out if "ext2/ext3" in out else None)(kubectl("-n", SBX, "logs", "fork-check", check=False)))
    assert logs == "hello from the snapshot\n1000:1000 640\next2/ext3\n", logs
    assert len(os.listdir(f"{POOL}/volumes")) == 1
    # Another namespace's pod never gets a volume of it.
    refused = wait("the other namespace's FailedMount", 60, lambda: [e["message"] for e in _kube("GET", f"/api/v1/namespaces/{NS}/events?fieldSelector=reason%3DFailedMount")["items"]])
    assert any(f"serves pods of namespace {SBX} only" in m for m in refused), refused
    assert json.loads(kubectl("-n", NS, "get", "pod", "fork-check-outside", "-o", "json"))["status"]["phase"] == "Pending"
    # The clone goes with its pod.
    kubectl("-n", SBX, "delete", "pod", "fork-check", "--wait=true", "--timeout=60s")
    assert wait("the clone to go", 60, lambda: os.listdir(f"{POOL}/volumes") == [] or None)
