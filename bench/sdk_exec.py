"""make bench helper: exec round trips through the real cwsandbox SDK; prints JSON latencies (ms).
BENCH_SDK_EXPECT_BYTES: each result's stdout must be that long (the 1 MiB row)."""
import json
import os
import sys
import time

from cwsandbox import Sandbox

n, argv = int(sys.argv[1]), sys.argv[2:]
expect = int(os.environ.get("BENCH_SDK_EXPECT_BYTES", "-1"))
sb = Sandbox.run(max_lifetime_seconds=600)
sb.wait()
for _ in range(5):
    sb.exec(argv).result()
lat = []
for _ in range(n):
    t0 = time.perf_counter()
    r = sb.exec(argv).result()
    lat.append((time.perf_counter() - t0) * 1000)
    assert r.returncode == 0
    assert expect < 0 or len(r.stdout) == expect, f"stdout of {len(r.stdout)} bytes, not {expect}"
sb.stop().result()
print(json.dumps(lat))
