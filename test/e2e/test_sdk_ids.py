"""The id and error contract as SDK programs meet it (docs/errors.md): cleanup code that deletes by id
with missing_ok, handles that outlive their sandbox, and the exception class behind each gRPC code."""
import time
import uuid

import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import (
    SandboxError,
    SandboxNotFoundError,
    SandboxResourceExhaustedError,
    SandboxTimeoutError,
)

from conftest import RUNTIME, point_sdk_at, start_hangar, stop_hangar

# Ids of every shape a caller may hold: the SDK docstring's own example, a UUID nobody issued,
# path- and space-laden strings, the longest accepted.
FOREIGN_IDS = ["sandbox-abc123", str(uuid.uuid4()), "../../etc/passwd", "a b\tc", "x" * 256]


@pytest.mark.parametrize("sandbox_id", FOREIGN_IDS)
def test_an_id_that_names_no_sandbox_is_not_found_whatever_its_shape(hangar, sandbox_id):
    Sandbox.delete(sandbox_id, missing_ok=True).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(sandbox_id).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.from_id(sandbox_id).result()


@pytest.mark.one_replica
def test_deleting_twice_is_not_found(hangar):
    sb = Sandbox.run(tags=["e2e"])
    sb.wait()
    Sandbox.delete(sb.sandbox_id).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(sb.sandbox_id).result()
    Sandbox.delete(sb.sandbox_id, missing_ok=True).result()
    # A sandbox that ended on its own is deleted once, then gone too.
    done = Sandbox.run("echo", "x", tags=["e2e"])
    done.wait_until_complete().result()
    Sandbox.delete(done.sandbox_id).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(done.sandbox_id).result()


@pytest.mark.one_replica
def test_a_deleted_sandbox_refuses_exec_and_files_but_keeps_its_terminal_record(hangar):
    sb = Sandbox.run(tags=["e2e"])
    sb.wait()
    assert sb.exec(["echo", "hi"]).result().stdout == "hi\n"
    Sandbox.delete(sb.sandbox_id).result()
    # The handle still believes it runs: every call reaches Hangar and is told the sandbox is gone.
    with pytest.raises(SandboxNotFoundError):
        sb.exec(["echo", "hi"]).result()
    with pytest.raises(SandboxNotFoundError):
        sb.read_file("/etc/hostname").result()
    with pytest.raises(SandboxNotFoundError):
        sb.write_file("/tmp/x", b"x").result()
    sb.stop(missing_ok=True).result()
    # Get keeps the terminal record until retention ends: the SDK's own stop() polls it. (The delete
    # came first, so this stop() found nothing to stop and did not wait: on Kubernetes the pod takes
    # about as long to end as Get holds an answer, 2 s, so the record may still say terminating.)
    deadline = time.time() + 30
    again = Sandbox.from_id(sb.sandbox_id).result()
    while again.status == "terminating" and time.time() < deadline:
        time.sleep(0.5)
        again = Sandbox.from_id(sb.sandbox_id).result()
    assert again.status == "completed"


@pytest.mark.one_replica
def test_stop_then_poll_sees_the_end(hangar):
    """stop() is a DeleteSandbox and a Get poll until terminal: it must not trip over the delete."""
    sb = Sandbox.run(tags=["e2e"])
    sb.wait()
    sb.stop().result()
    assert sb.status in ("completed", "terminated")
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(sb.sandbox_id).result()


@pytest.mark.one_replica
def test_other_codes_reach_the_sdk_as_documented(hangar):
    # FAILED_PRECONDITION (the sandbox ended; the handle does not know yet) -> SandboxError itself.
    sb = Sandbox.run("sleep", "1", tags=["e2e"])
    sb.wait()
    stale = Sandbox.from_id(sb.sandbox_id).result()
    sb.wait_until_complete().result()
    with pytest.raises(SandboxError) as e:
        stale.exec(["echo", "x"], timeout_seconds=10).result()
    assert not isinstance(e.value, SandboxNotFoundError)
    assert "not running" in str(e.value)
    # DEADLINE_EXCEEDED with reason CWSANDBOX_COMMAND_TIMEOUT -> SandboxTimeoutError carrying that
    # reason on an exec stream (the SDK's exec path); SandboxCommandTimeoutError on unary calls.
    live = Sandbox.run(tags=["e2e"])
    live.wait()
    try:
        with pytest.raises(SandboxTimeoutError) as t:
            live.exec(["sleep", "30"], timeout_seconds=1).result()
        # On Kubernetes the kill goes through another exec, which a busy node can hold past the
        # SDK's 5 s margin; then the client's own deadline ends the call first, without a reason.
        if RUNTIME == "local":
            assert t.value.reason == "CWSANDBOX_COMMAND_TIMEOUT"
    finally:
        live.stop().result()


@pytest.mark.own_hangar
def test_resource_exhausted_is_sandbox_resource_exhausted_error(monkeypatch):
    h = start_hangar({"HANGAR_MAX_EXECS_PER_SANDBOX": "1"})
    point_sdk_at(monkeypatch, h)
    try:
        sb = Sandbox.run(tags=["e2e"])
        sb.wait()
        busy = sb.exec(["sleep", "20"])
        with pytest.raises(SandboxResourceExhaustedError):
            sb.exec(["echo", "x"], timeout_seconds=10).result()
        sb.stop(graceful_shutdown_seconds=0).result()
        del busy
    finally:
        stop_hangar(h)


def _pod_lists() -> float:
    """The apiserver's count of namespaced pod LISTs so far (its own /metrics, admin kubeconfig)."""
    from conftest import _kube_text

    total = 0.0
    for line in _kube_text("/metrics").splitlines():
        if line.startswith("apiserver_request_total{") and 'resource="pods"' in line and 'verb="LIST"' in line and 'subresource=""' in line:
            total += float(line.rsplit(" ", 1)[1])
    return total


@pytest.mark.kubernetes_only
@pytest.mark.own_hangar
def test_unknown_ids_cost_the_apiserver_nothing_and_answer_as_another_tenants_do(monkeypatch):
    # Before: every GetSandbox of an id this replica did not know was one pod LIST (200 ids, 200 LISTs),
    # and another tenant's id answered at once while an unknown one waited for the LIST.
    h = start_hangar()
    try:
        point_sdk_at(monkeypatch, h, "beta")
        theirs = Sandbox.run(tags=["e2e-ids"], max_lifetime_seconds=300)
        theirs.wait()
        point_sdk_at(monkeypatch, h, "alpha")
        before = _pod_lists()
        unknown, foreign = [], []
        for i in range(100):
            for sid, times in ((str(uuid.uuid4()), unknown), (theirs.sandbox_id, foreign))[: 2 if i % 2 else 1]:
                t0 = time.monotonic()
                with pytest.raises(SandboxNotFoundError):
                    Sandbox.from_id(sid).result()
                times.append(time.monotonic() - t0)
        lists = _pod_lists() - before
        assert lists < 10, f"{lists} pod LISTs for 150 lookups of ids this tenant cannot see"
        med = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
        print(f"unknown id p50 {med(unknown) * 1000:.1f} ms, another tenant's p50 {med(foreign) * 1000:.1f} ms, pod LISTs {lists:.0f}")
        point_sdk_at(monkeypatch, h, "beta")
        Sandbox.delete(theirs.sandbox_id, missing_ok=True).result()
    finally:
        assert stop_hangar(h) == 0
