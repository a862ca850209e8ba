"""Lifecycle through the real SDK: states, stop/delete, terminal records, list, sessions, lifetime, discovery, auth, tenants."""
import time
import uuid

import cwsandbox
import pytest
from cwsandbox import AuthHeaders, Sandbox, SandboxDefaults, Session
from cwsandbox.exceptions import (
    CWSandboxAuthenticationError,
    SandboxError,
    SandboxNotFoundError,
    SandboxNotRunningError,
    SandboxTerminatedError,
)

from conftest import start_hangar, stop_hangar


def bearer(key: str) -> AuthHeaders:
    return AuthHeaders(headers={"Authorization": f"Bearer {key}"}, strategy="api_key")


def test_natural_exit_is_completed_with_exit_code(hangar):
    sb = Sandbox.run("echo", "hello", tags=["e2e"])
    sb.wait_until_complete().result()
    assert sb.status == "completed" and sb.returncode == 0
    sb2 = Sandbox.run("/bin/sh", "-c", "exit 7", tags=["e2e"])
    sb2.wait_until_complete().result()
    assert sb2.returncode == 7
    sb.stop().result()  # stopping a finished sandbox succeeds


def test_stop_keeps_a_terminal_record(hangar):
    sb = Sandbox.run(tags=["e2e"])
    sb.wait()
    sb.stop().result()
    again = Sandbox.from_id(sb.sandbox_id).result()
    assert again.status == "completed" and again.returncode in (0, None)
    with pytest.raises(SandboxTerminatedError):
        sb.wait_until_complete().result()


def test_stop_with_zero_grace_kills_at_once(hangar):
    sb = Sandbox.run("/bin/sh", "-c", "trap '' TERM; touch /tmp/ready; sleep 300", tags=["e2e"])
    sb.wait()
    # RUNNING means the command runs, not that it has reached its trap yet: wait until it has.
    while sb.exec(["test", "-e", "/tmp/ready"]).result().returncode != 0:
        time.sleep(0.05)
    t = time.monotonic()
    sb.stop(graceful_shutdown_seconds=0).result()
    assert time.monotonic() - t < 5
    assert Sandbox.from_id(sb.sandbox_id).result().status == "completed"


def test_grace_then_kill(hangar):
    sb = Sandbox.run("/bin/sh", "-c", "trap '' TERM; touch /tmp/ready; sleep 300", tags=["e2e"])
    sb.wait()
    # RUNNING means the command runs, not that it has reached its trap yet: wait until it has.
    while sb.exec(["test", "-e", "/tmp/ready"]).result().returncode != 0:
        time.sleep(0.05)
    t = time.monotonic()
    sb.stop(graceful_shutdown_seconds=1).result()
    took = time.monotonic() - t
    assert 0.9 < took < 8, took


def test_delete_missing_ok_and_not_found(hangar):
    missing = str(uuid.uuid4())
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(missing).result()
    Sandbox.delete(missing, missing_ok=True).result()
    sb = Sandbox.run(tags=["e2e"])
    Sandbox.delete(sb.sandbox_id).result()
    sb.stop(missing_ok=True).result()


def test_exec_into_stopped_sandbox_is_refused(hangar):
    sb = Sandbox.run("echo", "done", tags=["e2e"])
    sb.wait_until_complete().result()
    fresh = Sandbox.from_id(sb.sandbox_id).result()
    with pytest.raises((SandboxError, SandboxNotRunningError)):
        fresh.exec(["echo", "x"], timeout_seconds=10).result()


def test_list_by_tags_and_state(hangar):
    tag = f"list-{uuid.uuid4().hex[:8]}"
    a = Sandbox.run(tags=[tag, "a"])
    b = Sandbox.run(tags=[tag, "b"])
    done = Sandbox.run("true", tags=[tag, "done"])
    cwsandbox.wait([a, b])
    done.wait_until_complete().result()
    ids = lambda items: sorted(s.sandbox_id for s in items)
    assert ids(Sandbox.list(tags=[tag]).result()) == sorted([a.sandbox_id, b.sandbox_id])
    assert ids(Sandbox.list(tags=[tag, "a"]).result()) == [a.sandbox_id]
    assert ids(Sandbox.list(tags=[tag], status="completed").result()) == [done.sandbox_id]
    assert ids(Sandbox.list(tags=[tag], show_terminated=True).result()) == sorted([a.sandbox_id, b.sandbox_id, done.sandbox_id])
    for s in (a, b):
        s.stop().result()
    assert Sandbox.list(tags=[tag]).result() == []


def test_session_cleanup_and_parallel_sandboxes(hangar):
    tag = f"sess-{uuid.uuid4().hex[:8]}"
    with Session(SandboxDefaults(tags=(tag,))) as session:
        sbs = [session.sandbox() for _ in range(6)]
        procs = [sb.exec(["/bin/sh", "-c", f"echo {i}"]) for i, sb in enumerate(sbs)]
        assert [p.result().stdout for p in procs] == [f"{i}\n" for i in range(6)]
        assert len(Sandbox.list(tags=[tag]).result()) == 6
    assert Sandbox.list(tags=[tag]).result() == []
    assert len(Sandbox.list(tags=[tag], status="completed").result()) == 6


def test_rl_reward_pattern(hangar):
    """Five completions scored in parallel sandboxes of one Session, collected as they finish."""
    completions = [
        "import time\ntime.sleep(1.5)\nprint(sum(range(10)))",  # slow sum -> 45
        "print('hello'[::-1].upper())",  # string op -> OLLEH
        "import time\ntime.sleep(0.5)\nprint(1/0)",  # delayed ZeroDivisionError
        "print('unclosed'",  # syntax error
        "print([x*x for x in range(4)])",  # list comprehension
    ]
    expected = ["45", "OLLEH", None, None, "[0, 1, 4, 9]"]
    with Session(SandboxDefaults(tags=("rl-reward",), max_lifetime_seconds=120)) as session:
        sandboxes = [session.sandbox() for _ in completions]
        for sb, code in zip(sandboxes, completions):
            sb.write_file("/tmp/completion.py", code.encode()).result()
        procs = [sb.exec(["python", "/tmp/completion.py"], timeout_seconds=60) for sb in sandboxes]
        index = {id(p): i for i, p in enumerate(procs)}
        rewards = [None] * len(procs)
        order = []
        pending = list(procs)
        while pending:
            done, pending = cwsandbox.wait(pending, num_returns=1)
            for p in done:
                i = index[id(p)]
                r = p.result()
                rewards[i] = 1 if r.returncode == 0 and r.stdout.strip() == expected[i] else 0
                order.append(i)
    assert rewards == [1, 1, 0, 0, 1]
    assert order[-1] == 0, f"the slow completion should finish last, got order {order}"


def test_max_lifetime_is_enforced(hangar):
    sb = Sandbox.run(max_lifetime_seconds=2, tags=["e2e"])
    sb.wait()
    t = time.monotonic()
    while time.monotonic() - t < 10:
        s = Sandbox.from_id(sb.sandbox_id).result()
        if s.status == "completed":
            break
        time.sleep(0.2)
    assert s.status == "completed"
    assert time.monotonic() - t < 6


def test_discovery(hangar):
    runners = cwsandbox.list_runners()
    assert len(runners) == 1
    r = runners[0]
    assert r.healthy and r.runner_id and r.organization_id and r.resources is None
    assert set(r.supported_architectures) & {"amd64", "arm64"}
    full = cwsandbox.list_runners(include_resources=True)[0]
    assert full.resources is not None and full.resources.available_memory_bytes >= 256 * 1024 * 1024
    got = cwsandbox.get_runner(r.runner_id, organization_id=r.organization_id)
    assert got.runner_id == r.runner_id and got.resources is not None
    sb = Sandbox.run(runner_ids=[r.runner_id], tags=["e2e"])
    sb.wait()
    assert sb.runner_id == r.runner_id
    sb.stop().result()
    assert cwsandbox.list_runners(architecture="s390x") == []


def test_auth_errors(hangar):
    with pytest.raises(CWSandboxAuthenticationError):
        Sandbox.list(auth=bearer("wrong-key-0123456789")).result()
    with pytest.raises(CWSandboxAuthenticationError):
        Sandbox.list(auth=AuthHeaders(headers={}, strategy="none")).result()


def test_tenant_isolation(hangar):
    tag = f"iso-{uuid.uuid4().hex[:8]}"
    mine = Sandbox.run(tags=[tag])
    mine.wait()
    beta = bearer(hangar.keys["beta"])
    assert Sandbox.list(tags=[tag], auth=beta).result() == []
    with pytest.raises(SandboxNotFoundError):
        Sandbox.from_id(mine.sandbox_id, auth=beta).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(mine.sandbox_id, auth=beta).result()
    assert mine.exec(["echo", "still mine"]).result().stdout == "still mine\n"
    mine.stop().result()


@pytest.mark.own_hangar
def test_terminal_records_expire_after_retention(monkeypatch):
    h = start_hangar({"HANGAR_RETENTION_SECONDS": "5"}, keys=False)
    monkeypatch.setenv("CWSANDBOX_BASE_URL", h.url)
    monkeypatch.delenv("CWSANDBOX_API_KEY")
    try:
        sb = Sandbox.run("true")
        deadline = time.monotonic() + 30
        while Sandbox.from_id(sb.sandbox_id).result().status != "completed":
            assert time.monotonic() < deadline, "the sandbox did not complete"
            time.sleep(0.1)
        time.sleep(6)
        with pytest.raises(SandboxNotFoundError):
            Sandbox.from_id(sb.sandbox_id).result()
    finally:
        assert stop_hangar(h) == 0
