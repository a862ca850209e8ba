"""A local Hangar killed with SIGKILL keeps its word (ADR 0030): after the restart, every sandbox
the API acknowledged answers Get and List with a terminal record saying why (a running one, a
completed one, one killed mid-create, and every create acknowledged while a burst was in flight),
until retention. And a data dir the sandboxes' slot uids cannot reach stops Hangar at start,
naming the fix, instead of failing each sandbox's start."""
import os
import stat
import subprocess
import tempfile
import threading
import time

import grpc
import pytest
from cwsandbox import Sandbox
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc

from conftest import NODE, REPO, point_sdk_at, sandbox_processes, start_hangar, stop_hangar

RESTARTED = "Hangar restarted while the sandbox"


def _wire(h):
    ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
    return ch, sandbox_pb2_grpc.SandboxServiceStub(ch), (("authorization", f"Bearer {h.keys['alpha']}"),)


def _spec(cmd: str, probe: pb.Probe | None = None) -> pb.SandboxSpec:
    c = pb.Container(image="python:3.11", command="/bin/sh", args=["-c", cmd], **({"startup_probe": probe} if probe else {}))
    return pb.SandboxSpec(containers=[c], max_lifetime_seconds=300, tags=["crash"])


# cmd/config-local.ts defaults: the first slot uid (the live sandbox's: slots are taken lowest first),
# and the host uid a sandbox's root maps to (HANGAR_LOCAL_ID_RANGE_START).
SLOT_UID = 300_000
SANDBOX_ROOT_UID = 200_000


def _records_are_hangars_alone(data_dir: str, sandbox_id: str) -> None:
    records = os.path.join(data_dir, "records")
    mine = os.path.join(records, f"{sandbox_id}.json")
    with open(mine) as f:
        assert sandbox_id in f.read()  # root reads it: the attack below has something to read
    for uid in (SLOT_UID, SANDBOX_ROOT_UID):
        for argv in (["cat", mine], ["ls", records]):
            peek = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *argv], capture_output=True, text=True)
            assert peek.returncode != 0 and "Permission denied" in peek.stderr, (uid, argv, peek)
            assert sandbox_id not in peek.stdout and '"tenant"' not in peek.stdout, (uid, argv, peek.stdout)
    st = os.stat(records)
    assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (0, 0o700), (st.st_uid, oct(st.st_mode))
    for name in os.listdir(records):
        try:
            st = os.stat(os.path.join(records, name))
        except FileNotFoundError:
            continue  # a temporary file renamed meanwhile
        assert (st.st_uid, stat.S_IMODE(st.st_mode)) == (0, 0o600), (name, st.st_uid, oct(st.st_mode))


@pytest.mark.local_only  # the Kubernetes runtime keeps its sandboxes across a restart (test_ops.py)
@pytest.mark.own_hangar
def test_killed_hangar_answers_every_acknowledged_sandbox_with_a_terminal_record(monkeypatch):
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    ch, stub, md = _wire(h)
    burst: list[str] = []
    try:
        live = Sandbox.run(tags=["crash"], max_lifetime_seconds=300)
        live.wait()
        done = Sandbox.run("/bin/sh", "-c", "exit 5", tags=["crash"])
        done.wait_until_complete().result()
        assert done.returncode == 5
        # The records are Hangar's alone (another tenant's environment is in there): the host uids a
        # sandbox runs as, were it to reach the host's files, cannot read them.
        _records_are_hangars_alone(h.data_dir, live.sandbox_id)
        # Mid-create, deterministically: a start held by a startup probe that never passes stays
        # CREATING (acknowledged, its command running, never RUNNING) until Hangar is killed.
        starting = stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=_spec("sleep 300", pb.Probe(exec=["false"], period_seconds=1, failure_threshold=1000)))), metadata=md).sandbox_id
        assert stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=starting), metadata=md).status.state == pb.STATE_CREATING

        # And a burst of creates in flight when the kill comes: each one answered is acknowledged.
        stop_burst = threading.Event()

        def create_many():
            while not stop_burst.is_set():
                try:
                    burst.append(stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=_spec("sleep 300"))), metadata=md, timeout=20).sandbox_id)
                except grpc.RpcError:
                    return  # Hangar is gone: this one was never acknowledged

        workers = [threading.Thread(target=create_many) for _ in range(4)]
        for w in workers:
            w.start()
        deadline = time.time() + 60
        while len(burst) < 6 and time.time() < deadline:
            time.sleep(0.01)
        h.proc.kill()
        h.proc.wait()
        stop_burst.set()
        for w in workers:
            w.join(30)
        assert len(burst) >= 6, f"only {len(burst)} creates were answered before the kill"
    finally:
        ch.close()
        if h.proc.poll() is None:
            h.proc.kill()
            h.proc.wait()

    # The sandboxes died with Hangar (its watchdog); the restart sweeps what they left.
    h2 = start_hangar({"HANGAR_DATA_DIR": h.data_dir})
    try:
        point_sdk_at(monkeypatch, h2)
        want = {
            live.sandbox_id: ("failed", f"{RESTARTED} ran: its processes were killed"),
            starting: ("failed", f"{RESTARTED} was starting: its processes were killed"),
            done.sandbox_id: ("completed", "main process exited with code 5"),
        }
        got = {}
        for sid in [*want, *burst]:
            sb = Sandbox.from_id(sid).result()  # NOT_FOUND here was the bug
            got[sid] = (str(sb.status), sb.status_reason)
        for sid, (status, reason) in want.items():
            assert got[sid] == (status, reason), (sid, got[sid])
        for sid in burst:
            # Each acknowledged create ran or was still starting when Hangar died: either way it says so.
            assert got[sid][0] == "failed" and got[sid][1].startswith(RESTARTED), (sid, got[sid])
        # Its output died with the Hangar that ran it: the log is empty, not NOT_FOUND.
        ch2, stub2, md2 = _wire(h2)
        try:
            assert list(stub2.StreamLogs(pb.StreamLogsRequest(sandbox_id=done.sandbox_id), metadata=md2, timeout=30)) == []
        finally:
            ch2.close()
        listed = {s.sandbox_id: str(s.status) for s in Sandbox.list(tags=["crash"], show_terminated=True).result()}
        assert set(want) | set(burst) <= set(listed), set(want) | set(burst) - set(listed)
        assert {listed[s] for s in [*want, *burst]} <= {"failed", "completed"}, listed
        deadline = time.time() + 30
        while sandbox_processes(h.data_dir) and time.time() < deadline:
            time.sleep(0.2)
        assert sandbox_processes(h.data_dir) == []
        # A record stays the same across a second restart (it was stored terminal at the first).
        assert stop_hangar(h2) == 0
        h3 = start_hangar({"HANGAR_DATA_DIR": h.data_dir})
        try:
            point_sdk_at(monkeypatch, h3)
            again = Sandbox.from_id(live.sandbox_id).result()
            assert (str(again.status), again.status_reason) == want[live.sandbox_id]
        finally:
            assert stop_hangar(h3) == 0
    finally:
        if h2.proc.poll() is None:
            stop_hangar(h2)


@pytest.mark.local_only
@pytest.mark.own_hangar
def test_records_end_with_retention_after_a_restart(monkeypatch):
    h = start_hangar({"HANGAR_RETENTION_SECONDS": "2"})
    point_sdk_at(monkeypatch, h)
    sb = Sandbox.run(tags=["crash-retention"], max_lifetime_seconds=300)
    sb.wait()
    h.proc.kill()
    h.proc.wait()
    h2 = start_hangar({"HANGAR_DATA_DIR": h.data_dir, "HANGAR_RETENTION_SECONDS": "2"})
    try:
        point_sdk_at(monkeypatch, h2)
        assert str(Sandbox.from_id(sb.sandbox_id).result().status) == "failed"
        records = os.path.join(h.data_dir, "records")
        deadline = time.time() + 30
        while os.listdir(records) and time.time() < deadline:
            time.sleep(0.2)
        assert os.listdir(records) == [], "the record outlived its retention"
        assert sb.sandbox_id not in {s.sandbox_id for s in Sandbox.list(tags=["crash-retention"], show_terminated=True).result()}
    finally:
        assert stop_hangar(h2) == 0


@pytest.mark.local_only  # only a root Hangar starts sandboxes as slot uids
@pytest.mark.own_hangar
def test_a_data_dir_sandboxes_cannot_reach_stops_hangar_at_start():
    assert os.getuid() == 0, "the e2e suite runs Hangar as root"
    closed = tempfile.mkdtemp(prefix="hangar-closed-")  # mode 0700, as mktemp -d makes it
    data = os.path.join(closed, "data")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANGAR_")}
    p = subprocess.Popen([str(NODE), str(REPO / "dist/cmd/main.js")], env={**env, "HANGAR_DATA_DIR": data, "HANGAR_LISTEN": "127.0.0.1:0", "HANGAR_METRICS_LISTEN": "off"},
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        pytest.fail(f"Hangar started on a data dir sandboxes cannot reach:\n{err[-2000:]}")
    assert p.returncode == 2, (p.returncode, err)
    assert f"HANGAR_DATA_DIR {data} is not reachable by sandbox uids (mode 0700 on {closed}): chmod o+x {closed}" in err, err


@pytest.mark.local_only
@pytest.mark.own_hangar
def test_a_stopped_hangar_stores_how_its_sandboxes_ended(monkeypatch):
    """SIGTERM: Hangar stops its sandboxes and stores their ends before it exits (not "restarted")."""
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    sb = Sandbox.run(tags=["crash-graceful"], max_lifetime_seconds=300)
    sb.wait()
    assert stop_hangar(h) == 0
    h2 = start_hangar({"HANGAR_DATA_DIR": h.data_dir})
    try:
        point_sdk_at(monkeypatch, h2)
        again = Sandbox.from_id(sb.sandbox_id).result()
        assert str(again.status) in ("completed", "failed") and not (again.status_reason or "").startswith(RESTARTED), (again.status, again.status_reason)
    finally:
        assert stop_hangar(h2) == 0
