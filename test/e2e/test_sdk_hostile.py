"""A sandbox is hostile: each finding of the boundary probe as an attack through the real SDK that
must fail (docs/security.md). Runs against whichever runtime the suite targets; checks that only
the local runtime guarantees today are marked local_only (the Kubernetes side is issue 14's)."""
import json
import os
import time
import secrets
import socket
import subprocess
import sys
from urllib.parse import urlparse

import pytest
from cwsandbox import NetworkOptions, Sandbox

from conftest import FETCH, RUNTIME


# Runs inside the sandbox: every syscall that reaches past the sandbox must fail.
SYSCALLS = r"""
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def call(nr, *args):
    r = libc.syscall(nr, *[ctypes.c_long(a) for a in args])
    return "ok" if r >= 0 else os.strerror(ctypes.get_errno())
CLONE_NEWUSER = 0x10000000
print("unshare-user", call(272, CLONE_NEWUSER))                 # unshare(2), x86_64
print("mount", call(165, 0, 0, 0, 0, 0))                          # mount(2)
print("keyctl", call(250, 0, 0, 0, 0, 0))                         # keyctl(2)
print("bpf", call(321, 0, 0, 0))                                  # bpf(2)
print("ptrace", call(101, 16, 1, 0, 0))                           # ptrace(PTRACE_ATTACH, 1)
print("io_uring", call(425, 1, 0))                                # io_uring_setup(2)
print("perf", call(298, 0, 0, -1, -1, 0))                         # perf_event_open(2)
print("set_mempolicy", call(238, 0, 0, 0))                        # set_mempolicy(MPOL_DEFAULT)
print("get_mempolicy", call(239, 0, 0, 0, 0, 0))                  # get_mempolicy(2)
print("mbind", call(237, 0, 0, 0, 0, 0, 0))                       # mbind(2), an empty range
print("move_pages", call(279, 0, 0, 0, 0, 0, 0))                  # move_pages(2), no pages
print("personality", call(135, 0x0040000))                        # personality(ADDR_NO_RANDOMIZE)
"""


def run(sb, script: str, timeout: int = 60):
    return sb.exec(["/bin/sh", "-c", script], timeout_seconds=timeout).result()


def test_root_in_the_sandbox_is_not_root_on_the_host(sandbox):
    # Local: a user namespace mapped to 200000+; Kubernetes: hostUsers: false (the test cluster's
    # containerd 2 and runc 1.5 run it). uid 0 inside must map to a host uid other than 0.
    r = run(sandbox, "id -u; cat /proc/self/uid_map")
    uid, *maps = r.stdout.split("\n")
    first = maps[0].split()
    assert uid == "0" and first[0] == "0" and first[1] != "0", r.stdout


def test_kernel_settings_of_the_host_are_not_writable(sandbox):
    r = run(sandbox, "for f in kernel/hostname vm/swappiness kernel/core_pattern; do (echo 1 > /proc/sys/$f) 2>/dev/null && echo WROTE $f; done; echo done")
    assert r.stdout == "done\n", r.stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="plants a file on the host as root")
def test_the_host_filesystem_is_not_visible(sandbox):
    # A world-readable host file, and Hangar's own checkout: neither is in the sandbox's image.
    marker = f"/var/tmp/hangar-hostile-{secrets.token_hex(6)}"
    with open(marker, "w") as f:
        f.write("host secret\n")
    os.chmod(marker, 0o644)
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        r = run(sandbox, f"cat {marker} 2>&1; ls {here} 2>&1; echo done")
        assert "host secret" not in r.stdout and "test_sdk_hostile.py" not in r.stdout, r.stdout
    finally:
        os.unlink(marker)


# The container runtime's default profile on Kubernetes (containerd 1.6 here) allows ptrace of
# the sandbox's own processes and io_uring: the local filter denies both (docs/security.md).
# The local filter is an allow list at least as strict as that profile (ADR 0010): the NUMA memory
# policy calls and personality(ADDR_NO_RANDOMIZE), which reached the kernel under its deny list, fail too.
MEMPOLICY = {"set_mempolicy", "get_mempolicy", "mbind", "move_pages", "personality"}
MUST_FAIL = {"unshare-user", "mount", "keyctl", "bpf", "ptrace", "io_uring", "perf"} | MEMPOLICY if RUNTIME == "local" else {"unshare-user", "mount", "keyctl", "bpf", "perf"}


def test_syscalls_that_reach_past_the_sandbox_fail(sandbox):
    r = sandbox.exec(["python3", "-c", SYSCALLS], timeout_seconds=60).result()
    results = dict(line.split(" ", 1) for line in r.stdout.splitlines())
    assert set(results) == {"unshare-user", "mount", "keyctl", "bpf", "ptrace", "io_uring", "perf"} | MEMPOLICY, r.stdout + r.stderr
    assert {k: v for k, v in results.items() if k in MUST_FAIL and v == "ok"} == {}, results


def test_commands_run_under_a_seccomp_filter_with_no_new_privileges(sandbox):
    r = run(sandbox, "grep -E '^(Seccomp|NoNewPrivs):' /proc/self/status")
    fields = dict(line.split(":\t") for line in r.stdout.splitlines())
    assert fields == {"Seccomp": "2", "NoNewPrivs": "1"}, r.stdout


@pytest.mark.local_only
def test_commands_and_the_main_process_have_no_capabilities(sandbox):
    # Every process of the sandbox: bubblewrap's init, the main process, this command.
    r = run(sandbox, "for s in /proc/[0-9]*/status; do grep -H -E '^(CapEff|CapPrm|Seccomp):' $s; done")
    lines = r.stdout.splitlines()
    assert any(line.endswith("Seccomp:\t2") for line in lines)
    caps = [line for line in lines if ("CapEff" in line or "CapPrm" in line) and not line.endswith("0000000000000000")]
    assert caps == [], caps


@pytest.mark.kubernetes_only
def test_the_pods_pause_process_is_visible_but_out_of_reach(sandbox):
    # Sandbox pods share their process namespace (a stop's SIGTERM reaches a command with no
    # handler): pid 1 is the pod's pause process, whose root, environment and memory stay closed.
    r = run(sandbox, "cat /proc/1/comm; for f in /proc/1/root/etc/hostname /proc/1/environ /proc/1/mem /proc/1/cwd/.; do "
                     "if head -c 1 $f >/dev/null 2>&1; then echo READ $f; fi; done; ls /proc/1/root/ >/dev/null 2>&1 && echo READ root")
    lines = r.stdout.split()
    assert lines[:1] == ["pause"], r.stdout
    assert "READ" not in r.stdout, r.stdout


def test_cgroups_cannot_be_changed_from_inside(sandbox):
    # Control files that exist (cgroupfs mounted read-only, as on Kubernetes) refuse writes; the local
    # runtime mounts no cgroupfs at all; nobody can mount one.
    script = "for f in /sys/fs/cgroup/cgroup.kill /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/pids/pids.max; do [ -e $f ] && (echo 1 > $f) 2>/dev/null && echo WROTE $f; done; mkdir -p /tmp/cg && (mount -t cgroup2 none /tmp/cg) 2>/dev/null && echo MOUNTED; echo done"
    r = run(sandbox, script)
    assert r.stdout == "done\n", r.stdout


def test_two_sandboxes_see_nothing_of_each_other(hangar):
    a = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300)
    b = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300)
    try:
        a.wait()
        b.wait()
        token = secrets.token_hex(6)
        a.write_file(f"/tmp/{token}", b"a's secret").result()
        a.exec(["python3", "-c", "import time; time.sleep(600)", f"sleeper-{token}"])
        for _ in range(50):  # the probe must see the process in its own sandbox first
            if f"sleeper-{token}" in run(a, "cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '; echo").stdout:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the sleeper never showed in its own sandbox")
        r = run(b, f"cat /tmp/{token} 2>&1; cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '; echo")
        assert "a's secret" not in r.stdout and f"sleeper-{token}" not in r.stdout, r.stdout
    finally:
        a.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        b.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def connect_probe(host: str, ports: list[int]) -> str:
    return (
        "import socket\n"
        f"for port in {ports!r}:\n"
        "    s = socket.socket(); s.settimeout(3)\n"
        f"    try:\n        s.connect(({host!r}, port)); print('CONNECTED', port)\n"
        "    except OSError as e:\n        print('refused', port, e.__class__.__name__)\n"
    )


def hangar_ports(h) -> list[int]:
    return [p for p in (urlparse(h.url).port, h.metrics_port) if p]


@pytest.mark.local_only
def test_a_sandbox_without_egress_cannot_reach_hangar(hangar, sandbox):
    r = sandbox.exec(["python3", "-c", connect_probe("127.0.0.1", hangar_ports(hangar))], timeout_seconds=60).result()
    assert "CONNECTED" not in r.stdout, r.stdout


@pytest.mark.local_only
def test_a_sandbox_with_egress_cannot_reach_hangar_or_host_listeners(hangar):
    # A listener on every host address stands for any host service (and for Hangar bound to 0.0.0.0).
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("0.0.0.0", 0))
    srv.listen(8)
    host_port = srv.getsockname()[1]
    sb = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
    try:
        sb.wait()
        addrs = ["127.0.0.1", "169.254.169.254"] + sorted(host_addresses())
        script = "\n".join(connect_probe(a, hangar_ports(hangar) + [host_port]) for a in addrs)
        r = sb.exec(["python3", "-c", script], timeout_seconds=120).result()
        assert "CONNECTED" not in r.stdout, r.stdout
        assert r.stdout.count("refused") == len(addrs) * 3, r.stdout + r.stderr
    finally:
        srv.close()
        sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def host_addresses() -> set[str]:
    """The host's own IPv4 addresses (from /proc/net/fib_trie's local entries)."""
    out, last = set(), ""
    with open("/proc/net/fib_trie") as f:
        for line in f:
            s = line.strip()
            if s.startswith("|--"):
                last = s[3:].strip()
            elif s == "/32 host LOCAL" and not last.startswith("127."):
                out.add(last)
    return out



@pytest.mark.skipif(os.geteuid() != 0, reason="creates a network namespace")
def test_egress_reaches_the_internet_only_when_allowed(hangar, internet):
    url = f"http://{internet.address}:8080/"
    allowed = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=False))
    denied = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300, network=NetworkOptions(deny_egress=True))
    try:
        allowed.wait()
        denied.wait()
        assert allowed.exec(["python3", "-c", FETCH, url], timeout_seconds=60).result().stdout == "internet-ok\n"
        assert denied.exec(["python3", "-c", FETCH, url], timeout_seconds=60).result().stdout.startswith("failed")
    finally:
        allowed.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        denied.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def processes_in_cgroup_of(sandbox_id: str) -> list[int]:
    """Host pids whose cgroup path names the sandbox (the local runtime's hangar/<id> cgroups)."""
    out = []
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                with open(f"/proc/{p}/cgroup") as f:
                    if any("/hangar/" in line and line.endswith(f"/{sandbox_id}") or f"/{sandbox_id}/" in line for line in f.read().splitlines()):
                        with open(f"/proc/{p}/stat") as st:
                            stat = st.read()
                        if stat[stat.rindex(")") + 2] not in "ZX":  # a zombie holds nothing
                            out.append(int(p))
            except OSError:
                pass
    return out


DAEMON = "import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(600)\ntime.sleep(600)\n"


@pytest.mark.local_only
def test_an_exec_deadline_kills_the_daemons_it_started(sandbox):
    from cwsandbox.exceptions import SandboxTimeoutError

    token = secrets.token_hex(6)
    with pytest.raises(SandboxTimeoutError):
        sandbox.exec(["python3", "-c", DAEMON, token], timeout_seconds=2).result()
    r = run(sandbox, f"for c in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $c; echo; done | grep {token} | grep -v grep; echo done")
    assert r.stdout == "done\n", r.stdout


@pytest.mark.local_only
def test_a_fork_bomb_is_capped_and_stop_takes_all_of_it(hangar):
    sb = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=300)
    try:
        sb.wait()
        sb.exec(["/bin/bash", "-c", "b() { b | b & }; b; sleep 2; echo bombed"], timeout_seconds=30)
        # The bomb hits the pids cap: the machine, Hangar and other sandboxes stay usable.
        other = Sandbox.run(tags=["e2e-hostile"], max_lifetime_seconds=120)
        try:
            assert other.exec(["echo", "fine"], timeout_seconds=30).result().stdout == "fine\n"
        finally:
            other.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
        assert len(processes_in_cgroup_of(sb.sandbox_id)) > 100
    finally:
        sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    assert processes_in_cgroup_of(sb.sandbox_id) == []


def cgroup_dirs_named(sandbox_id: str) -> list[str]:
    out = []
    for root, dirs, _ in os.walk("/sys/fs/cgroup"):
        if "/hangar" in root:
            out += [os.path.join(root, d) for d in dirs if d == sandbox_id]
    return out


@pytest.mark.own_hangar
@pytest.mark.local_only
def test_a_killed_hangar_leaves_nothing_behind_after_its_next_start(monkeypatch):
    from conftest import point_sdk_at, start_hangar, stop_hangar

    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    egress = Sandbox.run(tags=["e2e-crash"], network=NetworkOptions(deny_egress=False))
    daemon = Sandbox.run(tags=["e2e-crash"])
    egress.wait()
    daemon.wait()
    daemon.exec(["python3", "-c", DAEMON, "crash"])
    ids = [egress.sandbox_id, daemon.sandbox_id]
    with open(os.path.join(h.data_dir, "sandboxes", egress.sandbox_id, "state.json")) as f:
        pasta = json.load(f)["pasta"]["pid"]
    time.sleep(0.5)
    assert all(processes_in_cgroup_of(i) for i in ids) and all(cgroup_dirs_named(i) for i in ids)
    h.proc.kill()
    h.proc.wait()
    # The sandboxes die with Hangar (its watchdog kills their cgroups), before any restart.
    deadline = time.time() + 5
    while any(processes_in_cgroup_of(i) for i in ids) and time.time() < deadline:
        time.sleep(0.1)
    assert [p for i in ids for p in processes_in_cgroup_of(i)] == []
    h2 = start_hangar({"HANGAR_DATA_DIR": h.data_dir})
    try:
        deadline = time.time() + 5
        left = lambda: ([p for i in ids for p in processes_in_cgroup_of(i)], [d for i in ids for d in cgroup_dirs_named(i)], os.listdir(os.path.join(h.data_dir, "sandboxes")), os.path.exists(f"/proc/{pasta}"))  # noqa: E731
        while left() != ([], [], [], False) and time.time() < deadline:
            time.sleep(0.1)
        assert left() == ([], [], [], False)
        assert "removed what sandboxes of an earlier run of Hangar left behind" in h2.log()
    finally:
        stop_hangar(h2)


@pytest.mark.local_only
def test_caps_apply_to_a_sandbox_that_asks_for_none(sandbox):
    # pids, memory and one core of CPU (HANGAR_LOCAL_DEFAULT_*): a spinning or flooding sandbox cannot take the machine.
    dirs = cgroup_dirs_named(sandbox.sandbox_id)
    read = lambda ctl, f: next(open(os.path.join(d, f)).read().strip() for d in dirs if f"/{ctl}/" in d)  # noqa: E731
    if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
        d = dirs[0]
        assert open(os.path.join(d, "cpu.max")).read().split() == ["100000", "100000"]
        assert open(os.path.join(d, "pids.max")).read().strip() != "max"
        assert open(os.path.join(d, "memory.max")).read().strip() != "max"
    else:
        assert read("cpu", "cpu.cfs_quota_us") == "100000" and read("cpu", "cpu.cfs_period_us") == "100000"
        assert int(read("pids", "pids.max")) > 0
        assert int(read("memory", "memory.limit_in_bytes")) <= 4 * 1024**3


@pytest.mark.local_only
def test_an_image_found_nowhere_is_refused_naming_it_and_how_to_provide_it(hangar):
    # Never the host's filesystem in its place (the local runtime used to fall back to it).
    from cwsandbox.exceptions import CWSandboxError

    with pytest.raises(CWSandboxError) as e:
        sb = Sandbox.run(container_image="localhost/hangar-test/missing:1", tags=["e2e-hostile"], max_lifetime_seconds=60)
        sb.wait()
        sb.stop(missing_ok=True).result()
    assert "localhost/hangar-test/missing:1" in str(e.value) and "docker-archive" in str(e.value), str(e.value)
