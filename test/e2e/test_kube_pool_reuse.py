"""Reused pool pods (ADR 0040) on the test cluster, through the real SDK: a pool pod serves one sandbox
after another, each in a fresh cell of hangar-agent's supervisor. Sandbox N plants everything it can
(files in every writable place, detached processes, a listening socket, SysV and POSIX shared memory,
a changed shell profile, a loop rewriting a file); its stop returns; sandbox N+1 runs in the same pod
and finds none of it, and N's processes were gone within 1 s of its stop. The ended sandbox stays
readable (its record moved to a ConfigMap) on another replica. A pod that served one tenant never
serves another."""
import json
import re
import time

import pytest
from cwsandbox import Sandbox

from conftest import NAMESPACE, _kube, point_sdk_at, start_hangar, stop_hangar

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.own_hangar]

IMAGE = "python:3.11"
REUSE = {"HANGAR_KUBE_WARM_POOLS": f"{IMAGE}=1", "HANGAR_KUBE_POOL_REUSE": "true", "HANGAR_KUBE_EXEC_AGENT": "true"}

PLANT = r"""set -e
echo n > /planted; echo n > /tmp/planted; echo n > /dev/shm/planted; echo n > /root/planted; echo n > /var/tmp/planted
echo 'echo profile-was-changed' >> /etc/profile; echo 'echo bashrc-was-changed' >> /root/.bashrc
setsid sleep 1000 < /dev/null > /dev/null 2>&1 &
( ( sleep 1001 < /dev/null > /dev/null 2>&1 & ) & )
nohup sleep 1002 < /dev/null > /dev/null 2>&1 &
( while :; do echo x > /tmp/loop; done ) < /dev/null > /dev/null 2>&1 &
python3 -c 'import socket,os,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("0.0.0.0", 47123)); s.listen()
if os.fork(): os._exit(0)
time.sleep(1000)' < /dev/null > /dev/null 2>&1
ipcmk -M 4096 > /dev/null
python3 -c 'import _posixshmem, os; os.ftruncate(_posixshmem.shm_open("/hangarplant", os.O_CREAT|os.O_RDWR, 0o600), 4096)'
python3 -c 'import ctypes; c=ctypes.CDLL(None, use_errno=True); k=c.syscall(248, b"user", b"hangar-planted", b"v", 1, -4); print("keyring", "planted" if k > 0 else "refused errno %d" % ctypes.get_errno())'
sleep 0.3
ls /proc | grep -c '^[0-9]'
"""

FIND = r"""for f in /planted /tmp/planted /dev/shm/planted /root/planted /var/tmp/planted /tmp/loop /dev/shm/hangarplant; do test -e $f && echo "left: $f"; done
grep -q profile-was-changed /etc/profile && echo "left: profile"
grep -q bashrc-was-changed /root/.bashrc && echo "left: bashrc"
[ "$(ipcs -m | grep -c '^0x')" = 0 ] || echo "left: sysv shm"
for c in /proc/[0-9]*/comm; do read n < $c 2>/dev/null || continue; case $n in sleep|python3) echo "left: process $n";; esac; done
python3 -c 'import socket; s=socket.socket(); s.bind(("0.0.0.0", 47123))' 2>/dev/null || echo "left: listener"
python3 -c 'import ctypes; k=ctypes.CDLL(None).syscall(250, 10, -4, b"user", b"hangar-planted", 0); print("left: key") if k > 0 else None'
true
"""


def pod_of(sandbox_id: str) -> str | None:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fsandbox-id%3D{sandbox_id}")["items"]
    return items[0]["metadata"]["name"] if items else None


def idle_cell_pods() -> list[dict]:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fcell%3Dtrue,hangar.dev%2Fwarm-pool")["items"]
    return [p for p in items if "hangar.dev/exec" in p["metadata"].get("annotations", {}) and not p["metadata"].get("deletionTimestamp")]


def wait_idle(n: int = 1, timeout: float = 90) -> list[dict]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pods = idle_cell_pods()
        if len(pods) >= n:
            return pods
        time.sleep(0.3)
    raise AssertionError(f"no {n} idle reusable pool pod(s) within {timeout} s: {[p['metadata']['name'] for p in idle_cell_pods()]}")


def cleanup_reuse() -> None:
    """Removes every reusable pool pod and ended-record ConfigMap a test's Hangar left."""
    for p in _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fcell%3Dtrue")["items"]:
        _kube("PATCH", f"/api/v1/namespaces/{NAMESPACE}/pods/{p['metadata']['name']}", json.dumps({"metadata": {"finalizers": None}}).encode(), "application/merge-patch+json")
        _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{p['metadata']['name']}?gracePeriodSeconds=0")
    for cm in _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/configmaps?labelSelector=hangar.dev%2Fended-record%3Dtrue")["items"]:
        _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/configmaps/{cm['metadata']['name']}")


@pytest.fixture
def reuse_hangar():
    h = start_hangar(REUSE)
    try:
        yield h
    finally:
        stop_hangar(h)
        cleanup_reuse()


def killed_ms(log_path: str, sandbox_id: str) -> float:
    for line in open(log_path).read().splitlines():
        if sandbox_id in line and "cell replaced" in line:
            return json.loads(line)["killed_ms"]
    raise AssertionError(f"no 'cell replaced' line for {sandbox_id} in Hangar's log")


def test_the_next_sandbox_in_the_same_pod_finds_nothing_of_the_last(reuse_hangar, monkeypatch):
    point_sdk_at(monkeypatch, reuse_hangar)
    wait_idle()
    first = Sandbox.run(container_image=IMAGE, tags=["e2e-reuse"], max_lifetime_seconds=600)
    first.wait()
    pod = pod_of(first.sandbox_id)
    assert pod and pod.startswith("warm-"), pod
    r = first.exec(["/bin/sh", "-c", "tr '\\0' ' ' < /proc/1/cmdline; echo; id -u"]).result()
    assert r.stdout.startswith("hangar-agent cell ") and r.stdout.endswith("\n0\n"), r.stdout
    r = first.exec(["/bin/sh", "-c", PLANT]).result()
    assert r.returncode == 0, (r.stdout, r.stderr)
    assert int(r.stdout.split()[-1]) >= 6, f"the planted processes are not running: {r.stdout}"
    # A key in the session keyring: planted (and looked for below), or refused outright by the
    # runtime's seccomp profile (EPERM: RuntimeDefault denies add_key), so none can carry over.
    keyring = re.search(r"keyring (planted|refused errno \d+)", r.stdout)
    assert keyring and keyring.group(1) in ("planted", "refused errno 1"), r.stdout
    first.stop().result()
    assert killed_ms(reuse_hangar.log_path, first.sandbox_id) <= 1000

    # The pod went back to its pool, labelled as a pool pod again (the ended sandbox's labels gone).
    deadline = time.monotonic() + 30
    while pod_of(first.sandbox_id) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert pod_of(first.sandbox_id) is None
    second = Sandbox.run(container_image=IMAGE, tags=["e2e-reuse"], max_lifetime_seconds=600)
    second.wait()
    assert pod_of(second.sandbox_id) == pod, "the second sandbox did not reuse the first one's pod"
    r = second.exec(["/bin/sh", "-c", FIND]).result()
    assert (r.returncode, r.stdout) == (0, ""), (r.stdout, r.stderr)

    # The ended sandbox is still there to read, here and on another replica (its record moved out of the pod).
    assert str(Sandbox.from_id(first.sandbox_id).result().status) in ("completed", "terminated")
    other = start_hangar(REUSE)  # another replica of the same deployment
    try:
        point_sdk_at(monkeypatch, other)
        listed = {s.sandbox_id: str(s.status) for s in Sandbox.list(tags=["e2e-reuse"], show_terminated=True).result()}
        assert listed.get(first.sandbox_id) in ("completed", "terminated"), listed
        assert listed.get(second.sandbox_id) == "running", listed
    finally:
        stop_hangar(other)
    point_sdk_at(monkeypatch, reuse_hangar)
    second.stop().result()
    # Both ended records share one segment ConfigMap (ADR 0041): one write each, no ConfigMap per sandbox.
    ids = {first.sandbox_id, second.sandbox_id}
    deadline = time.monotonic() + 10
    while True:
        cms = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/configmaps?labelSelector=hangar.dev%2Fended-record%3Dtrue")["items"]
        holders = {cm["metadata"]["name"]: ids & set((cm.get("data") or {}).keys()) for cm in cms}
        holders = {k: v for k, v in holders.items() if v}
        if set().union(*holders.values(), set()) == ids or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert list(holders.values()) == [ids], holders


def test_a_pod_that_served_one_tenant_never_serves_another(reuse_hangar, monkeypatch):
    point_sdk_at(monkeypatch, reuse_hangar, "alpha")
    wait_idle()
    a = Sandbox.run(container_image=IMAGE, tags=["e2e-reuse-tenants"], max_lifetime_seconds=600)
    a.wait()
    pod = pod_of(a.sandbox_id)
    a.exec(["/bin/sh", "-c", "echo alpha-was-here > /tmp/alpha"]).result()
    a.stop().result()
    deadline = time.monotonic() + 30
    while pod_of(a.sandbox_id) is not None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [p["metadata"]["name"] for p in idle_cell_pods()].count(pod) == 1, "the pod did not go back to its pool"

    point_sdk_at(monkeypatch, reuse_hangar, "beta")
    b = Sandbox.run(container_image=IMAGE, tags=["e2e-reuse-tenants"], max_lifetime_seconds=600)
    b.wait()
    assert pod_of(b.sandbox_id) != pod, "beta was given the pod alpha's sandbox ran in"
    b.stop().result()

    point_sdk_at(monkeypatch, reuse_hangar, "alpha")
    again = Sandbox.run(container_image=IMAGE, tags=["e2e-reuse-tenants"], max_lifetime_seconds=600)
    again.wait()
    assert pod_of(again.sandbox_id) == pod, "alpha's next sandbox did not reuse alpha's pod"
    assert again.exec(["/bin/sh", "-c", "cat /tmp/alpha 2>/dev/null || echo gone"]).result().stdout == "gone\n"
    again.stop().result()
