"""GPUs on the local runtime through the real SDK: only the device nodes the operator lists, each
given to one sandbox at a time, none to a sandbox that asked for none (HANGAR_LOCAL_GPU_DEVICES).

This machine has no GPU. The devices here are stand-ins: character device nodes made for the test
under /dev (copies of /dev/null's and /dev/zero's numbers). What is checked is Hangar's part (which
sandbox sees which node, allocation, refusals, Discovery), not CUDA in a sandbox."""
import os
import secrets

import cwsandbox
import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import CWSandboxError

from conftest import point_sdk_at, start_hangar, stop_hangar

pytestmark = [pytest.mark.local_only, pytest.mark.skipif(os.geteuid() != 0, reason="makes device nodes under /dev as root")]


@pytest.fixture
def gpu_hangar(monkeypatch):
    tag = secrets.token_hex(4)
    devices = [f"/dev/hangar-e2e-gpu{tag}-{i}" for i in range(2)]
    for d, minor in zip(devices, (3, 5)):
        os.mknod(d, 0o666 | 0o020000, os.makedev(1, minor))  # S_IFCHR: /dev/null's and /dev/zero's numbers
        os.chmod(d, 0o666)
    h = start_hangar({"HANGAR_LOCAL_GPU_DEVICES": ",".join(devices), "HANGAR_LOCAL_GPU_TYPE": "STANDIN"})
    point_sdk_at(monkeypatch, h)
    try:
        yield devices
    finally:
        stop_hangar(h)
        for d in devices:
            os.unlink(d)


def visible(sb: Sandbox, devices: list[str]) -> list[str]:
    r = sb.exec(["sh", "-c", " ".join(f"test -c {d} && echo {d};" for d in devices)]).result()
    return r.stdout.split()


def test_each_sandbox_gets_only_the_gpus_it_asked_for(gpu_hangar):
    devices = gpu_hangar
    runners = cwsandbox.list_runners()
    assert [(r.max_gpu_count, list(r.supported_gpu_types)) for r in runners] == [(2, ["STANDIN"])]
    started: list[Sandbox] = []
    try:
        plain = Sandbox.run(tags=["e2e-gpu"], max_lifetime_seconds=120)
        started.append(plain)
        plain.wait()
        assert visible(plain, devices) == [], "a sandbox that asked for no GPU sees one"
        a = Sandbox.run(tags=["e2e-gpu"], resources={"gpu": {"count": 1, "type": "STANDIN"}}, max_lifetime_seconds=120)
        started.append(a)
        b = Sandbox.run(tags=["e2e-gpu"], resources={"gpu": {"count": 1}}, max_lifetime_seconds=120)
        started.append(b)
        a.wait()
        b.wait()
        seen_a, seen_b = visible(a, devices), visible(b, devices)
        assert len(seen_a) == 1 and len(seen_b) == 1 and seen_a != seen_b, (seen_a, seen_b)
        # Usable (a write to the stand-in /dev/null node), and no way to the other one: no mknod.
        assert a.exec(["sh", "-c", f"echo x > {seen_a[0]}"]).result().returncode == 0
        other = seen_b[0]
        r = a.exec(["python3", "-c", f"import os; os.mknod('/tmp/g', 0o020666, os.stat('{seen_a[0]}').st_rdev)"]).result()
        assert r.returncode != 0 and "Operation not permitted" in r.stderr, r
        assert other not in visible(a, devices)
        # Both in use: the next is told so (and may retry); more than exist is refused outright.
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run(tags=["e2e-gpu"], resources={"gpu": {"count": 1}}, max_lifetime_seconds=60).wait()
        assert "2 of this Hangar's 2 local GPUs are in use" in str(e.value), e.value
        with pytest.raises(CWSandboxError) as e:
            Sandbox.run(tags=["e2e-gpu"], resources={"gpu": {"count": 3}}, max_lifetime_seconds=60).wait()
        assert "no runner can give one sandbox 3 GPUs" in str(e.value), e.value
        # A stopped sandbox gives its GPU back.
        a.stop().result()
        c = Sandbox.run(tags=["e2e-gpu"], resources={"gpu": {"count": 1}}, max_lifetime_seconds=120)
        started.append(c)
        c.wait()
        assert visible(c, devices) == seen_a
    finally:
        for sb in started:
            try:
                sb.stop().result()
            except CWSandboxError:
                pass
