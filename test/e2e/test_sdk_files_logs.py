"""Files and logs through the real SDK."""
import os
import time

import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import SandboxFileError


def test_write_and_read_5_mib_binary(sandbox):
    payload = os.urandom(5 * 1024 * 1024) + bytes(range(256))
    sandbox.write_file("/app/data/blob.bin", payload).result()
    assert sandbox.read_file("/app/data/blob.bin").result() == payload


def test_large_file_beyond_unary_cap_uses_fallback(hangar, sandbox):
    payload = os.urandom(40 * 1024 * 1024)
    sandbox.write_file("/tmp/big.bin", payload).result()
    assert sandbox.read_file("/tmp/big.bin").result() == payload


def test_missing_file_error(sandbox):
    with pytest.raises(SandboxFileError) as e:
        sandbox.read_file("/no/such/file").result()
    assert e.value.reason == "CWSANDBOX_FILE_NOT_FOUND"
    assert e.value.metadata.get("filepath") == "/no/such/file"


def test_directory_error(sandbox):
    with pytest.raises(SandboxFileError) as e:
        sandbox.read_file("/tmp").result()
    assert e.value.reason == "CWSANDBOX_FILE_IS_DIRECTORY"


@pytest.mark.local_only
def test_permission_error(sandbox):
    # Local sandboxes run as a non-root user; a root container could read the file anyway.
    sandbox.exec(["/bin/sh", "-c", "echo secret > /tmp/locked && chmod 000 /tmp/locked"]).result()
    with pytest.raises(SandboxFileError) as e:
        sandbox.read_file("/tmp/locked").result()
    assert e.value.reason == "CWSANDBOX_FILE_PERMISSION_DENIED"


@pytest.mark.local_only
def test_paths_stay_inside_the_sandbox(sandbox, hangar):
    # /etc/shadow is the image's, never the host's; ../ and symlinks resolve inside the sandbox's own view.
    with open("/etc/shadow", "rb") as f:
        assert sandbox.read_file("/etc/shadow").result() != f.read()
    sandbox.exec(["ln", "-s", "/", "/tmp/escape"]).result()
    with pytest.raises(SandboxFileError):
        sandbox.read_file(f"/tmp/escape/{hangar.data_dir}/../hangar.log").result()
    sandbox.write_file("/tmp/../tmp/x", b"inside").result()
    assert sandbox.read_file("/tmp/x").result() == b"inside"


def test_mounted_files_and_env(hangar):
    sb = Sandbox.run(mounted_files=[{"mount_path": "/etc/app.conf", "file_content": "k=v\n"}], environment_variables={"GREETING": "hi"}, tags=["e2e"])
    try:
        sb.wait()
        r = sb.exec(["/bin/sh", "-c", "cat /etc/app.conf; echo $GREETING"]).result()
        assert r.stdout == "k=v\nhi\n"
    finally:
        sb.stop().result()


def test_logs_tail_follow_and_timestamps(hangar):
    sb = Sandbox.run("/bin/sh", "-c", "for i in 1 2 3 4 5; do echo log$i; sleep 0.1; done; sleep 300", tags=["e2e"])
    try:
        sb.wait()
        time.sleep(1)
        lines = list(sb.stream_logs(tail_lines=2))
        assert [l.strip() for l in lines] == ["log4", "log5"]
        stamped = list(sb.stream_logs(timestamps=True))
        assert len(stamped) == 5 and all(l.split(" ", 1)[0].endswith("Z") for l in stamped)
        assert [l.split(" ", 1)[1].strip() for l in stamped] == [f"log{i}" for i in range(1, 6)]
    finally:
        sb.stop(graceful_shutdown_seconds=0).result()


def test_follow_logs_end_when_the_main_process_exits(hangar):
    # Slow enough to still be running when the follow starts, on any runtime.
    sb = Sandbox.run("/bin/sh", "-c", "sleep 2; for i in 1 2 3; do echo tick$i; sleep 0.5; done", tags=["e2e", "follow"])
    sb.wait()
    got = [l.strip() for l in sb.stream_logs(follow=True)]
    assert got == ["tick1", "tick2", "tick3"]
    sb.wait_until_complete().result()
    assert sb.returncode == 0


def test_keepalive_logs_are_empty(sandbox):
    assert list(sandbox.stream_logs(tail_lines=10)) == []
