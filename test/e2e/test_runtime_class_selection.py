"""runtime_class_selection on the wire (the SDK has no argument for it): a category the operator
mapped (HANGAR_RUNTIME_CLASS_SELECTION) runs the sandbox under that RuntimeClass, echoed as
effective_runtime_class; an unmapped one is INVALID_ARGUMENT naming the field."""
import time

import grpc
import pytest
from cwsandbox._proto import runtime_class_pb2, sandbox_pb2 as pb, sandbox_pb2_grpc

from conftest import DEPLOYED, RUNTIME, start_hangar, stop_hangar

pytestmark = pytest.mark.skipif(bool(DEPLOYED), reason="starts a Hangar of its own with a mapping")


def test_a_mapped_category_runs_under_its_class_and_an_unmapped_one_is_refused():
    # The test cluster has RuntimeClass gvisor; the local runtime has only the node's default.
    mapping = "CPU_DEFAULT=,CPU_NESTED_VIRT=gvisor" if RUNTIME == "kubernetes" else "CPU_DEFAULT="
    h = start_hangar({"HANGAR_RUNTIME_CLASS_SELECTION": mapping})
    ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
    stub = sandbox_pb2_grpc.SandboxServiceStub(ch)
    md = (("authorization", f"Bearer {h.keys['alpha']}"),)
    try:
        want = {runtime_class_pb2.RUNTIME_CLASS_CPU_DEFAULT: "<node-default>"}
        if RUNTIME == "kubernetes":
            want[runtime_class_pb2.RUNTIME_CLASS_CPU_NESTED_VIRT] = "gvisor"
        for sel, effective in want.items():
            spec = pb.SandboxSpec(containers=[pb.Container(image="python:3.11")], runtime_class_selection=sel, max_lifetime_seconds=60)
            sb = stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md)
            try:
                deadline = time.time() + 90
                got = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)
                while got.status.state != pb.STATE_RUNNING and time.time() < deadline:
                    assert got.status.state not in (pb.STATE_FAILED, pb.STATE_COMPLETED), got.status
                    time.sleep(0.3)
                    got = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)
                assert got.status.state == pb.STATE_RUNNING
                assert got.status.effective_runtime_class == effective
            finally:
                stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)
        spec = pb.SandboxSpec(containers=[pb.Container(image="python:3.11")], runtime_class_selection=runtime_class_pb2.RUNTIME_CLASS_GPU_DEFAULT)
        with pytest.raises(grpc.RpcError) as e:
            stub.CreateSandbox(pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=spec)), metadata=md)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "runtime_class_selection: GPU_DEFAULT is not mapped" in e.value.details()
    finally:
        ch.close()
        assert stop_hangar(h) == 0
