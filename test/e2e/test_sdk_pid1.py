"""Hangar as pid 1 (a container's entrypoint): the sandboxes' init processes are orphaned to it when a
sandbox ends. Node reaps only its own children, so without an init every sandbox leaves a zombie;
Hangar's image starts it under tini (Dockerfile, scripts/build-image.sh), which reaps them.
Both are run here, in a pid namespace of their own with its own /proc, as the image would be."""
import os
import signal
import subprocess
from pathlib import Path

import pytest
from cwsandbox import Sandbox

from conftest import point_sdk_at, start_hangar

N = int(os.environ.get("HANGAR_E2E_PID1_SANDBOXES", "40"))
# The image's entrypoint prefix (Dockerfile ENTRYPOINT, scripts/build-image.sh).
IMAGE_INIT = ["/usr/bin/tini", "--"]
NAMESPACE = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"]


def children(pid: int) -> list[int]:
    out = []
    for t in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (t / "children").read_text().split()]
    return out


def zombies_under(pid: int) -> int:
    n = 0
    for c in children(pid):
        stat = Path(f"/proc/{c}/stat").read_text()
        if stat[stat.rindex(")") + 2] == "Z":
            n += 1
    return n


def run_sandboxes(monkeypatch, prefix: list[str]) -> int:
    """N sandboxes (each with a background process) through the SDK; returns the zombies left under the namespace's pid 1."""
    h = start_hangar(prefix=NAMESPACE + prefix)
    point_sdk_at(monkeypatch, h)
    init = children(h.proc.pid)[0]  # pid 1 of the namespace: tini, or Hangar itself
    try:
        for _ in range(N):
            sb = Sandbox.run(tags=["e2e-pid1"])
            sb.wait()
            assert sb.exec(["/bin/sh", "-c", "sleep 1000 & echo started"]).result().stdout == "started\n"
            sb.stop().result()
        return zombies_under(init)
    finally:
        os.kill(init, signal.SIGTERM)  # tini passes it on to Hangar, which stops and cleans up
        try:
            h.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            h.proc.kill()
            raise


@pytest.mark.own_hangar
@pytest.mark.local_only
def test_as_pid_1_the_image_init_reaps_every_orphan(monkeypatch):
    assert os.geteuid() == 0, "a pid namespace of our own needs root (make test runs as root)"
    assert run_sandboxes(monkeypatch, IMAGE_INIT) == 0
    # Without the init (node as pid 1) the same run leaves one zombie per sandbox: what the init is for.
    assert run_sandboxes(monkeypatch, []) >= N * 0.9
