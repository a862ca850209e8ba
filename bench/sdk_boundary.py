"""What the local sandbox boundary costs and what a flood costs its neighbours, through the real SDK
(issue: the sandbox boundary). Prints one JSON object:

- egress: SDK run() -> RUNNING for sandboxes with egress denied (the default) and allowed (the
  second starts a pasta relay), interleaved, BENCH_BOUNDARY_N (16) each;
- flood: another sandbox's `exec echo` latency with Hangar idle and while one sandbox writes
  empty lines to its log as fast as it can (same Hangar, same run), BENCH_BOUNDARY_EXECS (40) each.
Environment: CWSANDBOX_BASE_URL (and CWSANDBOX_API_KEY).
"""
from __future__ import annotations

import json
import os
import time

from cwsandbox import NetworkOptions, Sandbox

from sdk_rl import ms, summary

N = int(os.environ.get("BENCH_BOUNDARY_N", "16"))
EXECS = int(os.environ.get("BENCH_BOUNDARY_EXECS", "40"))
FLOOD = 'import sys\nb = b"\\n" * (1 << 20)\nwhile True: sys.stdout.buffer.write(b)\n'


def run_to_running(egress: bool) -> float:
    t0 = time.perf_counter()
    sb = Sandbox.run(tags=["bench-boundary"], max_lifetime_seconds=120, network=NetworkOptions(deny_egress=not egress))
    sb.wait()
    took = ms(t0)
    sb.stop(graceful_shutdown_seconds=0).result()
    return took


def exec_latencies(sb: Sandbox) -> list[float]:
    out = []
    for _ in range(EXECS):
        t0 = time.perf_counter()
        assert sb.exec(["echo", "hi"]).result().stdout == "hi\n"
        out.append(ms(t0))
    return out


def main() -> None:
    run_to_running(False)  # warm-up: the image is unpacked once
    denied, allowed = [], []
    for _ in range(N):
        denied.append(run_to_running(False))
        allowed.append(run_to_running(True))
    neighbour = Sandbox.run(tags=["bench-boundary"], max_lifetime_seconds=300)
    neighbour.wait()
    idle = exec_latencies(neighbour)
    flooder = Sandbox.run("python", "-c", FLOOD, tags=["bench-boundary"], max_lifetime_seconds=300)
    flooder.wait()
    during = exec_latencies(neighbour)
    flooder.stop(graceful_shutdown_seconds=0, missing_ok=True).result()
    neighbour.stop(graceful_shutdown_seconds=0).result()
    print(json.dumps({
        "egress": {"denied_run_to_running_ms": summary(denied), "allowed_run_to_running_ms": summary(allowed)},
        "flood": {"idle_exec_ms": summary(idle), "during_flood_exec_ms": summary(during)},
    }))


if __name__ == "__main__":
    main()
