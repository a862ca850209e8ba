"""The reward loop of the SDK's RL training guide, through the real cwsandbox SDK (issue: Hangar as
the SDK sees it). Per round: a Session, BATCH completions in parallel, one sandbox each via
session.sandbox().exec(["python", "-c", code]), cwsandbox.wait on the results, then close.

Besides the loop as written (completions/s), each round times a completion's parts through the
SDK: run() until the SDK reports RUNNING (sb.wait()), the exec, stop(), and the session close.
Prints one JSON object. Environment: CWSANDBOX_BASE_URL (and CWSANDBOX_API_KEY), BENCH_SDK_ROUNDS
(4), BENCH_SDK_BATCH (16), BENCH_SDK_STOPS (20: sandboxes stopped one by one for the stop figure),
BENCH_SDK_IMAGE (python:3.11).
"""
from __future__ import annotations

import json
import os
import statistics
import sys
import time

import cwsandbox
from cwsandbox import Sandbox, SandboxDefaults, Session

ROUNDS = int(os.environ.get("BENCH_SDK_ROUNDS", "4"))
BATCH = int(os.environ.get("BENCH_SDK_BATCH", "16"))
STOPS = int(os.environ.get("BENCH_SDK_STOPS", "20"))
IMAGE = os.environ.get("BENCH_SDK_IMAGE", "python:3.11")
CODE = "import sys; print(sum(i * i for i in range(1000)))"
EXPECT = str(sum(i * i for i in range(1000)))


def ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return round(s[min(len(s) - 1, int(q * len(s)))], 1) if s else float("nan")


def summary(xs: list[float]) -> dict:
    return {"n": len(xs), "p50": pct(xs, 0.5), "p99": pct(xs, 0.99), "mean": round(statistics.fmean(xs), 1) if xs else None}


def defaults() -> SandboxDefaults:
    return SandboxDefaults(container_image=IMAGE, max_lifetime_seconds=300, tags=("bench-sdk",))


def cpu_seconds() -> dict:
    """CPU used so far: the whole machine (busy jiffies), this SDK process, and Hangar (BENCH_HANGAR_PID)."""
    tick = os.sysconf("SC_CLK_TCK")
    f = open("/proc/stat").readline().split()[1:]
    busy = sum(int(x) for x in f) - int(f[3]) - int(f[4])
    out = {"machine": busy / tick, "sdk": sum(os.times()[:2])}
    pid = os.environ.get("BENCH_HANGAR_PID")
    if pid:
        st = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        out["hangar"] = (int(st[11]) + int(st[12])) / tick
    return out


def reward_loop() -> dict:
    """The loop exactly as the guide writes it; times each round and each reward, and where the CPU went."""
    cpu0 = cpu_seconds()
    rewards: list[float] = []
    closes: list[float] = []
    t_all = time.perf_counter()
    done_total = 0
    for _ in range(ROUNDS):
        with Session(defaults()) as session:
            starts = {}
            procs = []
            for _ in range(BATCH):
                p = session.sandbox().exec(["python", "-c", CODE])
                starts[id(p)] = time.perf_counter()
                procs.append(p)
            done, pending = cwsandbox.wait(procs, timeout=120)
            assert not pending, f"{len(pending)} completions still pending after 120 s"
            for p in done:
                r = p.result()
                assert r.stdout.strip() == EXPECT, r.stdout
                rewards.append(ms(starts[id(p)]))
            done_total += len(done)
            t_close = time.perf_counter()
        closes.append(ms(t_close))
    seconds = time.perf_counter() - t_all
    cpu1 = cpu_seconds()
    per = {k: round((cpu1[k] - cpu0[k]) * 1000 / max(done_total, 1), 1) for k in cpu1}
    per["sandboxes_and_kernel"] = round(per["machine"] - per["sdk"] - per.get("hangar", 0), 1)
    return {"cpu_ms_per_completion": per, "cpus": os.cpu_count(),"completions": done_total, "seconds": round(seconds, 2), "completions_per_s": round(done_total / seconds, 2), "reward_ms": summary(rewards), "session_close_ms": summary(closes)}


def breakdown() -> dict:
    """One completion's parts, timed one at a time (run→RUNNING as the SDK sees it, exec, stop)."""
    running, own, execs, stops = [], [], [], []
    for _ in range(STOPS):
        t0 = time.perf_counter()
        sb = Sandbox.run(container_image=IMAGE, max_lifetime_seconds=300, tags=["bench-sdk"])
        sb.wait()
        running.append(ms(t0))
        if sb.started_at and sb.created_at:
            own.append((sb.started_at.replace(tzinfo=None) - sb.created_at.replace(tzinfo=None)).total_seconds() * 1000)
        t0 = time.perf_counter()
        r = sb.exec(["python", "-c", CODE]).result()
        execs.append(ms(t0))
        assert r.stdout.strip() == EXPECT
        t0 = time.perf_counter()
        sb.stop().result()
        stops.append(ms(t0))
    return {"run_to_running_ms": summary(running), "hangar_create_to_running_ms": summary(own), "exec_ms": summary(execs), "stop_ms": summary(stops)}


if __name__ == "__main__":
    out = {"sdk": cwsandbox.__version__ if hasattr(cwsandbox, "__version__") else "", "batch": BATCH, "rounds": ROUNDS}
    out["parts"] = breakdown()
    out["loop"] = reward_loop()
    json.dump(out, sys.stdout)
    print()
