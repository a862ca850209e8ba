"""A sandbox that floods its stdout with short lines cannot grow Hangar's memory past the log limit
(issue: bounded cost per tenant). Attack through the real SDK against a Hangar of its own."""
import threading
import time
from pathlib import Path

import grpc
import pytest
from cwsandbox import Sandbox
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc

from conftest import point_sdk_at, start_hangar, stop_hangar

FLOOD = 'import sys\nb = b"\\n" * (1 << 20)\nfor _ in range(200): sys.stdout.buffer.write(b)\nsys.stdout.buffer.write(b"done\\n")'


def rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status")
    assert status.exists(), f"Hangar (pid {pid}) is gone"
    for line in status.read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.own_hangar
@pytest.mark.local_only
def test_200_mb_of_empty_lines_cost_hangar_at_most_100_mib(monkeypatch):
    h = start_hangar()
    point_sdk_at(monkeypatch, h)
    try:
        warm = Sandbox.run("echo", "warm-up", tags=["e2e-flood"])
        warm.wait_until_complete().result()
        time.sleep(0.5)
        base = rss_mib(h.proc.pid)
        peak = [base]
        done = threading.Event()

        def watch():
            while not done.is_set():
                peak[0] = max(peak[0], rss_mib(h.proc.pid))
                time.sleep(0.05)

        t = threading.Thread(target=watch)
        t.start()
        sb = Sandbox.run("python", "-c", FLOOD, tags=["e2e-flood"])
        sb.wait_until_complete(timeout=120).result()
        done.set()
        t.join()
        assert sb.returncode == 0
        print(f"Hangar RSS {base:.0f} MiB before, peak {peak[0]:.0f} MiB while the sandbox wrote 200 MB of empty lines")
        assert peak[0] - base <= 100, f"Hangar grew {peak[0] - base:.0f} MiB (from {base:.0f}) while a sandbox wrote 200 MB of empty lines"
        # The SDK splits logs into lines in Python (minutes for 8 million empty lines): read the stream as it comes.
        ch = grpc.insecure_channel(f"127.0.0.1:{h.port}", options=[("grpc.max_receive_message_length", 64 << 20)])
        entries = list(sandbox_pb2_grpc.SandboxServiceStub(ch).StreamLogs(pb.StreamLogsRequest(sandbox_id=sb.sandbox_id), metadata=[("authorization", f"Bearer {h.keys['alpha']}")], timeout=60))
        ch.close()
        first, data = entries[0].data.decode(), b"".join(e.data for e in entries)
        assert first.startswith("[hangar: ") and "bytes of older output were dropped" in first, first[:200]
        assert data.endswith(b"done\n") and len(data) <= 8 * 1024 * 1024 + 200
    finally:
        stop_hangar(h)
