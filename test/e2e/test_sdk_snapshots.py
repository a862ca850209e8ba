"""File-system snapshots through the real SDK: an agent's workspace snapshotted once and forked into
several sandboxes at once, each with the whole tree (modes, links, empty dirs) and each its own;
snapshots are their tenant's alone; an archive over the operator's cap is FAILED, never stored.
Both runtimes (Hangar keeps snapshots in HANGAR_SNAPSHOT_DIR; the deployed chart names none)."""
import os
import stat
import time

import pytest
from cwsandbox import FileSystemSnapshotOptions, FileSystemSnapshotStatus, Sandbox
from cwsandbox.exceptions import CWSandboxError, SnapshotNotFoundError

from conftest import DEPLOYED, RUNTIME, point_sdk_at, start_hangar, stop_hangar

pytestmark = pytest.mark.skipif(bool(DEPLOYED), reason="the deployed chart keeps no snapshots (no shared volume named)")

WS = "/workspace"
SEED = f"""set -e
mkdir -p {WS}/repo/src {WS}/empty
echo 'print("episode")' > {WS}/repo/src/main.py
chmod 750 {WS}/repo/src/main.py
ln -s src/main.py {WS}/repo/entry
head -c 1048576 /dev/urandom > {WS}/blob
sha256sum {WS}/blob | cut -d' ' -f1 > {WS}/blob.sum
"""
CHECK = f"""set -e
cd {WS}
test -d empty
test "$(stat -c %a repo/src/main.py)" = 750
test "$(readlink repo/entry)" = src/main.py
test "$(sha256sum blob | cut -d' ' -f1)" = "$(cat blob.sum)"
cat repo/entry
"""


def _fss(**kw) -> FileSystemSnapshotOptions:
    return FileSystemSnapshotOptions(mount_path=WS, size="1Gi", **kw)


def test_snapshot_once_fork_many(hangar, monkeypatch):
    source = Sandbox.run("sleep", "300", tags=["e2e-snapshots"], max_lifetime_seconds=300, file_system_snapshot=_fss())
    forks: list[Sandbox] = []
    try:
        r = source.exec(["sh", "-c", SEED]).result()
        assert r.returncode == 0, r.stderr
        snap_id = source.snapshot().result()
        snap = Sandbox.get_snapshot(snap_id).result()
        assert snap.status == FileSystemSnapshotStatus.READY and snap.source_sandbox_id == source.sandbox_id
        # Fork: one snapshot into three sandboxes at once.
        forks = [Sandbox.run("sleep", "300", tags=["e2e-snapshots"], max_lifetime_seconds=300, file_system_snapshot=_fss(file_system_snapshot_id=snap_id)) for _ in range(3)]
        for i, f in enumerate(forks):
            f.wait()
            r = f.exec(["sh", "-c", CHECK]).result()
            assert r.returncode == 0 and r.stdout == 'print("episode")\n', (i, r.stdout, r.stderr)
            assert f.exec(["sh", "-c", f"echo fork{i} > {WS}/mine"]).result().returncode == 0
        # Each fork is its own: what one wrote, the others and the source do not see.
        assert [f.exec(["cat", f"{WS}/mine"]).result().stdout for f in forks] == ["fork0\n", "fork1\n", "fork2\n"]
        assert source.exec(["test", "-e", f"{WS}/mine"]).result().returncode != 0
        # Another tenant: not listed, not readable, not restorable, as an id that does not exist.
        point_sdk_at(monkeypatch, hangar, "beta")
        assert all(s.file_system_snapshot_id != snap_id for s in Sandbox.list_snapshots().result())
        with pytest.raises(SnapshotNotFoundError):
            Sandbox.get_snapshot(snap_id).result()
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("sleep", "60", tags=["e2e-snapshots"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id)).wait()
        assert "no snapshot" in str(e.value), e.value
        with pytest.raises(SnapshotNotFoundError):
            Sandbox.delete_snapshot(snap_id).result()
        point_sdk_at(monkeypatch, hangar, "alpha")
        assert Sandbox.get_snapshot(snap_id).result().status == FileSystemSnapshotStatus.READY  # beta's delete did nothing
        Sandbox.delete_snapshot(snap_id).result()
        with pytest.raises(SnapshotNotFoundError):
            Sandbox.get_snapshot(snap_id).result()
    finally:
        point_sdk_at(monkeypatch, hangar, "alpha")
        for sb in [source, *forks]:
            sb.stop(missing_ok=True).result()


def test_no_volume_mounts_where_hangar_mounts_its_exec_agent(hangar):
    # On Kubernetes /.hangar-agent holds the agent, read-only (ADR 0023); the API refuses it on both runtimes.
    for at in ["/.hangar-agent", "/.hangar-agent/work"]:
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run("sleep", "60", tags=["e2e-snapshots"], file_system_snapshot=FileSystemSnapshotOptions(mount_path=at, size="1Gi")).wait()
        assert "/.hangar-agent is where Hangar mounts its exec agent" in str(e.value), e.value


@pytest.mark.skipif(RUNTIME != "local", reason="starts a Hangar of its own with a small cap; the runtime does not matter to the cap")
def test_an_archive_over_the_cap_is_failed_and_not_kept(monkeypatch):
    h = start_hangar({"HANGAR_SNAPSHOT_MAX_BYTES": str(1024 * 1024)})
    point_sdk_at(monkeypatch, h)
    try:
        with Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss()) as sb:
            sb.exec(["sh", "-c", f"head -c 3000000 /dev/urandom > {WS}/big"]).result()
            with pytest.raises(CWSandboxError) as e:
                sb.snapshot().result()
            assert "HANGAR_SNAPSHOT_MAX_BYTES" in str(e.value), e.value
            failed = [s for s in Sandbox.list_snapshots(source_sandbox_id=sb.sandbox_id).result()]
            assert [s.status for s in failed] == [FileSystemSnapshotStatus.FAILED]
        import glob
        assert glob.glob(f"{h.data_dir}/snapshots/alpha/*.tar*") == []
    finally:
        stop_hangar(h)


def test_the_agent_episode_example(monkeypatch, tmp_path):
    """docs/agent-episodes.md, as written there (a shared template, prepare once, fork, keep the best)."""
    f = tmp_path / "shared.yaml"
    f.write_text('- id: py-agent\n  display_name: Python agent environment\n  spec:\n    containers: [{ name: main, image: python:3.11, resources: { cpu: "1", memory: 1Gi } }]\n    max_lifetime_seconds: 1800\n')
    h = start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f)})
    point_sdk_at(monkeypatch, h)
    try:
        env = {"PIP_NO_INPUT": "1"}
        workspace = FileSystemSnapshotOptions(mount_path="/workspace", size="4Gi")
        base = Sandbox.run("sleep", "infinity", template_id="py-agent", container_image="python:3.11", environment_variables=env, file_system_snapshot=workspace)
        base.exec(["sh", "-c", "mkdir -p /workspace/repo && echo 'def solve(): return 42' > /workspace/repo/task.py"]).result()
        ready = base.snapshot().result()
        base.stop().result()
        episodes = [Sandbox.run("sleep", "infinity", template_id="py-agent", container_image="python:3.11", environment_variables=env,
                                file_system_snapshot=FileSystemSnapshotOptions(mount_path="/workspace", file_system_snapshot_id=ready)) for _ in range(3)]
        for i, sb in enumerate(episodes):
            r = sb.exec(["python", "-c", f"import sys, os; sys.path.insert(0, '/workspace/repo'); import task; open('/workspace/result','w').write('attempt {i} ' + str(task.solve()) + ' ' + os.environ['PIP_NO_INPUT'])"]).result()
            assert r.returncode == 0, r.stderr
        best = episodes[1]
        best.stop(snapshot_on_stop=True).result()
        keep = best.file_system_snapshot_id
        for sb in episodes:
            sb.stop(missing_ok=True).result()
        # Branch from the kept episode: its result is there.
        again = Sandbox.run("sleep", "infinity", template_id="py-agent", container_image="python:3.11", file_system_snapshot=FileSystemSnapshotOptions(mount_path="/workspace", file_system_snapshot_id=keep))
        try:
            assert again.read_file("/workspace/result").result() == b"attempt 1 42 1"
        finally:
            again.stop().result()
    finally:
        stop_hangar(h)


LOCAL_ROOT = RUNTIME == "local" and os.geteuid() == 0


def forks_are_their_own(forks: list[Sandbox], snap_id: str) -> Sandbox:
    """What each fork changes or removes is its own (the others still read theirs), a later fork
    reads the snapshot's tree, and deleting the snapshot leaves running forks whole. Returns the
    later fork, for the caller to stop."""
    for i, f in enumerate(forks):
        assert f.exec(["sh", "-c", f"echo fork{i} > {WS}/mine && echo changed > {WS}/repo/src/main.py && rm {WS}/blob"]).result().returncode == 0
    for i, f in enumerate(forks):
        assert f.exec(["cat", f"{WS}/mine", f"{WS}/repo/src/main.py"]).result().stdout == f"fork{i}\nchanged\n"
    late = Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id))
    r = late.exec(["sh", "-c", CHECK + f"test ! -e {WS}/mine"]).result()
    assert r.returncode == 0 and r.stdout == 'print("episode")\n', r.stderr
    Sandbox.delete_snapshot(snap_id).result()
    assert late.exec(["sh", "-c", CHECK]).result().returncode == 0
    return late


def _layers(h) -> list[str]:
    d = os.path.join(h.data_dir, "layers")
    return sorted(n for n in os.listdir(d)) if os.path.isdir(d) else []


@pytest.mark.skipif(not LOCAL_ROOT, reason="copy-on-write restores are the local runtime's when Hangar is root (ADR 0026)")
def test_a_local_fork_mounts_one_layer_copy_on_write(monkeypatch):
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    forks: list[Sandbox] = []
    try:
        with Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss()) as source:
            assert source.exec(["sh", "-c", SEED]).result().returncode == 0
            snap_id = source.snapshot().result()
        forks = [Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id)) for _ in range(3)]
        for i, f in enumerate(forks):
            f.wait()
            # An overlay over the one unpacked layer, not a copy: the whole tree, and writes of its own.
            assert f.exec(["stat", "-f", "-c", "%T", WS]).result().stdout.strip() == "overlayfs"
            r = f.exec(["sh", "-c", CHECK]).result()
            assert r.returncode == 0, (i, r.stderr)
        forks.append(forks_are_their_own(forks, snap_id))
        # One layer under all of them; it stays while they mount it and goes with the last of them.
        assert len(_layers(h)) == 1, _layers(h)
        for f in forks:
            f.stop().result()
        deadline = time.time() + 10
        while _layers(h) and time.time() < deadline:
            time.sleep(0.1)
        assert _layers(h) == []
    finally:
        for f in forks:
            f.stop(missing_ok=True).result()
        stop_hangar(h)


# A sandbox controls what its snapshot's archive holds: here `tar` on its PATH prints a crafted one
# (a device node of the host's memory, writable by all; a link out of the volume and a file through it).
CRAFT = r"""import io, sys, tarfile
t = tarfile.open(fileobj=sys.stdout.buffer, mode="w|")
def add(name, data=b"", **kw):
    ti = tarfile.TarInfo(name)
    for k, v in kw.items():
        setattr(ti, k, v)
    ti.size = len(data) if ti.type == tarfile.REGTYPE else 0
    t.addfile(ti, io.BytesIO(data) if ti.type == tarfile.REGTYPE else None)
add("./", type=tarfile.DIRTYPE, mode=0o755)
add("./ok", b"fine", mode=0o644)
if sys.argv[1] == "device":
    add("./mem", type=tarfile.CHRTYPE, devmajor=1, devminor=1, mode=0o666)
else:
    add("./esc", type=tarfile.SYMTYPE, linkname=sys.argv[2])
    add("./esc/pwned", b"owned", mode=0o644)
t.close()
"""


def outside_dir(tmp_path):
    """A host directory anyone may write: a crafted archive's link points there; it must stay empty."""
    outside = tmp_path / "outside"
    outside.mkdir()
    os.chmod(tmp_path, 0o777)
    os.chmod(outside, 0o777)
    return outside


def crafted_snapshots(outside) -> list[str]:
    """Snapshots whose archives a sandbox crafted (CRAFT): a device node, and a link to `outside` with a file through it."""
    snaps = []
    with Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss()) as source:
        source.write_file("/craft.py", CRAFT.encode()).result()
        for kind in ["device", "link"]:
            fake = f"#!/bin/sh\nexec python3 /craft.py {kind} {outside}\n"
            r = source.exec(["sh", "-c", f"printf '%s' '{fake}' > /usr/local/bin/tar && chmod 755 /usr/local/bin/tar && command -v tar"]).result()
            assert r.stdout.strip() == "/usr/local/bin/tar", r
            snaps.append(source.snapshot().result())
    return snaps


def fork_crafted(snaps: list[str], check=lambda fork: None) -> None:
    """Restores each: restored at all, then never with a device node (the host's memory, writable by all); or refused by tar."""
    for snap_id in snaps:
        try:
            fork = Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=_fss(file_system_snapshot_id=snap_id))
            fork.wait()
            check(fork)
            r = fork.exec(["sh", "-c", f"test -c {WS}/mem && echo device; cat {WS}/ok"]).result()
            assert r.stdout == "fine", r.stdout
            fork.stop().result()
        except CWSandboxError as e:
            assert "Cannot mknod" in str(e) or "Not a directory" in str(e) or "Cannot open" in str(e), e


@pytest.mark.skipif(not LOCAL_ROOT, reason="the local runtime's unpack of a layer runs on the host (Hangar is root)")
def test_a_crafted_archive_makes_no_device_and_writes_nothing_outside(monkeypatch, tmp_path):
    outside = outside_dir(tmp_path)
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    try:
        fork_crafted(crafted_snapshots(outside))
        assert list(outside.iterdir()) == [], list(outside.iterdir())
        # No layer was kept from it, and nothing under the layers or the sandboxes is a device node.
        assert _layers(h) == []
        for root, dirs, files in [*os.walk(os.path.join(h.data_dir, "layers")), *os.walk(os.path.join(h.data_dir, "sandboxes"))]:
            for n in files:
                st = os.lstat(os.path.join(root, n))
                assert not (stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)), os.path.join(root, n)
    finally:
        stop_hangar(h)


@pytest.mark.skipif(not LOCAL_ROOT, reason="the local runtime gives a sized volume a file system of its own when Hangar is root")
def test_a_local_volume_holds_its_size_and_no_more(hangar):
    small = FileSystemSnapshotOptions(mount_path=WS, size="8Mi")
    with Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=small) as sb:
        total_kib = int(sb.exec(["df", "-k", "--output=size", WS]).result().stdout.split()[-1])
        assert 7 * 1024 <= total_kib <= 8 * 1024, total_kib
        assert sb.exec(["sh", "-c", f"head -c 4194304 /dev/urandom > {WS}/fits && ls -A {WS}"]).result().stdout == "fits\n"
        r = sb.exec(["sh", "-c", f"head -c 20971520 /dev/zero > {WS}/too-big"]).result()
        assert r.returncode != 0 and "No space left on device" in r.stderr, (r.returncode, r.stderr)
        # The rest of the sandbox is not the volume's: its own disk still takes a write.
        assert sb.exec(["sh", "-c", "head -c 1048576 /dev/zero > /tmp/elsewhere"]).result().returncode == 0
        snap_id = sb.snapshot().result()
    try:
        # A fork of it: the snapshot's tree below (copy-on-write), its own writes within the size.
        with Sandbox.run("sleep", "300", tags=["e2e-snapshots"], file_system_snapshot=FileSystemSnapshotOptions(mount_path=WS, size="8Mi", file_system_snapshot_id=snap_id)) as fork:
            assert fork.exec(["sh", "-c", f"rm {WS}/too-big; ls -A {WS}"]).result().stdout == "fits\n"
            r = fork.exec(["sh", "-c", f"head -c 20971520 /dev/zero > {WS}/too-big"]).result()
            assert r.returncode != 0 and "No space left on device" in r.stderr, (r.returncode, r.stderr)
    finally:
        Sandbox.delete_snapshot(snap_id).result()
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run("sleep", "60", tags=["e2e-snapshots"], file_system_snapshot=FileSystemSnapshotOptions(mount_path=WS, size="100Ki")).wait()
    assert "below the local runtime's smallest volume, 1Mi" in str(e.value), e.value
