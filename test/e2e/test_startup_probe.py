"""Startup probes on the wire (the SDK has no argument for them; Compose healthchecks would use
them): RUNNING only once the probe passes; a probe that keeps failing ends the sandbox FAILED,
saying so. Both runtimes: the kubelet runs it on Kubernetes, Hangar locally."""
import time

import grpc
import pytest
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc

from conftest import DEPLOYED


@pytest.fixture
def wire(hangar):
    ch = grpc.insecure_channel(f"{hangar.host}:{hangar.port}")
    yield sandbox_pb2_grpc.SandboxServiceStub(ch), (("authorization", f"Bearer {hangar.keys['alpha']}"),)
    ch.close()


def _create(stub, md, cmd: str, probe: pb.Probe):
    spec = pb.SandboxSpec(containers=[pb.Container(image="python:3.11", command="/bin/sh", args=["-c", cmd], startup_probe=probe)], max_lifetime_seconds=120, tags=["e2e-probe"])
    return stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md).sandbox_id


def _states(stub, md, sid: str, until: set, timeout: float = 90) -> list:
    seen, deadline = [], time.time() + timeout
    while time.time() < deadline:
        s = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sid), metadata=md).status
        if not seen or seen[-1][0] != s.state:
            seen.append((s.state, time.time(), s.state_reason))
        if s.state in until:
            return seen
        time.sleep(0.2)
    raise AssertionError(f"states {seen}")


def test_running_only_once_the_probe_passes(wire):
    stub, md = wire
    t0 = time.time()
    sid = _create(stub, md, "sleep 3; touch /tmp/ready; sleep 100", pb.Probe(exec=["test", "-f", "/tmp/ready"], period_seconds=1, failure_threshold=30))
    try:
        seen = _states(stub, md, sid, {pb.STATE_RUNNING, pb.STATE_FAILED})
        assert seen[-1][0] == pb.STATE_RUNNING, seen
        assert seen[-1][1] - t0 >= 3, f"RUNNING before the probe could pass: {seen}"
        r = stub.Exec(pb.ExecRequest(sandbox_id=sid, command=["test", "-f", "/tmp/ready"]), metadata=md)
        assert r.exit_code == 0
    finally:
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sid), metadata=md)


def test_a_probe_that_keeps_failing_fails_the_sandbox_saying_so(wire):
    stub, md = wire
    sid = _create(stub, md, "sleep 100", pb.Probe(exec=["false"], period_seconds=1, failure_threshold=2))
    seen = _states(stub, md, sid, {pb.STATE_RUNNING, pb.STATE_FAILED, pb.STATE_COMPLETED})
    assert seen[-1][0] == pb.STATE_FAILED and "startup probe" in seen[-1][2], seen
    assert pb.STATE_RUNNING not in [s for s, _, _ in seen]
