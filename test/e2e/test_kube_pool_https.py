"""`+https` pools (ADR 0042) on the test cluster, through the real SDK: a sandbox whose egress grants
are all hostnames is served by a reused pool pod whose netinit rules reach only Hangar's egress
proxy; each sandbox in that pod gets its own grants and never the last one's; a sandbox without
grants never lands in such a pod and cannot reach the proxy."""
import time

import pytest
from cwsandbox import EgressRule, NetworkOptions, Sandbox

from conftest import TEST_GATEWAY, point_sdk_at, start_hangar, stop_hangar
from test_kube_pool_reuse import IMAGE, cleanup_reuse, pod_of, wait_idle
from test_sdk_network import VIA_PROXY, sandbox_probe

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.own_hangar]


def via(sb, name: str) -> str:
    return sb.exec(["python3", "-c", VIA_PROXY, name], timeout_seconds=60).result().stdout.strip()


def granted(name: str) -> NetworkOptions:
    return NetworkOptions(egress=[EgressRule(dns_name=name)])


def test_hostname_grants_go_warm_and_each_sandbox_in_the_pod_gets_only_its_own(monkeypatch, internet):
    h = start_hangar({
        "HANGAR_KUBE_WARM_POOLS": f"{IMAGE}=1+https", "HANGAR_KUBE_POOL_REUSE": "true", "HANGAR_KUBE_EXEC_AGENT": "true",
        # Every name pinned to the stand-in internet: the proxy never asks DNS, nothing leaves the machine.
        "HANGAR_KUBE_EGRESS_PROXY_LISTEN": "0.0.0.0:0", "HANGAR_KUBE_EGRESS_PROXY_ADDRESS": f"{TEST_GATEWAY}:0",
        "HANGAR_KUBE_EGRESS_PROXY_PINNED": f"one.test={internet.address},two.test={internet.address}",
    })
    try:
        point_sdk_at(monkeypatch, h)
        wait_idle()
        first = Sandbox.run(container_image=IMAGE, tags=["e2e-https-pool"], max_lifetime_seconds=300, network=granted("one.test"))
        first.wait()
        pod = pod_of(first.sandbox_id)
        assert pod and pod.startswith("warm-"), f"a sandbox with hostname grants started cold: {pod}"
        assert via(first, "one.test") == "internet-ok"
        refused = via(first, "two.test")
        assert refused.startswith("failed") and "403" in refused, refused
        proxy = first.exec(["/bin/sh", "-c", "echo $HTTPS_PROXY"], timeout_seconds=30).result().stdout.strip()[len("http://"):]
        assert proxy.startswith(f"{TEST_GATEWAY}:"), proxy
        first.stop().result()

        deadline = time.monotonic() + 30
        while pod_of(first.sandbox_id) is not None and time.monotonic() < deadline:
            time.sleep(0.2)
        second = Sandbox.run(container_image=IMAGE, tags=["e2e-https-pool"], max_lifetime_seconds=300, network=granted("two.test"))
        second.wait()
        assert pod_of(second.sandbox_id) == pod, "the second sandbox did not reuse the first one's pod"
        assert via(second, "two.test") == "internet-ok"
        # The first sandbox's grant did not carry over with the pod: the proxy judged the new claim.
        carried = via(second, "one.test")
        assert carried.startswith("failed") and "403" in carried, carried
        second.stop().result()

        # No grants: never a +https pod (its pool serves hostname grants only), and the proxy is out of reach.
        plain = Sandbox.run(container_image=IMAGE, tags=["e2e-https-pool"], max_lifetime_seconds=300)
        try:
            plain.wait()
            assert pod_of(plain.sandbox_id) != pod
            assert not (pod_of(plain.sandbox_id) or "").startswith("warm-")
            assert sandbox_probe(plain, [proxy])[proxy] != "CONNECTED"
        finally:
            plain.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    finally:
        assert stop_hangar(h) == 0
        cleanup_reuse()
