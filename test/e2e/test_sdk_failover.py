"""A Hangar replica killed mid-suite (make test-e2e-deployed): the other keeps serving.

Runs between the exec and the files suites (files are collected in name order), against the
chart's two replicas behind their Service. One replica is SIGKILLed (pod deleted with grace 0)
while a sandbox is in use; once the Service's rules dropped it, every call must still succeed, served by the survivor,
and the Deployment brings the replica count back.
"""
import subprocess
import time

import pytest

from cwsandbox import Sandbox

from conftest import DEPLOY_NAMESPACE, _kube, hangar_replicas


def ready_replicas() -> list[str]:
    return [p["metadata"]["name"] for p in hangar_replicas()
            if not p["metadata"].get("deletionTimestamp") and any(c["type"] == "Ready" and c["status"] == "True" for c in p["status"].get("conditions", []))]


@pytest.mark.deployed_only
def test_replica_killed_mid_suite_the_other_keeps_serving(hangar):
    before = ready_replicas()
    assert len(before) >= 2, f"the chart should run two ready replicas: {before}"
    sb = Sandbox.run(tags=["e2e", "failover"], max_lifetime_seconds=300)
    sb.wait()
    assert sb.exec(["echo", "before"]).result().stdout == "before\n"

    victim = before[0]
    victim_ip = next(p["status"]["podIP"] for p in hangar_replicas() if p["metadata"]["name"] == victim)
    _kube("DELETE", f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/pods/{victim}?gracePeriodSeconds=0")
    # The Service forgets the victim when kube-proxy rewrites its rules (up to seconds on a loaded
    # node): until then a new connection may still land on the dead address, which no Hangar
    # could answer. What this test holds Hangar to starts once the load balancer has moved on.
    deadline = time.time() + 60
    while time.time() < deadline and f"{victim_ip}:" in subprocess.run(["iptables-save", "-t", "nat"], capture_output=True, text=True).stdout:
        time.sleep(0.2)
    assert f"{victim_ip}:" not in subprocess.run(["iptables-save", "-t", "nat"], capture_output=True, text=True).stdout, "kube-proxy kept the killed replica's endpoint for 60 s"

    # Calls right after the kill: the same sandbox, a new one, reads of both, stops.
    for i in range(10):
        assert Sandbox.from_id(sb.sandbox_id).result().exec(["echo", str(i)]).result().stdout == f"{i}\n"
    fresh = Sandbox.run("/bin/sh", "-c", "exit 4", tags=["e2e", "failover"])
    fresh.wait_until_complete().result()
    assert fresh.returncode == 4
    assert Sandbox.from_id(sb.sandbox_id).result().status == "running"
    sb.stop().result()
    assert Sandbox.from_id(sb.sandbox_id).result().status == "completed"
    assert {s.sandbox_id for s in Sandbox.list(tags=["failover"], show_terminated=True).result()} >= {sb.sandbox_id, fresh.sandbox_id}

    deadline = time.time() + 120
    while time.time() < deadline and not (len(ready_replicas()) >= 2 and victim not in ready_replicas()):
        time.sleep(1)
    assert len(ready_replicas()) >= 2 and victim not in ready_replicas(), f"the Deployment did not replace {victim}: {ready_replicas()}"
