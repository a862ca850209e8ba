"""Snapshot, restore and fork of a 100 MiB and a 1 GiB workspace through the SDK, against the naive
path an SDK user has without snapshots (tar over exec: the archive comes to the client as exec
output and goes back into each new sandbox through exec stdin), same run, same Hangar.
Prints JSON (docs/benchmarks.md). Runtime: HANGAR_E2E_RUNTIME (local by default). On Kubernetes
BENCH_EXEC_AGENT=1 runs Hangar with the exec agent (from the netinit image, its direct link: ADR
0022, 0023); BENCH_NAIVE=0 leaves the naive path out. Locally BENCH_LAYERS=0 turns copy-on-write
restores off (HANGAR_LOCAL_SNAPSHOT_LAYERS=false: every restore is tar -x in the sandbox, ADR 0018);
with them (ADR 0026) the first restore of a snapshot unpacks its layer and later ones mount it, so
fork is measured both ways: of a snapshot already restored once, and of a fresh one (cold). On
Kubernetes BENCH_LAYERS=0 turns off the node plugin's clones (HANGAR_KUBE_FORK_DRIVER empty, ADR 0029).
  .venv/bin/python bench/sdk_snapshots.py"""
import json
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, "test/e2e")
from conftest import RUNTIME, start_hangar, stop_hangar  # noqa: E402

AGENT = RUNTIME == "kubernetes" and os.environ.get("BENCH_EXEC_AGENT") == "1"
NAIVE = os.environ.get("BENCH_NAIVE", "1") != "0"
LAYERS = os.environ.get("BENCH_LAYERS", "1") != "0"
OFF = {"local": {"HANGAR_LOCAL_SNAPSHOT_LAYERS": "false"}, "kubernetes": {"HANGAR_KUBE_FORK_DRIVER": ""}}[RUNTIME]
h = start_hangar({**({"HANGAR_KUBE_EXEC_AGENT": "true"} if AGENT else {}), **({} if LAYERS else OFF)})
os.environ["CWSANDBOX_BASE_URL"] = h.url
os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
from cwsandbox import FileSystemSnapshotOptions, Sandbox  # noqa: E402

WS = "/workspace"
FORK = int(os.environ.get("BENCH_FORK", "4"))
SIZES = [int(x) for x in os.environ.get("BENCH_SNAPSHOT_MIB", "100,1024").split(",")]


def fss(**kw):
    return FileSystemSnapshotOptions(mount_path=WS, size="4Gi", **kw)


def run(**kw) -> Sandbox:
    sb = Sandbox.run("sleep", "900", tags=["bench-snapshots"], max_lifetime_seconds=900, file_system_snapshot=fss(**kw))
    sb.wait()
    return sb


def timed(f):
    t = time.monotonic()
    v = f()
    return v, round(time.monotonic() - t, 3)


def naive_restore(data: bytes) -> Sandbox:
    sb = run()
    p = sb.exec(["tar", "-C", WS, "-xf", "-"], stdin=True, timeout_seconds=600)
    for i in range(0, len(data), 4 << 20):
        p.stdin.write(data[i:i + (4 << 20)]).result()
    p.stdin.close().result()
    assert p.result().returncode == 0
    return sb


out = {"runtime": RUNTIME, "exec_agent": AGENT, "layers": LAYERS, "fork": FORK, "sizes": []}
try:
    for mib in SIZES:
        src = run()
        # A tree of 1 MiB files of random bytes (incompressible, as build outputs and weights mostly are).
        r = src.exec(["sh", "-c", f"mkdir -p {WS}/t && i=0; while [ $i -lt {mib} ]; do head -c 1048576 /dev/urandom > {WS}/t/f$i; i=$((i+1)); done"], timeout_seconds=900).result()
        assert r.returncode == 0, r.stderr
        _, cold = timed(lambda: run().stop().result())
        snap, t_snap = timed(lambda: src.snapshot().result())
        restored, t_restore = timed(lambda: run(file_system_snapshot_id=snap))
        restored.stop().result()
        with ThreadPoolExecutor(FORK) as ex:
            forks, t_fork = timed(lambda: list(ex.map(lambda _: run(file_system_snapshot_id=snap), range(FORK))))
        for f in forks:
            f.stop().result()
        Sandbox.delete_snapshot(snap).result()
        # A fresh snapshot forked at once (nothing restored from it before).
        snap2 = src.snapshot().result()
        with ThreadPoolExecutor(FORK) as ex:
            forks, t_fork_cold = timed(lambda: list(ex.map(lambda _: run(file_system_snapshot_id=snap2), range(FORK))))
        r = forks[-1].exec(["sh", "-c", f"ls {WS}/t | wc -l"]).result()
        assert r.stdout.strip() == str(mib), r.stdout
        for f in forks:
            f.stop().result()
        Sandbox.delete_snapshot(snap2).result()
        row = {"mib": mib, "cold_create_s": cold, "hangar": {"snapshot_s": t_snap, "restore_s": t_restore, f"fork{FORK}_s": t_fork, f"fork{FORK}_fresh_snapshot_s": t_fork_cold}}
        out["sizes"].append(row)
        if not NAIVE:
            src.stop().result()
            continue
        # The naive path: tar over exec to the client, and back into each sandbox.
        res, t_nsnap = timed(lambda: src.exec(["tar", "-C", WS, "-cf", "-", "."], timeout_seconds=900).result())
        data = res.stdout_bytes
        assert len(data) > mib << 20, len(data)
        naive, t_nrestore = timed(lambda: naive_restore(data))
        naive.stop().result()
        with ThreadPoolExecutor(FORK) as ex:
            nforks, t_nfork = timed(lambda: list(ex.map(lambda _: naive_restore(data), range(FORK))))
        for f in nforks:
            f.stop().result()
        src.stop().result()
        row.update(archive_bytes=len(data), naive={"snapshot_s": t_nsnap, "restore_s": t_nrestore, f"fork{FORK}_s": t_nfork})
finally:
    stop_hangar(h)
print(json.dumps(out, indent=1))
