"""Copy-on-write forks on Kubernetes through the real SDK (ADR 0029): a restored volume is an inline
CSI volume of hangar-forkcsi, the node plugin the test cluster runs (test/cluster/cluster-up.sh);
the snapshot is unpacked once per node into an ext4 image, each fork mounts a reflink clone of it,
sized as the volume. A crafted archive never reaches the plugin (Hangar checks it first and the
volume is restored with tar inside the sandbox); the plugin's own refusals are forkcsi's Go tests."""
import os
import time

import pytest
from cwsandbox import FileSystemSnapshotOptions, Sandbox
from cwsandbox.exceptions import CWSandboxError

from conftest import DEPLOYED, FORK_DRIVER, FORK_SNAPSHOTS, NAMESPACE, RUNTIME, _kube, point_sdk_at, start_hangar, stop_hangar
from test_sdk_snapshots import CHECK, SEED, WS, crafted_snapshots, fork_crafted, forks_are_their_own, outside_dir

pytestmark = [
    pytest.mark.kubernetes_only,
    pytest.mark.skipif(bool(DEPLOYED), reason="the deployed chart keeps no snapshots (no shared volume named)"),
    pytest.mark.skipif(RUNTIME == "kubernetes" and not os.path.isdir(FORK_SNAPSHOTS), reason="the cluster runs no hangar-forkcsi (make cluster-up starts it)"),
]

POOL_LAYERS = "/var/lib/hangar-test/fork-pool/layers"


def _fss(**kw) -> FileSystemSnapshotOptions:
    return FileSystemSnapshotOptions(mount_path=WS, **{"size": "1Gi", **kw})


def _layers() -> list[str]:
    return sorted(os.listdir(POOL_LAYERS)) if os.path.isdir(POOL_LAYERS) else []


def _volume(sb: Sandbox) -> dict:
    pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
    return next(v for v in pod["spec"]["volumes"] if v["name"] == "vol-workspace")


def _assert_empty_dir(sb: Sandbox) -> None:
    assert "emptyDir" in _volume(sb), _volume(sb)


def _wait_no_layers(before: list[str], seconds: float = 60) -> list[str]:
    deadline = time.time() + seconds
    while [x for x in _layers() if x not in before] and time.time() < deadline:
        time.sleep(0.2)
    return [x for x in _layers() if x not in before]


def test_a_kubernetes_fork_clones_one_layer_copy_on_write(monkeypatch):
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    forks: list[Sandbox] = []
    before = _layers()
    try:
        with Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss()) as source:
            assert source.exec(["sh", "-c", SEED + f"chown 1000:1000 {WS}/repo/src/main.py"]).result().returncode == 0
            snap_id = source.snapshot().result()
        forks = [Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id)) for _ in range(3)]
        for i, f in enumerate(forks):
            f.wait()
            # The node plugin's clone, not an emptyDir filled by tar: the whole tree, owners kept.
            assert _volume(f).get("csi", {}).get("driver") == FORK_DRIVER, _volume(f)
            assert f.exec(["stat", "-f", "-c", "%T", WS]).result().stdout.strip() == "ext2/ext3"
            r = f.exec(["sh", "-c", CHECK + "stat -c %u:%g repo/src/main.py"]).result()
            assert r.returncode == 0 and r.stdout == 'print("episode")\n1000:1000\n', (i, r.stdout, r.stderr)
        forks.append(forks_are_their_own(forks, snap_id))
        new = [x for x in _layers() if x not in before]
        assert len(new) == 1, new
        for f in forks:
            f.stop().result()
        # The layer goes with the last volume made from it.
        assert _wait_no_layers(before) == []
    finally:
        for f in forks:
            f.stop(missing_ok=True).result()
        stop_hangar(h)


def test_a_kubernetes_fork_holds_its_size_and_no_more(monkeypatch):
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    try:
        with Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss(size="16Mi")) as source:
            assert source.exec(["sh", "-c", f"head -c 1048576 /dev/urandom > {WS}/seed"]).result().returncode == 0
            snap_id = source.snapshot().result()
        with Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss(size="16Mi", file_system_snapshot_id=snap_id)) as a, \
                Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss(size="16Mi", file_system_snapshot_id=snap_id)) as b:
            assert _volume(a).get("csi", {}).get("driver") == FORK_DRIVER
            r = a.exec(["sh", "-c", f"head -c 33554432 /dev/zero > {WS}/big; echo rc=$?"]).result()
            assert "No space left" in r.stderr and "rc=1" in r.stdout, (r.stdout, r.stderr)
            # The full volume is that fork's alone: its neighbour from the same layer writes on.
            r = b.exec(["sh", "-c", f"head -c 4194304 /dev/zero > {WS}/four && wc -c < {WS}/seed"]).result()
            assert r.returncode == 0 and r.stdout.strip() == "1048576", (r.stdout, r.stderr)
    finally:
        stop_hangar(h)


def test_a_crafted_archive_never_reaches_the_node_plugin(monkeypatch, tmp_path):
    outside = outside_dir(tmp_path)
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    before = _layers()
    try:
        snaps = crafted_snapshots(outside)
        # Restored with tar inside the sandbox (an emptyDir), never as the plugin's clone.
        fork_crafted(snaps, check=lambda fork: _assert_empty_dir(fork))
        assert list(outside.iterdir()) == [], list(outside.iterdir())
        assert [x for x in _layers() if x not in before] == []
        # Hangar said why: the archive's check refused it, so tar in the sandbox restored it.
        assert h.log().count("no copy-on-write layer for the snapshot") >= len(snaps), h.log()[-2000:]
    finally:
        stop_hangar(h)


def test_a_fork_the_node_pool_cannot_hold_fails_saying_so(monkeypatch):
    # The plugin never lets its volumes reserve more than the pool holds (the test cluster's is 200G).
    h = start_hangar({"HANGAR_STARTUP_TIMEOUT_SECONDS": "15"})
    point_sdk_at(monkeypatch, h)
    try:
        with Sandbox.run("sleep", "300", tags=["e2e-fork"], file_system_snapshot=_fss()) as source:
            assert source.exec(["sh", "-c", f"echo seed > {WS}/seed"]).result().returncode == 0
            snap_id = source.snapshot().result()
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("sleep", "60", tags=["e2e-fork"], file_system_snapshot=_fss(size="300Gi", file_system_snapshot_id=snap_id)).wait()
        assert "cannot hold another" in str(e.value), e.value
        # The pool is untouched by the refusal: a fork that fits starts.
        with Sandbox.run("sleep", "60", tags=["e2e-fork"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id)) as ok:
            assert ok.exec(["cat", f"{WS}/seed"]).result().stdout == "seed\n"
    finally:
        stop_hangar(h)
