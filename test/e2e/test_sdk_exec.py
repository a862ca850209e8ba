"""Exec through the real SDK: exit codes, stderr, streaming chunks, large output, stdin, TTY, timeouts."""
import hashlib
import time

import pytest
from cwsandbox.exceptions import SandboxExecutionError, SandboxTimeoutError

GEN = "import sys; sys.stdout.buffer.write(bytes(range(256)) * 81920)"  # 20 MiB, every byte value


def proc_count(sb, cmdline: str) -> int:
    """Processes in the sandbox whose command line starts with `cmdline`."""
    script = 'for p in /proc/[0-9]*; do tr "\\0" " " < $p/cmdline 2>/dev/null; echo; done'
    out = sb.exec(["/bin/sh", "-c", script]).result().stdout
    return sum(1 for line in out.splitlines() if line.startswith(cmdline))


def test_echo_exit_codes_and_stderr(sandbox):
    r = sandbox.exec(["echo", "hello"]).result()
    assert (r.stdout, r.returncode) == ("hello\n", 0)
    r = sandbox.exec(["/bin/sh", "-c", "echo oops >&2; exit 3"]).result()
    assert (r.stderr, r.returncode) == ("oops\n", 3)
    r = sandbox.exec(["/bin/sh", "-c", "kill -9 $$"]).result()
    assert r.returncode == 137


def test_command_not_found_is_127(sandbox):
    r = sandbox.exec(["definitely-not-a-command"]).result()
    assert r.returncode == 127


def test_output_arrives_as_it_is_produced(sandbox):
    proc = sandbox.exec(["/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8 9 10; do echo line$i; sleep 0.2; done"])
    arrivals = []
    for line in proc.stdout:
        arrivals.append((time.monotonic(), line))
    assert proc.result().returncode == 0
    assert [l.strip() for _, l in arrivals] == [f"line{i}" for i in range(1, 11)]
    assert arrivals[-1][0] - arrivals[0][0] > 1.0, "lines were buffered instead of streamed"


def test_many_lines_complete_and_in_order(sandbox):
    r = sandbox.exec(["/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo $i; i=$((i+1)); done"]).result()
    assert r.stdout.splitlines() == [str(i) for i in range(2000)]


def test_20_mib_binary_output_is_byte_exact(sandbox):
    r = sandbox.exec(["python3", "-c", GEN]).result()
    expected = bytes(range(256)) * 81920
    assert r.returncode == 0
    assert len(r.stdout_bytes) == len(expected)
    assert hashlib.sha256(r.stdout_bytes).hexdigest() == hashlib.sha256(expected).hexdigest()


def test_stdin_streaming_with_eof(sandbox):
    proc = sandbox.exec(["wc", "-c"], stdin=True)
    for _ in range(10):
        proc.stdin.write(b"x" * 100_000).result()
    proc.stdin.close().result()
    r = proc.result()
    assert (r.stdout.strip(), r.returncode) == ("1000000", 0)


def test_input_after_the_command_exited_is_discarded_and_the_exit_still_arrives(sandbox):
    """The command exits while input is still coming (`exit 0`, then more lines and the close): the
    late input fails to write (EPIPE) and is dropped, or the SDK refuses it when the exit reached it
    first; the output and the exit status arrive. Before,
    the failed write tore the call down and the SDK waited for its deadline, in ~4% of runs here, so
    this repeats it (40 runs: the old code fails this test ~4 times in 5; test/unit/server.test.ts
    has the deterministic form)."""
    for i in range(40):
        proc = sandbox.exec(["sh"], stdin=True, timeout_seconds=10.0)
        exit_sent = False
        try:
            for line in ["", "echo line1", "echo line2", "exit 0", "", "echo never"]:
                proc.stdin.write((line + "\n").encode()).result()
                exit_sent |= line == "exit 0"
            proc.stdin.close().result()
        except SandboxExecutionError as e:
            # The exit reached the client first (the exec agent is that quick): the SDK itself then
            # refuses more input to an exited process. Only after `exit 0` was sent.
            assert exit_sent and "exited" in str(e.__cause__ or e), (i, e, e.__cause__)
        r = proc.result()
        assert (r.stdout, r.returncode) == ("line1\nline2\n", 0), f"run {i}"


def test_command_reading_stdin_without_stdin_sees_eof(sandbox):
    r = sandbox.exec(["cat"], timeout_seconds=10).result()
    assert (r.stdout, r.returncode) == ("", 0)


def test_tty_shell_with_resize(sandbox):
    session = sandbox.shell(["/bin/sh"], width=100, height=30)
    session.stdin.write(b"stty size\n").result()
    time.sleep(0.5)
    session.resize(120, 40)
    time.sleep(0.3)
    session.stdin.write(b"stty size; tty; exit 5\n").result()
    out = b"".join(session.output)
    result = session.result()
    assert result.returncode == 5
    assert b"30 100" in out and b"40 120" in out, out
    assert b"/dev/pts/" in out


def test_exec_timeout_kills_the_process_tree(sandbox):
    start = time.monotonic()
    with pytest.raises(SandboxTimeoutError):
        sandbox.exec(["/bin/sh", "-c", "sleep 4242 & sleep 4243; wait"], timeout_seconds=1).result()
    elapsed = time.monotonic() - start
    assert elapsed < 5, f"timeout took {elapsed:.1f}s"
    time.sleep(0.5)
    assert proc_count(sandbox, "sleep 424") == 0, "the timed-out command left processes behind"


def test_background_process_survives_a_finished_exec(sandbox):
    r = sandbox.exec(["/bin/sh", "-c", "sleep 4244 > /dev/null 2>&1 & echo started"]).result()
    assert r.stdout == "started\n"
    assert proc_count(sandbox, "sleep 4244") == 1


def test_cwd(sandbox):
    r = sandbox.exec(["pwd"], cwd="/tmp").result()
    assert r.stdout == "/tmp\n"


@pytest.mark.local_only
def test_local_sandbox_root_is_not_host_root(sandbox):
    # Inside, the sandbox is root of its image (like a container); outside, that is an
    # unprivileged host uid: no line of the user namespace's map reaches host uid 0.
    r = sandbox.exec(["/bin/sh", "-c", "echo $HOME:$(id -u); cat /proc/self/uid_map"]).result()
    first, *maps = r.stdout.splitlines()
    assert first == "/root:0"
    for line in maps:
        inside, outside, count = (int(x) for x in line.split())
        assert outside > 0, f"uid_map maps sandbox uid {inside} to host root: {line}"
