"""Resource caps as an attacker meets them through the SDK: a CPU limit below the kernel's minimum
quota used to drop every cgroup cap of the local runtime, memory included; a sandbox that asked
for no memory cap had none; an environment of any size was accepted (issue: sandbox boundary)."""
import time

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


@pytest.mark.own_hangar
@pytest.mark.kubernetes_only
def test_a_sandbox_that_fills_its_disk_is_evicted_alone(monkeypatch):
    """A pod with no ephemeral-storage limit may write until the node's disk is under pressure, when
    the kubelet evicts pods of every tenant; with Hangar's cap (ADR 0028) it evicts that pod alone."""
    h = start_hangar({"HANGAR_KUBE_EPHEMERAL_STORAGE": "64Mi"})
    point_sdk_at(monkeypatch, h)
    try:
        neighbour = Sandbox.run("sleep", "600", tags=["e2e-caps"], max_lifetime_seconds=600)
        filler = Sandbox.run("sleep", "600", tags=["e2e-caps"], max_lifetime_seconds=600)
        neighbour.wait()
        filler.wait()
        # 160 MiB into its own writable layer, then wait for the kubelet's next look.
        filler.exec(["sh", "-c", "head -c 167772160 /dev/zero > /tmp/fill; sync"], timeout_seconds=120).result()
        deadline = time.time() + 120
        s = Sandbox.from_id(filler.sandbox_id).result()
        while s.status not in ("failed", "completed", "terminated") and time.time() < deadline:
            time.sleep(2)
            s = Sandbox.from_id(filler.sandbox_id).result()
        assert s.status == "completed", (s.status, s.status_reason)
        assert "evicted by the kubelet" in (s.status_reason or "") and "ephemeral" in (s.status_reason or ""), s.status_reason
        assert neighbour.exec(["echo", "still here"]).result().stdout == "still here\n"
        neighbour.stop().result()
    finally:
        stop_hangar(h)


@pytest.mark.own_hangar
@pytest.mark.local_only
def test_a_local_sandbox_that_fills_its_disk_gets_enospc_not_the_host(monkeypatch):
    """Without a disk of its own a local sandbox writes into the data dir's disk until the host's is
    full (Hangar, every other sandbox and the host with it); with one (ADR 0027) it meets ENOSPC."""
    h = start_hangar({"HANGAR_LOCAL_DISK_BYTES": str(64 * 1024 * 1024)})
    point_sdk_at(monkeypatch, h)
    try:
        sb = Sandbox.run("sleep", "300", tags=["e2e-caps"])
        sb.wait()
        for where in ["/tmp/fill", "/root/fill", "/usr/fill"]:
            r = sb.exec(["sh", "-c", f"head -c 134217728 /dev/zero > {where}"], timeout_seconds=60).result()
            assert r.returncode != 0 and "No space left on device" in r.stderr, (where, r.returncode, r.stderr)
            sb.exec(["rm", "-f", where]).result()
        # Within it, writes work as ever.
        assert sb.exec(["sh", "-c", "head -c 8388608 /dev/zero > /tmp/ok && wc -c < /tmp/ok"]).result().stdout.strip() == "8388608"
        sb.stop().result()
    finally:
        stop_hangar(h)
