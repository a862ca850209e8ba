"""Egress rules set at claim (ADR 0044) on the test cluster, through the real SDK: a sandbox that
allows egress by address and port is served warm by a `+egress` pool pod, reaches what it was granted
and nothing else; its stop returns the pod with the idle pod's rules (no egress) loaded; sandbox N+1
in the same pod, granted another port, reaches that and not N's; a sandbox without grants is never
given such a pod."""
import time

import pytest
from cwsandbox import EgressRule, NetworkOptions, Sandbox

from conftest import FETCH, point_sdk_at, start_hangar, stop_hangar
from test_kube_pool_reuse import IMAGE, REUSE, cleanup_reuse, pod_of, wait_idle

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.own_hangar]

EGRESS_POOL = {**REUSE, "HANGAR_KUBE_WARM_POOLS": f"{IMAGE}=1+egress"}


def fetch(sb, url: str) -> str:
    return sb.exec(["python3", "-c", FETCH, url], timeout_seconds=60).result().stdout.strip()


def run(*rules: EgressRule) -> Sandbox:
    sb = Sandbox.run(container_image=IMAGE, tags=["e2e-egress-pool"], max_lifetime_seconds=600,
                     network=NetworkOptions(egress=list(rules)) if rules else None)
    sb.wait()
    return sb


@pytest.fixture
def egress_hangar():
    h = start_hangar(EGRESS_POOL)
    try:
        yield h
    finally:
        stop_hangar(h)
        cleanup_reuse()


def test_rules_are_set_at_claim_and_the_next_sandbox_gets_only_its_own(egress_hangar, internet, monkeypatch):
    point_sdk_at(monkeypatch, egress_hangar, "alpha")
    wait_idle()
    a = internet.address
    first = run(EgressRule(cidr=f"{a}/32", ports=[8080]))
    pod = pod_of(first.sandbox_id)
    assert pod and pod.startswith("warm-"), f"a sandbox with egress rules started cold: {pod} {first.status_reason}"
    assert fetch(first, f"http://{a}:8080/") == "internet-ok"
    assert fetch(first, f"http://{a}:8081/").startswith("failed")
    assert fetch(first, f"http://{internet.metadata}/").startswith("failed")

    first.stop().result()
    deadline = time.monotonic() + 30
    while pod_of(first.sandbox_id) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    second = run(EgressRule(cidr=f"{a}/32", ports=[8081]))
    assert pod_of(second.sandbox_id) == pod, "the second sandbox did not reuse the first one's pod"
    assert fetch(second, f"http://{a}:8081/") == "internet-ok"
    assert fetch(second, f"http://{a}:8080/").startswith("failed"), "the first sandbox's grant carried over"
    second.stop().result()

    # No grants: never a +egress pod (its rules are a claim's to set); it starts cold and says why.
    plain = run()
    assert pod_of(plain.sandbox_id) != pod
    assert "egress grants only" in (plain.status_reason or ""), plain.status_reason
    assert fetch(plain, f"http://{a}:8080/").startswith("failed")
    plain.stop().result()
