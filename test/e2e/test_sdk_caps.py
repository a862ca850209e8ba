"""Resource caps as an attacker meets them through the SDK: a CPU limit below the kernel's minimum
quota used to drop every cgroup cap of the local runtime, memory included; a sandbox that asked
for no memory cap had none; an environment of any size was accepted (issue: sandbox boundary)."""
import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import SandboxValidationError

from conftest import point_sdk_at, start_hangar, stop_hangar

GRAB = "b = bytearray(300 * 1024 * 1024); print('allocated', len(b))"


@pytest.mark.local_only
def test_a_tiny_cpu_limit_keeps_the_memory_cap(hangar):
    sb = Sandbox.run(tags=["e2e-caps"], resources={"limits": {"cpu": "1m", "memory": "64Mi"}, "requests": {"cpu": "1m", "memory": "64Mi"}})
    sb.wait()
    try:
        r = sb.exec(["python", "-c", GRAB], timeout_seconds=120).result()
        assert r.returncode != 0 and "allocated" not in r.stdout, (r.returncode, r.stdout, r.stderr)
    finally:
        sb.stop(graceful_shutdown_seconds=0).result()


@pytest.mark.own_hangar
@pytest.mark.local_only
def test_a_sandbox_that_asks_for_no_memory_cap_still_has_one(monkeypatch):
    h = start_hangar({"HANGAR_LOCAL_DEFAULT_MEMORY_BYTES": str(128 * 1024 * 1024)})
    point_sdk_at(monkeypatch, h)
    try:
        sb = Sandbox.run(tags=["e2e-caps"])
        sb.wait()
        r = sb.exec(["python", "-c", GRAB], timeout_seconds=60).result()
        assert r.returncode != 0 and "allocated" not in r.stdout, (r.returncode, r.stdout, r.stderr)
        sb.stop(graceful_shutdown_seconds=0).result()
    finally:
        stop_hangar(h)


def test_an_oversized_environment_is_refused_naming_the_field_and_limit(hangar):
    big = {f"V{i}": "x" * 4096 for i in range(100)}  # 400 KiB, 100 variables: under the count limit
    with pytest.raises(SandboxValidationError) as e:
        Sandbox.run(tags=["e2e-caps"], environment_variables=big)
    assert "environment_variables" in str(e.value) and "262144 bytes" in str(e.value)
