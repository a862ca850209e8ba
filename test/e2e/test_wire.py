"""The API on the wire, through grpcio and the SDK's own generated stubs: bad input for every
RPC, typed refusals, idempotent create, purge, unary Exec, message size limits."""
import time
import uuid

import grpc
import pytest
from google.protobuf import timestamp_pb2
from google.rpc import error_details_pb2, status_pb2

from conftest import DEPLOYED, RUNTIME
from cwsandbox._proto import discovery_pb2, discovery_pb2_grpc, sandbox_pb2 as pb, sandbox_pb2_grpc, settings_pb2, settings_pb2_grpc

BAD_ID = "x" * 257  # over the 256-character id limit (any shorter id is just NOT_FOUND)
NUL = "bad\x00path"


@pytest.fixture(scope="module")
def stubs(hangar):
    ch = grpc.insecure_channel(f"{hangar.host}:{hangar.port}", options=[("grpc.max_send_message_length", 200 * 1024 * 1024), ("grpc.max_receive_message_length", 200 * 1024 * 1024)])
    md = (("authorization", f"Bearer {hangar.keys['alpha']}"),)
    yield sandbox_pb2_grpc.SandboxServiceStub(ch), md, ch
    ch.close()


def details(err: grpc.RpcError):
    """(ErrorInfo or None, [field violations], RetryInfo or None) from grpc-status-details-bin."""
    raw = dict(err.trailing_metadata() or ()).get("grpc-status-details-bin")
    info, fields, retry = None, [], None
    if raw:
        st = status_pb2.Status.FromString(raw)
        assert st.code == err.code().value[0]
        for d in st.details:
            if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                info = error_details_pb2.ErrorInfo()
                d.Unpack(info)
            elif d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
                br = error_details_pb2.BadRequest()
                d.Unpack(br)
                fields = [v.field for v in br.field_violations]
            elif d.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                retry = error_details_pb2.RetryInfo()
                d.Unpack(retry)
    return info, fields, retry


def spec(**kw):
    c = pb.Container(name="main", image="python:3.11", command="/bin/sh", args=["-c", 'trap "exit 0" TERM INT; sleep infinity & wait'])
    for k, v in kw.pop("container", {}).items():
        if isinstance(v, list):
            getattr(c, k).extend(v)
        elif isinstance(v, dict):
            getattr(c, k).update(v)
        elif hasattr(v, "DESCRIPTOR"):
            getattr(c, k).CopyFrom(v)
        else:
            setattr(c, k, v)
    s = pb.SandboxSpec(containers=[c], **kw)
    return pb.CreateSandboxRequest(sandbox=pb.Sandbox(spec=s), request_id=str(uuid.uuid4()))


def wait_state(stub, md, sandbox_id, state, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sandbox_id), metadata=md)
        if got.status.state == state:
            return got
        time.sleep(0.05)
    raise AssertionError(f"sandbox {sandbox_id} did not reach {pb.State.Name(state)} in {seconds}s")


def create_running(stub, md):
    sb = stub.CreateSandbox(spec(tags=["wire"], max_lifetime_seconds=120), metadata=md)
    return wait_state(stub, md, sb.sandbox_id, pb.STATE_RUNNING)


INVALID = [
    ("GetSandbox", pb.GetSandboxRequest(sandbox_id=""), "sandbox_id"),
    ("GetSandbox", pb.GetSandboxRequest(sandbox_id=BAD_ID), "sandbox_id"),
    ("DeleteSandbox", pb.DeleteSandboxRequest(sandbox_id=BAD_ID), "sandbox_id"),
    ("DeleteSandbox", pb.DeleteSandboxRequest(sandbox_id=str(uuid.uuid4()), grace_period_seconds=-1), "grace_period_seconds"),
    ("ListSandboxes", pb.ListSandboxesRequest(page_size=-5), "page_size"),
    ("ListSandboxes", pb.ListSandboxesRequest(page_token="garbage!"), "page_token"),
    ("ListSandboxes", pb.ListSandboxesRequest(tags=["x" * 300]), "tags[0]"),
    ("ListSandboxes", pb.ListSandboxesRequest(state=99), "state"),
    ("PurgeSandboxes", pb.PurgeSandboxesRequest(), "tags"),
    ("PurgeSandboxes", pb.PurgeSandboxesRequest(tags=["ok", "bad\x00tag"]), "tags[1]"),
    ("ReadFile", pb.ReadFileRequest(sandbox_id=str(uuid.uuid4()), path=NUL), "path"),
    ("ReadFile", pb.ReadFileRequest(sandbox_id=str(uuid.uuid4()), path="relative/path"), "path"),
    ("WriteFile", pb.WriteFileRequest(sandbox_id=str(uuid.uuid4()), path=""), "path"),
    ("WriteFile", pb.WriteFileRequest(sandbox_id=BAD_ID, path="/x"), "sandbox_id"),
    ("Exec", pb.ExecRequest(sandbox_id=str(uuid.uuid4()), command=[]), "command"),
    ("Exec", pb.ExecRequest(sandbox_id=str(uuid.uuid4()), command=["echo"], max_output_bytes=-1), "max_output_bytes"),
    ("Exec", pb.ExecRequest(sandbox_id=str(uuid.uuid4()), command=["echo"], env={f"V{i}": "x" * 4096 for i in range(100)}), "env"),
    ("StreamLogs", pb.StreamLogsRequest(sandbox_id=str(uuid.uuid4()), tail_lines=-3), "tail_lines"),
    ("CreateSandbox", pb.CreateSandboxRequest(), "sandbox"),
    ("CreateSandbox", spec(volumes=[pb.SandboxVolume(name="ws", scratch=pb.ScratchVolume())], container={"volume_mounts": [pb.VolumeMount(volume="ws", mount_path="/ws", sub_path="../escape")]}), "sandbox.spec.containers[0].volume_mounts[0].sub_path"),
    ("CreateSandbox", spec(max_lifetime_seconds=-1), "sandbox.spec.max_lifetime_seconds"),
    ("CreateSandbox", spec(max_lifetime_seconds=10**9), "sandbox.spec.max_lifetime_seconds"),
    ("CreateSandbox", spec(tags=["t"] * 65), "sandbox.spec.tags"),
    ("CreateSandbox", spec(tags=["ok", ""]), "sandbox.spec.tags[1]"),
    ("CreateSandbox", spec(mode=42), "sandbox.spec.mode"),
    ("CreateSandbox", spec(container={"image": ""}), "sandbox.spec.containers[0].image"),
    ("CreateSandbox", spec(container={"args": ["a\x00b"]}), "sandbox.spec.containers[0].args"),
    ("CreateSandbox", spec(container={"environment_variables": {"1BAD": "x"}}), 'sandbox.spec.containers[0].environment_variables["1BAD"]'),
    ("CreateSandbox", spec(container={"working_dir": "rel"}), "sandbox.spec.containers[0].working_dir"),
    ("CreateSandbox", spec(container={"files": [pb.FileMount(path=NUL, content=b"x")]}), "sandbox.spec.containers[0].files[0].path"),
    ("CreateSandbox", spec(container={"resource_requirements": pb.ResourceRequirements(requests=pb.Resources(cpu="lots"))}), "sandbox.spec.containers[0].resource_requirements.requests.cpu"),
    ("CreateSandbox", spec(container={"resource_requirements": pb.ResourceRequirements(requests=pb.Resources(memory="2Gi"), limits=pb.Resources(memory="1Gi"))}), "sandbox.spec.containers[0].resource_requirements.requests.memory"),
    ("CreateSandbox", spec(network=pb.NetworkOptions(egress=[pb.EgressRule(https_hostname="example")])), "sandbox.spec.network.egress[0].https_hostname"),
    # Fields Hangar does not honour are refused by name, never ignored (api/field-policy.ts).
    ("CreateSandbox", spec(runtime_class="kata"), "sandbox.spec.runtime_class"),
    ("CreateSandbox", spec(container={"security_context": pb.SecurityContext(run_as_user=1000)}), "sandbox.spec.containers[0].security_context.run_as_user"),
    ("CreateSandbox", spec(container={"startup_probe": pb.Probe(period_seconds=5)}), "sandbox.spec.containers[0].startup_probe.exec"),
    ("CreateSandbox", spec(network=pb.NetworkOptions(dns_egress=pb.DNS_EGRESS_MODE_ALLOW)), "sandbox.spec.network.dns_egress"),
    ("CreateSandbox", spec(volumes=[pb.SandboxVolume(name="Bad_Name", scratch=pb.ScratchVolume())]), "sandbox.spec.volumes[0].name"),
    ("CreateSandboxFromTemplate", pb.CreateSandboxFromTemplateRequest(template_id=""), "template_id"),
]


@pytest.mark.parametrize("method,request_msg,field", INVALID, ids=[f"{m}-{f}" for m, _, f in INVALID])
def test_invalid_argument_with_field_violations(stubs, method, request_msg, field):
    stub, md, _ = stubs
    call = getattr(stub, method)
    with pytest.raises(grpc.RpcError) as e:
        res = call(request_msg, metadata=md, timeout=10)
        if method == "StreamLogs":
            list(res)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT, e.value.details()
    _, fields, _ = details(e.value)
    assert field in fields, (fields, e.value.details())


def test_server_keeps_serving_after_bad_input(stubs):
    stub, md, _ = stubs
    assert stub.ListSandboxes(pb.ListSandboxesRequest(), metadata=md).next_page_token == ""


def test_unknown_sandbox_is_not_found_with_reason(stubs):
    stub, md, _ = stubs
    for call, req in [(stub.GetSandbox, pb.GetSandboxRequest(sandbox_id=str(uuid.uuid4()))), (stub.ReadFile, pb.ReadFileRequest(sandbox_id=str(uuid.uuid4()), path="/x"))]:
        with pytest.raises(grpc.RpcError) as e:
            call(req, metadata=md)
        assert e.value.code() == grpc.StatusCode.NOT_FOUND
        assert details(e.value)[0].reason == "CWSANDBOX_SANDBOX_NOT_FOUND"
        assert details(e.value)[0].domain == "cwsandbox.com"


@pytest.mark.parametrize(
    "req,code,reason",
    [
        (spec(services=[pb.Service(port=80, visibility=pb.VISIBILITY_PUBLIC), pb.Service(port=81, visibility=pb.VISIBILITY_PRIVATE)]), grpc.StatusCode.UNIMPLEMENTED, "CWSANDBOX_NOT_IMPLEMENTED"),
        # Snapshots are kept where the operator says (HANGAR_SNAPSHOT_DIR; the deployed chart names none).
        (spec(volumes=[pb.SandboxVolume(name="ws", scratch=pb.ScratchVolume(restore_from_snapshot_id="snap"))], container={"volume_mounts": [pb.VolumeMount(volume="ws", mount_path="/ws")]}),
         grpc.StatusCode.FAILED_PRECONDITION if DEPLOYED else grpc.StatusCode.NOT_FOUND, "CWSANDBOX_FSS_NOT_SUPPORTED" if DEPLOYED else "CWSANDBOX_FSS_NOT_FOUND"),
        (spec(runner_ids=["no-such-runner"]), grpc.StatusCode.FAILED_PRECONDITION, "CWSANDBOX_NO_SUITABLE_RUNNER"),
        # Where no runner has a Gateway TLS listener: the local runtime here (on Kubernetes the test
        # cluster has one: test_sdk_tls_passthrough.py).
        (spec(services=[pb.Service(port=8443, visibility=pb.VISIBILITY_PUBLIC, endpoint=pb.EndpointSpec(kind=pb.ENDPOINT_KIND_TLS_PASSTHROUGH))]),
         grpc.StatusCode.FAILED_PRECONDITION if RUNTIME == "local" else None, "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED"),
        (spec(services=[pb.Service(port=8000, visibility=pb.VISIBILITY_PUBLIC, endpoint=pb.EndpointSpec(kind=pb.ENDPOINT_KIND_HTTPS, auth=pb.ENDPOINT_AUTH_SHARE_TOKEN))]), grpc.StatusCode.FAILED_PRECONDITION, "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED"),
    ],
    ids=["public+private", "restore-snapshot", "unknown-runner", "tls-passthrough", "share-token"],
)
def test_typed_refusals_on_create(stubs, req, code, reason):
    stub, md, _ = stubs
    if code is None:
        # Honoured on this runtime: what is refused everywhere is a TLS endpoint on a PRIVATE port.
        req.sandbox.spec.services[0].visibility = pb.VISIBILITY_PRIVATE
        with pytest.raises(grpc.RpcError) as e:
            stub.CreateSandbox(req, metadata=md)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "services[0].visibility" in e.value.details(), e.value
        return
    with pytest.raises(grpc.RpcError) as e:
        stub.CreateSandbox(req, metadata=md)
    assert e.value.code() == code
    assert details(e.value)[0].reason == reason


def test_other_services_answer_with_reasons(stubs):
    stub, md, ch = stubs
    if DEPLOYED:
        with pytest.raises(grpc.RpcError) as e:
            stub.ListFileSystemSnapshots(pb.ListFileSystemSnapshotsRequest(), metadata=md)
        assert details(e.value)[0].reason == "CWSANDBOX_FSS_NOT_SUPPORTED"
    settings = settings_pb2_grpc.SettingsServiceStub(ch)
    with pytest.raises(grpc.RpcError) as e:
        settings.GetFileSystemSnapshotBucketConfig(settings_pb2.GetFileSystemSnapshotBucketConfigRequest(), metadata=md)
    assert details(e.value)[0].reason in ("CWSANDBOX_FSS_NOT_SUPPORTED", "CWSANDBOX_NOT_IMPLEMENTED")
    # A method only newer SDKs know (direct data plane): typed UNIMPLEMENTED, so the SDK keeps the gateway path.
    with pytest.raises(grpc.RpcError) as e:
        stub.ConnectSandbox(pb.ConnectSandboxRequest(sandbox_id=str(uuid.uuid4())), metadata=md)
    assert e.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert details(e.value)[0].reason == "CWSANDBOX_NOT_IMPLEMENTED"
    disc = discovery_pb2_grpc.DiscoveryServiceStub(ch)
    with pytest.raises(grpc.RpcError) as e:
        disc.GetAvailableRunner(discovery_pb2.GetAvailableRunnerRequest(runner_id="nope"), metadata=md)
    assert e.value.code() == grpc.StatusCode.NOT_FOUND
    assert details(e.value)[0].reason == "CWSANDBOX_RUNNER_NOT_FOUND"


def test_idempotent_create_by_request_id(stubs):
    stub, md, _ = stubs
    req = spec(tags=["idem"])
    a = stub.CreateSandbox(req, metadata=md)
    b = stub.CreateSandbox(req, metadata=md)
    assert a.sandbox_id == b.sandbox_id
    other = pb.CreateSandboxRequest(sandbox=req.sandbox, request_id=str(uuid.uuid4()))
    c = stub.CreateSandbox(other, metadata=md)
    assert c.sandbox_id != a.sandbox_id
    for s in (a, c):
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=s.sandbox_id), metadata=md)


def test_spec_echo_and_status_fields(stubs):
    stub, md, _ = stubs
    req = spec(tags=["echo"], volumes=[pb.SandboxVolume(name="workspace", scratch=pb.ScratchVolume(size="1Gi"))],
               container={"resource_requirements": pb.ResourceRequirements(requests=pb.Resources(cpu="500m", memory="512Mi"), limits=pb.Resources(cpu="1", memory="1Gi")),
                          "volume_mounts": [pb.VolumeMount(volume="workspace", mount_path="/workspace")]})
    sb = stub.CreateSandbox(req, metadata=md)
    assert sb.spec == req.sandbox.spec
    assert sb.status.state != pb.STATE_UNSPECIFIED
    assert sb.status.effective_resource_requirements.requests.cpu == "500m"
    assert sb.status.effective_resource_requirements.limits.memory == "1Gi"
    assert not sb.status.HasField("exit_code")
    stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id, grace_period_seconds=0), metadata=md)
    got = wait_state(stub, md, sb.sandbox_id, pb.STATE_COMPLETED)
    assert got.status.HasField("exit_code") and got.status.end_time.seconds > 0
    again = stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id, allow_missing=True), metadata=md)
    assert not again.HasField("sandbox")


def test_purge_by_tags_dry_run_and_real(stubs):
    stub, md, _ = stubs
    tag = f"purge-{uuid.uuid4().hex[:6]}"
    ids = [stub.CreateSandbox(spec(tags=[tag]), metadata=md).sandbox_id for _ in range(3)]
    dry = stub.PurgeSandboxes(pb.PurgeSandboxesRequest(tags=[tag], dry_run=True), metadata=md)
    assert dry.purge_count == 3
    assert len(stub.ListSandboxes(pb.ListSandboxesRequest(tags=[tag]), metadata=md).sandboxes) == 3
    real = stub.PurgeSandboxes(pb.PurgeSandboxesRequest(tags=[tag]), metadata=md)
    assert real.purge_count == 3
    for i in ids:
        wait_state(stub, md, i, pb.STATE_COMPLETED)


def test_list_pages(stubs):
    stub, md, _ = stubs
    tag = f"page-{uuid.uuid4().hex[:6]}"
    ids = {stub.CreateSandbox(spec(tags=[tag]), metadata=md).sandbox_id for _ in range(5)}
    seen, token, pages = [], "", 0
    while True:
        res = stub.ListSandboxes(pb.ListSandboxesRequest(tags=[tag], page_size=2, page_token=token), metadata=md)
        seen += [s.sandbox_id for s in res.sandboxes]
        pages += 1
        token = res.next_page_token
        if not token:
            break
    assert pages == 3 and set(seen) == ids and len(seen) == 5
    stub.PurgeSandboxes(pb.PurgeSandboxesRequest(tags=[tag]), metadata=md)


def test_unary_exec_truncation_and_counters(stubs):
    stub, md, _ = stubs
    sb = create_running(stub, md)
    res = stub.Exec(pb.ExecRequest(sandbox_id=sb.sandbox_id, command=["/bin/sh", "-c", "head -c 1000 /dev/zero; echo err >&2; exit 4"], max_output_bytes=100), metadata=md)
    assert (len(res.stdout), res.stdout_truncated, res.stdout_bytes_produced) == (100, True, 1000)
    assert (res.stderr, res.stderr_truncated, res.stderr_bytes_produced, res.exit_code) == (b"err\n", False, 4, 4)
    with pytest.raises(grpc.RpcError) as e:
        stub.Exec(pb.ExecRequest(sandbox_id=sb.sandbox_id, command=["sleep", "30"]), metadata=md, timeout=1.0)
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)


def test_stream_exec_timeout_has_reason(stubs):
    stub, md, _ = stubs
    sb = create_running(stub, md)

    def reqs():
        yield pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=sb.sandbox_id, command=["sleep", "30"]))

    start = time.monotonic()
    with pytest.raises(grpc.RpcError) as e:
        list(stub.StreamExec(reqs(), metadata=md, timeout=6.5))
    assert e.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert details(e.value)[0].reason == "CWSANDBOX_COMMAND_TIMEOUT"
    assert time.monotonic() - start < 3, "killed at deadline minus the margin"
    stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)


@pytest.mark.own_hangar
def test_exec_limits_answer_resource_exhausted(hangar):
    from conftest import start_hangar, stop_hangar

    h = start_hangar({"HANGAR_MAX_EXECS_PER_SANDBOX": "1"})
    try:
        ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
        stub = sandbox_pb2_grpc.SandboxServiceStub(ch)
        md = (("authorization", f"Bearer {h.keys['alpha']}"),)
        sb = create_running(stub, md)
        it = stub.StreamExec(iter([pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=sb.sandbox_id, command=["sleep", "5"]))]), metadata=md)
        assert next(it).HasField("ready")
        with pytest.raises(grpc.RpcError) as e:
            stub.Exec(pb.ExecRequest(sandbox_id=sb.sandbox_id, command=["true"]), metadata=md)
        assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert details(e.value)[2] is not None, "RetryInfo tells the caller when to retry"
        it.cancel()
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id, grace_period_seconds=0), metadata=md)
        ch.close()
    finally:
        assert stop_hangar(h) == 0


def test_oversized_message_is_refused_and_server_survives(stubs):
    stub, md, _ = stubs
    with pytest.raises(grpc.RpcError) as e:
        stub.WriteFile(pb.WriteFileRequest(sandbox_id=str(uuid.uuid4()), path="/x", content=b"\0" * (101 * 1024 * 1024)), metadata=md)
    assert e.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert stub.ListSandboxes(pb.ListSandboxesRequest(), metadata=md) is not None


def test_logs_resume_session_not_found(stubs):
    stub, md, _ = stubs
    sb = create_running(stub, md)
    entries = list(stub.StreamLogs(pb.StreamLogsRequest(sandbox_id=sb.sandbox_id, resume_log_session_id="nope", resume_log_offset=5), metadata=md))
    assert len(entries) == 1 and entries[0].error.code == "SESSION_NOT_FOUND"
    stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)


@pytest.mark.parametrize(
    "first,field",
    [
        (pb.ExecStreamRequest(stdin=b"no init first"), "init"),
        (pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=str(uuid.uuid4()), command=[])), "init.command"),
        (pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=BAD_ID, command=["true"])), "init.sandbox_id"),
        (pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=str(uuid.uuid4()), command=["a\x00b"])), "init.command"),
        (pb.ExecStreamRequest(init=pb.ExecStreamInit(sandbox_id=str(uuid.uuid4()), command=["true"], tty=True, tty_width=100000)), "init.tty_width"),
    ],
    ids=["stdin-before-init", "empty-command", "bad-id", "nul-in-command", "huge-tty"],
)
def test_stream_exec_bad_input(stubs, first, field):
    stub, md, _ = stubs
    with pytest.raises(grpc.RpcError) as e:
        list(stub.StreamExec(iter([first]), metadata=md, timeout=10))
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert field in details(e.value)[1]


def test_discovery_bad_input(stubs):
    _, md, ch = stubs
    disc = discovery_pb2_grpc.DiscoveryServiceStub(ch)
    with pytest.raises(grpc.RpcError) as e:
        disc.ListAvailableRunners(discovery_pb2.ListAvailableRunnersRequest(page_size=-1), metadata=md)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "page_size" in details(e.value)[1]
    with pytest.raises(grpc.RpcError) as e:
        disc.GetAvailableRunner(discovery_pb2.GetAvailableRunnerRequest(), metadata=md)
    assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "runner_id" in details(e.value)[1]


def test_display_name_is_echoed_and_list_sorts_both_ways(stubs):
    stub, md, _ = stubs
    tag = f"sort-{uuid.uuid4()}"
    made = []
    for name in ("first", "second"):
        req = spec(tags=[tag])
        req.sandbox.display_name = f"episode {name}"
        made.append(stub.CreateSandbox(req, metadata=md))
        time.sleep(0.01)
    try:
        assert made[0].display_name == "episode first"
        ids = [s.sandbox_id for s in made]

        def listed(direction):
            # Behind two replicas, the one answering may learn of the second sandbox from the pod watch a moment later.
            deadline = time.monotonic() + 10
            while True:
                res = stub.ListSandboxes(pb.ListSandboxesRequest(tags=[tag], sort_direction=direction), metadata=md)
                if len(res.sandboxes) == 2 or time.monotonic() > deadline:
                    return res
                time.sleep(0.1)

        up, down = listed(pb.SORT_DIRECTION_ASCENDING), listed(pb.SORT_DIRECTION_DESCENDING)
        assert [s.sandbox_id for s in up.sandboxes] == ids
        assert [s.sandbox_id for s in down.sandboxes] == ids[::-1]
        assert [s.display_name for s in down.sandboxes] == ["episode second", "episode first"]
    finally:
        for s in made:
            stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=s.sandbox_id), metadata=md)


def test_volume_mounts_read_only_and_sub_path(stubs):
    stub, md, _ = stubs
    req = spec(tags=["wire"], max_lifetime_seconds=120, volumes=[pb.SandboxVolume(name="ws", scratch=pb.ScratchVolume())],
               container={"volume_mounts": [pb.VolumeMount(volume="ws", mount_path="/work"), pb.VolumeMount(volume="ws", mount_path="/data", sub_path="out", read_only=True)]})
    sb = wait_state(stub, md, stub.CreateSandbox(req, metadata=md).sandbox_id, pb.STATE_RUNNING)
    try:
        sh = lambda script: stub.Exec(pb.ExecRequest(sandbox_id=sb.sandbox_id, command=["/bin/sh", "-c", script]), metadata=md, timeout=30)
        wrote = sh("ls -d /work/out && echo hi > /work/out/x && cat /data/x")
        assert (wrote.exit_code, wrote.stdout) == (0, b"/work/out\nhi\n"), wrote
        refused = sh("echo no > /data/y")
        assert refused.exit_code != 0 and b"Read-only file system" in refused.stderr, refused
        assert sh("test ! -e /work/out/y").exit_code == 0
    finally:
        stub.DeleteSandbox(pb.DeleteSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md)
