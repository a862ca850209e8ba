"""Resource caps as an attacker meets them through the SDK: a CPU limit below the kernel's minimum
quota used to drop every cgroup cap of the local runtime, memory included (issue: sandbox boundary)."""
import pytest
from cwsandbox import Sandbox

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
