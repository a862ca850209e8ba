"""What a local sandbox's own disk (ADR 0027) costs a create: two Hangars in the same run, one with
HANGAR_LOCAL_DISK_BYTES at its default (10 GiB) and one with 0 (the data dir's disk, uncapped),
alternating, BENCH_N sandboxes each (create until RUNNING, one exec, stop). Prints JSON with
p50/p99 per side (docs/benchmarks.md). .venv/bin/python bench/sdk_local_disk.py"""
import json
import os
import statistics
import sys
import time

sys.path.insert(0, "test/e2e")
from conftest import start_hangar, stop_hangar  # noqa: E402

N = int(os.environ.get("BENCH_N", "40"))
sides = {"own_disk": start_hangar(), "no_cap": start_hangar({"HANGAR_LOCAL_DISK_BYTES": "0"})}
from cwsandbox import Sandbox  # noqa: E402


def once(h) -> tuple[float, float]:
    os.environ["CWSANDBOX_BASE_URL"] = h.url
    os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
    t = time.monotonic()
    sb = Sandbox.run("sleep", "60", tags=["bench-disk"])
    sb.wait()
    created = time.monotonic() - t
    assert sb.exec(["true"]).result().returncode == 0
    sb.stop().result()
    return created, time.monotonic() - t


def pct(xs, q):
    xs = sorted(xs)
    return round(xs[min(len(xs) - 1, int(q * len(xs)))] * 1000, 1)


out: dict = {"n": N}
try:
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in sides}
    for k, h in sides.items():
        once(h)  # warm: the image unpacked, the first connection made
    for _ in range(N):
        for k, h in sides.items():
            times[k].append(once(h))
    for k, ts in times.items():
        c = [x[0] for x in ts]
        a = [x[1] for x in ts]
        out[k] = {"create_ms_p50": pct(c, 0.5), "create_ms_p99": pct(c, 0.99), "create_ms_mean": round(statistics.mean(c) * 1000, 1), "create_exec_stop_ms_p50": pct(a, 0.5), "create_exec_stop_ms_p99": pct(a, 0.99)}
finally:
    for h in sides.values():
        stop_hangar(h)
print(json.dumps(out, indent=1))
