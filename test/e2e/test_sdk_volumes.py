"""Registered volumes through the real SDK (Volume.list/get, RegisteredVolumeOptions): storage the
operator registered for one tenant, mounted by id, read-only or read-write as registered, one writer
for a ReadWriteOnce claim, and never reachable by another tenant, whose attempts read exactly as an
unknown id. Kubernetes: a PersistentVolumeClaim labelled hangar.dev/volume-tenant; local: a directory
in HANGAR_LOCAL_VOLUMES (a Hangar of its own)."""
import json
import os
import secrets
import shutil
import tempfile
import time

import pytest
from cwsandbox import RegisteredVolumeOptions, Sandbox, Volume, VolumeState
from cwsandbox.exceptions import CWSandboxError, VolumeNotFoundError

from conftest import NAMESPACE, _kube, point_sdk_at, start_hangar, stop_hangar


def _claim(name: str, tenant: str, volume_id: str, path: str, read_only: bool = False) -> None:
    pv = {"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": name},
          "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"], "persistentVolumeReclaimPolicy": "Retain", "storageClassName": "",
                   "hostPath": {"path": path, "type": "Directory"}, "claimRef": {"namespace": NAMESPACE, "name": name}}}
    pvc = {"apiVersion": "v1", "kind": "PersistentVolumeClaim",
           "metadata": {"name": name, "labels": {"hangar.dev/volume-tenant": tenant}, "annotations": {"hangar.dev/volume-id": volume_id, **({"hangar.dev/volume-read-only": "true"} if read_only else {})}},
           "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "", "volumeName": name, "resources": {"requests": {"storage": "1Gi"}}}}
    _kube("POST", "/api/v1/persistentvolumes", json.dumps(pv).encode())
    _kube("POST", f"/api/v1/namespaces/{NAMESPACE}/persistentvolumeclaims", json.dumps(pvc).encode())


def _drop_claim(name: str) -> None:
    for path in (f"/api/v1/namespaces/{NAMESPACE}/persistentvolumeclaims/{name}", f"/api/v1/persistentvolumes/{name}"):
        try:
            _kube("DELETE", path)
        except Exception:  # noqa: BLE001 - already gone
            pass


def _run(volume_id: str, read_only: bool = False, sub_path: str | None = None) -> Sandbox:
    return Sandbox.run("sleep", "300", tags=["e2e-volumes"], max_lifetime_seconds=300,
                       volumes=[RegisteredVolumeOptions(name="data", volume_id=volume_id, mount_path="/data", read_only=read_only, sub_path=sub_path)])


@pytest.mark.kubernetes_only
def test_a_registered_claim_is_its_tenants_alone_with_one_writer(hangar, monkeypatch):
    tag = secrets.token_hex(4)
    name, vid = f"e2e-vol-{tag}", f"e2e-data-{tag}"
    host = tempfile.mkdtemp(prefix="hangar-e2e-vol-")
    os.chmod(host, 0o777)  # sandbox root is an unprivileged uid on the node (user namespaces)
    os.makedirs(os.path.join(host, "run1"), mode=0o777)
    os.chmod(os.path.join(host, "run1"), 0o777)
    _claim(name, "alpha", vid, host)
    started: list[Sandbox] = []
    try:
        deadline = time.time() + 60
        while time.time() < deadline:
            mine = [v for v in Volume.list().result() if v.volume_id == vid]
            if mine and mine[0].state == VolumeState.READY:
                break
            time.sleep(0.5)
        assert mine and mine[0].state == VolumeState.READY, mine
        assert Volume.get(vid).result().access_modes == ("ReadWriteOnce",)
        writer = _run(vid)
        started.append(writer)
        writer.wait()
        assert writer.attached_volume_ids == (vid,)
        assert writer.exec(["sh", "-c", "echo from-episode-1 > /data/run1/out"]).result().returncode == 0
        # ReadWriteOnce: a second writer is refused, naming the mount; a reader is fine.
        with pytest.raises(CWSandboxError) as e:
            _run(vid).wait()
        assert "ReadWriteOnce and sandbox" in str(e.value) and "volume_mounts[0]" in str(e.value), e.value
        reader = _run(vid, read_only=True, sub_path="run1")
        started.append(reader)
        reader.wait()
        assert reader.exec(["cat", "/data/out"]).result().stdout == "from-episode-1\n"
        r = reader.exec(["sh", "-c", "echo x > /data/other"]).result()
        assert r.returncode != 0 and "Read-only" in r.stderr, r
        assert {s.sandbox_id for s in Sandbox.list(volume_ids=[vid], tags=["e2e-volumes"]).result()} >= {writer.sandbox_id, reader.sandbox_id}
        # Another tenant: its list lacks the volume, and the id reads exactly as one that does not exist.
        point_sdk_at(monkeypatch, hangar, "beta")
        assert [v for v in Volume.list().result() if v.volume_id == vid] == []
        with pytest.raises(VolumeNotFoundError) as theirs:
            Volume.get(vid).result()
        with pytest.raises(VolumeNotFoundError) as unknown:
            Volume.get(f"no-such-{tag}").result()
        assert str(theirs.value).replace(vid, "X") == str(unknown.value).replace(f"no-such-{tag}", "X")
        with pytest.raises(CWSandboxError) as e:
            _run(vid, read_only=True).wait()
        assert "CWSANDBOX_VOLUME_NOT_FOUND" in repr(e.value) or "no volume" in str(e.value), e.value
    finally:
        point_sdk_at(monkeypatch, hangar, "alpha")
        for sb in started:
            sb.stop().result()
        _drop_claim(name)
        shutil.rmtree(host, ignore_errors=True)


@pytest.mark.kubernetes_only
def test_a_claim_registered_read_only_takes_no_writer(hangar):
    tag = secrets.token_hex(4)
    name, vid = f"e2e-rovol-{tag}", f"e2e-ro-{tag}"
    host = tempfile.mkdtemp(prefix="hangar-e2e-vol-")
    _claim(name, "alpha", vid, host, read_only=True)
    try:
        deadline = time.time() + 60
        while time.time() < deadline and not [v for v in Volume.list().result() if v.volume_id == vid and v.state == VolumeState.READY]:
            time.sleep(0.5)
        assert Volume.get(vid).result().read_only is True
        with pytest.raises(CWSandboxError) as e:
            _run(vid).wait()
        assert "registered read-only" in str(e.value), e.value
    finally:
        _drop_claim(name)
        shutil.rmtree(host, ignore_errors=True)


@pytest.mark.local_only
@pytest.mark.skipif(os.geteuid() != 0, reason="hands the directory to the sandbox uid range as root")
def test_local_directories_registered_per_tenant(monkeypatch):
    data = tempfile.mkdtemp(prefix="hangar-e2e-vol-")
    shared = tempfile.mkdtemp(prefix="hangar-e2e-vol-ro-")
    os.chown(data, 200000, 200000)  # HANGAR_LOCAL_ID_RANGE_START + sandbox uid 0: the operator gives it to the sandboxes
    with open(os.path.join(shared, "dataset.txt"), "w") as f:
        f.write("shared data\n")
    os.chmod(data, 0o755)
    os.chmod(shared, 0o755)
    h = start_hangar({"HANGAR_LOCAL_VOLUMES": f"alpha/work={data},alpha/datasets={shared}:ro"})
    point_sdk_at(monkeypatch, h)
    try:
        assert sorted(v.volume_id for v in Volume.list().result()) == ["datasets", "work"]
        a = _run("work")
        try:
            a.wait()
            assert a.exec(["sh", "-c", "echo kept > /data/out"]).result().returncode == 0
        finally:
            a.stop().result()
        assert open(os.path.join(data, "out")).read() == "kept\n"  # outlives the sandbox
        b = Sandbox.run("sleep", "300", tags=["e2e-volumes"], volumes=[RegisteredVolumeOptions(name="w", volume_id="work", mount_path="/w"), RegisteredVolumeOptions(name="d", volume_id="datasets", mount_path="/d", read_only=True)])
        try:
            b.wait()
            assert b.exec(["sh", "-c", "cat /w/out /d/dataset.txt"]).result().stdout == "kept\nshared data\n"
            assert b.exec(["sh", "-c", "echo x > /d/new"]).result().returncode != 0
        finally:
            b.stop().result()
        with pytest.raises(CWSandboxError) as e:
            _run("datasets").wait()
        assert "registered read-only" in str(e.value), e.value
        with pytest.raises(CWSandboxError) as e:
            _run("work", sub_path="x").wait()
        assert "sub_path" in str(e.value), e.value
        point_sdk_at(monkeypatch, h, "beta")
        assert Volume.list().result() == []
        with pytest.raises(CWSandboxError) as e:
            _run("work").wait()
        assert "no volume work is registered for you" in str(e.value), e.value
    finally:
        stop_hangar(h)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(shared, ignore_errors=True)
