"""Warm pools through the real SDK (make test-e2e-deployed runs the chart with a pool of python:3.11).

A default Sandbox.run() is served by a claimed pool pod, and the user cannot tell: env,
mounted files, a fresh filesystem, its own lifetime.
"""
import pytest

from cwsandbox import Sandbox

from conftest import NAMESPACE, _kube


def backing_pod(sandbox_id: str) -> dict:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fsandbox-id%3D{sandbox_id}")["items"]
    assert len(items) == 1, items
    return items[0]


@pytest.mark.deployed_only
def test_default_sandboxes_come_from_the_warm_pool_and_look_cold(hangar):
    first = Sandbox.run(tags=["e2e", "warm"], environment_variables={"GREETING": "hi"}, mounted_files=[{"mount_path": "/etc/app.conf", "file_content": "k=v\n"}])
    first.wait()
    pod = backing_pod(first.sandbox_id)
    assert pod["metadata"]["labels"].get("hangar.dev/claimed") == "true", pod["metadata"]["name"]
    assert not pod["metadata"]["name"].startswith("sbx-")
    r = first.exec(["/bin/sh", "-c", 'echo "$GREETING"; cat /etc/app.conf; touch /tmp/left-behind']).result()
    assert r.stdout == "hi\nk=v\n"
    second = Sandbox.run(tags=["e2e", "warm"])
    second.wait()
    assert backing_pod(second.sandbox_id)["metadata"]["name"] != pod["metadata"]["name"]
    r2 = second.exec(["/bin/sh", "-c", "ls /tmp/left-behind 2>&1; echo ${GREETING:-unset}; ls /etc/app.conf 2>&1"]).result()
    assert "unset" in r2.stdout and "No such file" in r2.stdout
    first.stop().result()
    second.stop().result()
