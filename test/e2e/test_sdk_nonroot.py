"""Hangar run as an ordinary user (docs/security.md, "what each mode needs"): sandboxes still run
their image under a user namespace, the seccomp filter and no network; sandbox root is Hangar's
own unprivileged uid outside, never host root; egress, which nothing could confine, is refused."""
import os
import tempfile

import pytest
from cwsandbox import NetworkOptions, Sandbox

from conftest import REPO, point_sdk_at, start_hangar, stop_hangar

NOBODY = 65534


@pytest.mark.own_hangar
@pytest.mark.local_only
@pytest.mark.skipif(os.geteuid() != 0, reason="starts Hangar as another user")
def test_hangar_as_an_ordinary_user_runs_confined_sandboxes(monkeypatch):
    home = tempfile.mkdtemp(prefix="hangar-nonroot-")
    os.chmod(home, 0o755)
    os.chown(home, NOBODY, NOBODY)
    # The checkout may sit under a directory only root can enter (a CI clone in mktemp -d): Hangar
    # runs from a view of it bind-mounted where any user can reach it, in a mount namespace of its own.
    view = os.path.join(home, "hangar")
    os.mkdir(view)
    as_nobody = f'mount --bind "$0" {view} && cd {view} && exec setpriv --reuid {NOBODY} --regid {NOBODY} --clear-groups -- {view}/node_modules/.bin/node {view}/dist/cmd/main.js'
    h = start_hangar(
        {"HANGAR_DATA_DIR": os.path.join(home, "data"), "HANGAR_LOCAL_IMAGE_CACHE_DIR": os.path.join(home, "images"), "HOME": home},
        prefix=["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", as_nobody, str(REPO)],
    )
    point_sdk_at(monkeypatch, h)
    try:
        assert os.stat(f"/proc/{h.proc.pid}").st_uid == NOBODY  # the shell exec'd setpriv, which exec'd node
        sb = Sandbox.run(tags=["e2e-nonroot"], max_lifetime_seconds=120)
        try:
            sb.wait()
            r = sb.exec(["/bin/sh", "-c", "id -u; cat /proc/self/uid_map; grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status; python3 -c 'print(3 * 7)'"], timeout_seconds=60).result()
            lines = [line.split() for line in r.stdout.splitlines()]
            assert lines[0] == ["0"] and lines[1] == ["0", str(NOBODY), "1"], r.stdout
            assert ["Seccomp:", "2"] in lines and ["NoNewPrivs:", "1"] in lines and ["CapEff:", "0000000000000000"] in lines, r.stdout
            assert lines[-1] == ["21"]
            sb.write_file("/tmp/x", b"written").result()
            assert sb.read_file("/tmp/x").result() == b"written"
        finally:
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        with pytest.raises(Exception, match="egress"):
            Sandbox.run(tags=["e2e-nonroot"], max_lifetime_seconds=60, network=NetworkOptions(deny_egress=False)).wait()
    finally:
        stop_hangar(h)
