"""Claim-time configuration of warm pool pods (ADR 0041) on the test cluster, through the real SDK:
a sandbox with secrets is served by a reused pool pod without a cold start; its commands get the
secrets; the value is nowhere in the pod's spec or annotations nor in Hangar's log; and the next
sandbox in the same pod finds neither the variable nor the file that carried it."""
import json
import secrets as pysecrets
import time

import pytest
from cwsandbox import FileSystemSnapshotOptions, Sandbox, Secret

from conftest import NAMESPACE, _kube, point_sdk_at, start_hangar, stop_hangar
from test_kube_pool_reuse import IMAGE, REUSE, cleanup_reuse, pod_of, wait_idle
from test_sdk_secrets import _k8s_secret

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.own_hangar]

VALUE = f"claim-{pysecrets.token_hex(12)}'\"$x"
STORES = {"HANGAR_SECRET_STORES": "team=kubernetes:hangar-secrets-{tenant}"}


def next_in_same_pod(first, pod: str):
    """Stops `first`, waits for its pod to go back to the pool, and runs the next sandbox, asserting it got that pod."""
    first.stop().result()
    deadline = time.monotonic() + 30
    while pod_of(first.sandbox_id) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    second = Sandbox.run(container_image=IMAGE, tags=["e2e-claim"], max_lifetime_seconds=600)
    second.wait()
    assert pod_of(second.sandbox_id) == pod, "the second sandbox did not reuse the first one's pod"
    return second


@pytest.fixture
def claim_hangar():
    _k8s_secret("hangar-secrets-alpha", "claim-token", {"token": VALUE})
    h = start_hangar({**REUSE, **STORES})
    try:
        yield h
    finally:
        stop_hangar(h)
        cleanup_reuse()
        _kube("DELETE", "/api/v1/namespaces/hangar-secrets-alpha/secrets/claim-token")


def test_secrets_are_applied_at_claim_and_do_not_carry_over(claim_hangar, monkeypatch):
    point_sdk_at(monkeypatch, claim_hangar, "alpha")
    wait_idle()
    first = Sandbox.run(
        container_image=IMAGE,
        tags=["e2e-claim"],
        max_lifetime_seconds=600,
        secrets=[Secret(store="team", name="claim-token", field="token", env_var="API_TOKEN")],
    )
    first.wait()
    pod = pod_of(first.sandbox_id)
    assert pod and pod.startswith("warm-"), f"a sandbox with secrets started cold: {pod}"
    r = first.exec(["/bin/sh", "-c", 'printf %s "$API_TOKEN"']).result()
    assert r.stdout == VALUE, (r.stdout, r.stderr)
    # Not only sh sees it; and the SDK's own cwd still applies.
    r = first.exec(["python3", "-c", "import os, sys; sys.stdout.write(os.environ['API_TOKEN'] + ' ' + os.getcwd())"], cwd="/tmp").result()
    assert r.stdout == f"{VALUE} /tmp", (r.stdout, r.stderr)
    assert VALUE not in json.dumps(_kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/{pod}")), "the secret is in the pod object"
    second = next_in_same_pod(first, pod)
    find = 'echo "${API_TOKEN:-unset}"; test -e /run/hangar/secret-env && echo "left: file"; grep -rl "claim-" /run /tmp 2>/dev/null; true'
    r = second.exec(["/bin/sh", "-c", find]).result()
    assert r.stdout == "unset\n", (r.stdout, r.stderr)
    second.stop().result()
    assert VALUE not in claim_hangar.log(), "the secret value is in Hangar's log"


def test_a_scratch_volume_is_made_in_the_cell_at_claim_and_holds_its_size(claim_hangar, monkeypatch):
    point_sdk_at(monkeypatch, claim_hangar, "alpha")
    wait_idle()
    ws = "/workspace"
    first = Sandbox.run(container_image=IMAGE, tags=["e2e-claim"], max_lifetime_seconds=600,
                        file_system_snapshot=FileSystemSnapshotOptions(mount_path=ws, size="8Mi"))
    first.wait()
    pod = pod_of(first.sandbox_id)
    assert pod and pod.startswith("warm-"), f"a sandbox with a scratch volume started cold: {pod}"
    total_kib = int(first.exec(["df", "-k", "--output=size", ws]).result().stdout.split()[-1])
    assert 7 * 1024 <= total_kib <= 8 * 1024, total_kib
    assert first.exec(["sh", "-c", f"head -c 4194304 /dev/urandom > {ws}/fits && ls -A {ws}"]).result().stdout == "fits\n"
    r = first.exec(["sh", "-c", f"head -c 20971520 /dev/zero > {ws}/too-big"]).result()
    assert r.returncode != 0 and "No space left on device" in r.stderr, (r.returncode, r.stderr)
    # The rest of the sandbox is not the volume's.
    assert first.exec(["sh", "-c", "head -c 1048576 /dev/zero > /tmp/elsewhere"]).result().returncode == 0
    second = next_in_same_pod(first, pod)
    r = second.exec(["/bin/sh", "-c", f"ls -A {ws} 2>&1; grep -c ' {ws} ' /proc/mounts"]).result()
    assert "No such file" in r.stdout and r.stdout.strip().endswith("0"), (r.stdout, r.stderr)
    second.stop().result()
