"""Per-tenant limits through the real SDK (ADR 0031): tenant alpha at its limits is refused with
RESOURCE_EXHAUSTED naming the limit and a retry delay, and tenant beta creates and runs as before.
Before, the only limit was global: one tenant's sandboxes refused every tenant's creates."""
from __future__ import annotations

import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import SandboxResourceExhaustedError

from conftest import point_sdk_at, start_hangar, stop_hangar


@pytest.mark.own_hangar
def test_tenant_at_its_limits_is_refused_and_another_tenant_is_not(monkeypatch):
    # The global limit is 3: two of alpha's leave room for one of beta's only if alpha stops at 2.
    h = start_hangar({"HANGAR_MAX_SANDBOXES": "3", "HANGAR_TENANT_MAX_SANDBOXES": "2", "HANGAR_TENANT_LIMITS": '{"alpha": {"exec_streams": 1}}'})
    mine: list[Sandbox] = []
    try:
        point_sdk_at(monkeypatch, h, "alpha")
        for _ in range(2):
            sb = Sandbox.run("sleep", "300", tags=["e2e-tenant-limits"], max_lifetime_seconds=120)
            sb.wait()
            mine.append(sb)
        with pytest.raises(SandboxResourceExhaustedError) as refused:
            Sandbox.run("sleep", "300", tags=["e2e-tenant-limits"], max_lifetime_seconds=120).wait()
        assert "tenant limit concurrent_sandboxes=2 reached" in str(refused.value)
        assert refused.value.reason == "CWSANDBOX_TENANT_LIMIT_EXCEEDED"
        assert refused.value.retry_delay is not None and refused.value.retry_delay.total_seconds() == 2

        # Alpha runs one command at a time (its override): a second while one runs is refused.
        # exec() returns before the call reaches Hangar: the first holds its slot once its output arrives.
        busy = mine[0].exec(["/bin/sh", "-c", "echo up; sleep 30"])
        assert next(busy.stdout).strip() == "up"
        with pytest.raises(SandboxResourceExhaustedError) as second:
            mine[1].exec(["echo", "x"], timeout_seconds=10).result()
        assert "tenant limit exec_streams=1 reached" in str(second.value)

        # Beta, meanwhile: creates (the last global slot) and runs commands.
        point_sdk_at(monkeypatch, h, "beta")
        theirs = Sandbox.run("sleep", "300", tags=["e2e-tenant-limits"], max_lifetime_seconds=120)
        theirs.wait()
        assert theirs.exec(["echo", "beta"]).result().stdout == "beta\n"
        assert theirs.exec(["echo", "again"]).result().stdout == "again\n"
        theirs.stop(graceful_shutdown_seconds=0).result()
        del busy
    finally:
        point_sdk_at(monkeypatch, h, "alpha")
        for sb in mine:
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        stop_hangar(h)
