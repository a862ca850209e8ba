"""Sized pools (ADR 0043) on the test cluster, through the real SDK: a sandbox's own CPU and memory
limits are applied at claim to a reused pool pod (resized in place, confirmed from the pod's cgroup
before the sandbox runs), without a cold start; they hold (a memory hog above the limit is killed);
the next sandbox in the same pod gets its own; a pod whose memory limit a sandbox raised never
serves a sandbox asking less; a limit above the pool's cap starts cold and says why."""
import time

import pytest
from cwsandbox import Sandbox

from conftest import point_sdk_at, start_hangar, stop_hangar
from test_kube_pool_reuse import IMAGE, REUSE, cleanup_reuse, pod_of, wait_idle

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.own_hangar]

SIZED = {**REUSE, "HANGAR_KUBE_WARM_POOLS": f"{IMAGE}=1+cpu:1+memory:512Mi"}

# The pod's own cgroup (the cell shares it): v1 or v2, as the node has.
LIMITS = r"""
import os
def first(*paths):
    for p in paths:
        if os.path.exists(p):
            return open(p).read().split()
    return ["?"]
mem = first("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory.max")[0]
cpu = first("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu.max")[0]
print(mem, cpu)
"""

HOG = "import sys; b = bytearray(int(sys.argv[1]) * 2**20); b[::4096] = b'x' * len(b[::4096]); print('held')"


def run(limits: dict) -> Sandbox:
    sb = Sandbox.run(container_image=IMAGE, tags=["e2e-sized"], max_lifetime_seconds=600, resources={"limits": limits})
    sb.wait()
    return sb


def limits_in(sb: Sandbox) -> tuple[int, int]:
    r = sb.exec(["python3", "-c", LIMITS]).result()
    mem, cpu = r.stdout.split()
    return int(mem), int(cpu)


def stop_and_wait_return(sb: Sandbox) -> None:
    sb.stop().result()
    deadline = time.monotonic() + 30
    while pod_of(sb.sandbox_id) is not None and time.monotonic() < deadline:
        time.sleep(0.2)


@pytest.fixture
def sized_hangar():
    h = start_hangar(SIZED)
    try:
        yield h
    finally:
        stop_hangar(h)
        cleanup_reuse()


def test_limits_are_applied_at_claim_hold_and_are_the_next_sandboxs_own(sized_hangar, monkeypatch):
    point_sdk_at(monkeypatch, sized_hangar, "alpha")
    wait_idle()
    first = run({"cpu": "250m", "memory": "256Mi"})
    pod = pod_of(first.sandbox_id)
    assert pod and pod.startswith("warm-"), f"a sandbox with limits within the pool's caps started cold: {pod} {first.status_reason}"
    # Applied before the sandbox ran its first command: the pool pod started at 1 CPU and 64Mi.
    assert limits_in(first) == (256 * 2**20, 25_000)
    assert first.exec(["python3", "-c", HOG, "100"]).result().stdout == "held\n"
    hog = first.exec(["python3", "-c", HOG, "400"]).result()
    assert hog.returncode != 0 and "held" not in hog.stdout, "400 MiB fit under a 256Mi limit"

    stop_and_wait_return(first)
    second = run({"cpu": "500m", "memory": "384Mi"})
    assert pod_of(second.sandbox_id) == pod, "the second sandbox did not reuse the first one's pod"
    assert limits_in(second) == (384 * 2**20, 50_000)
    assert second.exec(["python3", "-c", HOG, "300"]).result().stdout == "held\n"

    # The pod's memory limit is now 384Mi, which Kubernetes does not lower in place: a sandbox asking
    # 256Mi must not get it (it would run with more than it asked); it starts in a pod of its own.
    stop_and_wait_return(second)
    third = run({"cpu": "250m", "memory": "256Mi"})
    assert pod_of(third.sandbox_id) != pod
    assert limits_in(third) == (256 * 2**20, 25_000)
    third.stop().result()


def test_a_limit_above_the_pools_cap_starts_cold_and_says_why(sized_hangar, monkeypatch):
    point_sdk_at(monkeypatch, sized_hangar, "alpha")
    wait_idle()
    # (The test node has 2 CPUs: a CPU limit above the cap would not schedule cold either.)
    sb = run({"cpu": "250m", "memory": "768Mi"})
    pod = pod_of(sb.sandbox_id)
    assert pod and not pod.startswith("warm-"), pod
    assert limits_in(sb) == (768 * 2**20, 25_000)
    reason = sb.status_reason or ""
    assert "cold start: it cannot use the sized pool" in reason and "above the pool's cap of 512Mi" in reason, reason
    sb.stop().result()
