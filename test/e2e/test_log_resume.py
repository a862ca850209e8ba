"""StreamLogs resume on the wire, both runtimes: entries carry a session and the offset after them;
a stream resumed at any offset continues with exactly the bytes that followed (no gap, no repeat);
another sandbox's session is refused in band (SESSION_NOT_FOUND); an offset past the end is
INVALID_RESUME_OFFSET."""
import time

import grpc
import pytest
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc


@pytest.fixture
def wire(hangar):
    ch = grpc.insecure_channel(f"{hangar.host}:{hangar.port}")
    yield sandbox_pb2_grpc.SandboxServiceStub(ch), (("authorization", f"Bearer {hangar.keys['alpha']}"),)
    ch.close()


def _run(stub, md, cmd):
    spec = pb.SandboxSpec(containers=[pb.Container(image="python:3.11", command="/bin/sh", args=["-c", cmd])], max_lifetime_seconds=120, tags=["e2e-logs"])
    sid = stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md).sandbox_id
    deadline = time.time() + 90
    while stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sid), metadata=md).status.state != pb.STATE_RUNNING:
        assert time.time() < deadline
        time.sleep(0.2)
    return sid


def _read(stub, md, req, until=None):
    frames = []
    for e in stub.StreamLogs(req, metadata=md, timeout=30):
        frames.append(e)
        if e.HasField("error") or (until and until(frames)):
            break
    return frames


def test_a_stream_resumes_exactly_where_it_left_off(wire):
    stub, md = wire
    sid = _run(stub, md, "for i in $(seq 1 300); do echo line-$i; done; sleep 100")
    try:
        time.sleep(1)
        whole = b"".join(e.data for e in _read(stub, md, pb.StreamLogsRequest(sandbox_id=sid)))
        assert whole.startswith(b"line-1\n") and b"line-300\n" in whole
        first = _read(stub, md, pb.StreamLogsRequest(sandbox_id=sid, follow=True), until=lambda f: sum(len(e.data) for e in f) >= 100)
        session = first[0].log_session_id
        assert session and all(e.log_session_id == session for e in first)
        got, offset = b"", 0
        for e in first:
            got += e.data
            assert e.next_log_offset == offset + len(e.data)
            offset = e.next_log_offset
        # Resume at an offset inside what was sent (a lost tail) and at its end.
        for at in (offset // 2, offset):
            rest = _read(stub, md, pb.StreamLogsRequest(sandbox_id=sid, follow=True, resume_log_session_id=session, resume_log_offset=at),
                         until=lambda f: at + sum(len(e.data) for e in f) >= len(whole))
            assert not any(e.HasField("error") for e in rest), rest[-1]
            assert b"".join(e.data for e in rest)[: len(whole) - at] == whole[at:], f"resume at {at} did not continue exactly"
        # Past the end: refused in band.
        past = _read(stub, md, pb.StreamLogsRequest(sandbox_id=sid, resume_log_session_id=session, resume_log_offset=len(whole) + 10_000))
        assert past[0].error.code == "INVALID_RESUME_OFFSET", past[0]
        # Another sandbox's session: SESSION_NOT_FOUND.
        other = _run(stub, md, "echo other; sleep 100")
        try:
            wrong = _read(stub, md, pb.StreamLogsRequest(sandbox_id=other, resume_log_session_id=session, resume_log_offset=0))
            assert wrong[0].error.code == "SESSION_NOT_FOUND", wrong[0]
        finally:
            stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=other), metadata=md)
    finally:
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sid), metadata=md)
