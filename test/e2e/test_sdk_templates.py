"""Sandbox templates through the real SDK (Sandbox.run(template_id=...)) and the template service
on the wire: a template's spec runs as a sandbox, overrides replace what they set, templates are
scoped to their tenant, checked when made, versioned, soft-deleted, and outlive the Hangar that
made them (local: its data dir; Kubernetes: ConfigMaps in the sandbox namespace)."""
import grpc
import pytest
from cwsandbox import Sandbox
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_template_pb2 as tpb, sandbox_template_pb2_grpc
from cwsandbox.exceptions import CWSandboxError
from google.protobuf import field_mask_pb2

from conftest import DEPLOYED, point_sdk_at, start_hangar, stop_hangar

pytestmark = pytest.mark.skipif(bool(DEPLOYED), reason="restarts a Hangar of its own")


def _stub(h, tenant="alpha"):
    ch = grpc.insecure_channel(f"127.0.0.1:{h.port}")
    return sandbox_template_pb2_grpc.SandboxTemplateServiceStub(ch), (("authorization", f"Bearer {h.keys[tenant]}"),), ch


def _template(**container) -> tpb.SandboxTemplate:
    c = pb.PartialContainer(name="main", image="python:3.11", environment_variables={"EPISODE": "template"},
                            files=[pb.FileMount(path="/work/setup.txt", content=b"repo checked out\n")], **container)
    return tpb.SandboxTemplate(display_name="py-env", spec=pb.PartialSandboxSpec(containers=[c], tags=["e2e-templates"], max_lifetime_seconds=120))


def test_a_template_runs_is_scoped_versioned_deleted_and_outlives_its_hangar(monkeypatch):
    h = start_hangar({})
    stub, md, ch = _stub(h)
    try:
        t = stub.CreateSandboxTemplate(tpb.CreateSandboxTemplateRequest(sandbox_template=_template(), request_id="e2e-tpl-1"), metadata=md)
        assert t.sandbox_template_id and t.revision == 1 and t.display_name == "py-env"
        again = stub.CreateSandboxTemplate(tpb.CreateSandboxTemplateRequest(sandbox_template=_template(), request_id="e2e-tpl-1"), metadata=md)
        assert again.sandbox_template_id == t.sandbox_template_id, "a retried request_id made a second template"

        point_sdk_at(monkeypatch, h, "alpha")
        sb = Sandbox.run(template_id=t.sandbox_template_id)
        try:
            sb.wait()
            r = sb.exec(["sh", "-c", 'cat /work/setup.txt; echo "$EPISODE"']).result()
            assert r.stdout == "repo checked out\ntemplate\n", r.stdout
        finally:
            sb.stop().result()
        # Overrides replace what they set (the SDK sends the container whole).
        sb = Sandbox.run("sh", "-c", 'echo "$EPISODE"; sleep 60', template_id=t.sandbox_template_id, container_image="python:3.11", environment_variables={"EPISODE": "override"})
        try:
            sb.wait()
            assert sb.exec(["sh", "-c", 'echo "$EPISODE"; test -e /work/setup.txt || echo no-file']).result().stdout == "override\nno-file\n"
        finally:
            sb.stop().result()

        # Another tenant sees nothing of it.
        beta, bmd, bch = _stub(h, "beta")
        with pytest.raises(grpc.RpcError) as e:
            beta.GetSandboxTemplate(tpb.GetSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id), metadata=bmd)
        assert e.value.code() == grpc.StatusCode.NOT_FOUND
        assert list(beta.ListSandboxTemplates(tpb.ListSandboxTemplatesRequest(show_deleted=True), metadata=bmd).sandbox_templates) == []
        bch.close()
        point_sdk_at(monkeypatch, h, "beta")
        with pytest.raises(CWSandboxError):
            Sandbox.run(template_id=t.sandbox_template_id).wait()

        # A spec no run could start is refused when the template is made, naming the field.
        bad = _template(security_context=pb.SecurityContext(privileged=True))
        with pytest.raises(grpc.RpcError) as e:
            stub.CreateSandboxTemplate(tpb.CreateSandboxTemplateRequest(sandbox_template=bad), metadata=md)
        assert e.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "sandbox_template.spec.containers[0].security_context.privileged" in e.value.details()

        u = stub.UpdateSandboxTemplate(tpb.UpdateSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id, sandbox_template=tpb.SandboxTemplate(display_name="py-env-2"), update_mask=field_mask_pb2.FieldMask(paths=["display_name"])), metadata=md)
        assert u.revision == 2 and u.display_name == "py-env-2" and len(u.spec.containers) == 1
    finally:
        ch.close()
        assert stop_hangar(h) == 0

    # A new Hangar on the same store (local: the data dir; Kubernetes: the namespace) has it.
    h2 = start_hangar({"HANGAR_DATA_DIR": h.data_dir})
    stub, md, ch = _stub(h2)
    try:
        # Same tenants (alpha, beta), new keys: templates belong to tenants, not to keys.
        got = stub.GetSandboxTemplate(tpb.GetSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id), metadata=md)
        assert got.revision == 2 and got.display_name == "py-env-2"
        md = (("authorization", f"Bearer {h2.keys['alpha']}"),)
        stub.DeleteSandboxTemplate(tpb.DeleteSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id), metadata=md)
        with pytest.raises(grpc.RpcError) as e:
            stub.GetSandboxTemplate(tpb.GetSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id), metadata=md)
        assert e.value.code() == grpc.StatusCode.NOT_FOUND
        assert stub.GetSandboxTemplate(tpb.GetSandboxTemplateRequest(sandbox_template_id=t.sandbox_template_id, show_deleted=True), metadata=md).deleted
        point_sdk_at(monkeypatch, h2, "alpha")
        with pytest.raises(CWSandboxError):
            Sandbox.run(template_id=t.sandbox_template_id).wait()
    finally:
        ch.close()
        assert stop_hangar(h2) == 0


def test_shared_templates_run_for_every_tenant_and_change_for_none(monkeypatch, tmp_path):
    f = tmp_path / "shared.yaml"
    f.write_text("- id: e2e-shared\n  display_name: shared env\n  spec:\n    containers: [{ name: main, image: python:3.11, environment_variables: { FROM: operator } }]\n    tags: [e2e-templates]\n    max_lifetime_seconds: 120\n")
    h = start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f)})
    try:
        for tenant in ("alpha", "beta"):
            point_sdk_at(monkeypatch, h, tenant)
            sb = Sandbox.run(template_id="e2e-shared")
            try:
                sb.wait()
                assert sb.exec(["sh", "-c", 'echo "$FROM"']).result().stdout == "operator\n"
            finally:
                sb.stop().result()
        stub, md, ch = _stub(h, "beta")
        assert "e2e-shared" in [t.sandbox_template_id for t in stub.ListSandboxTemplates(tpb.ListSandboxTemplatesRequest(), metadata=md).sandbox_templates]
        with pytest.raises(grpc.RpcError) as e:
            stub.UpdateSandboxTemplate(tpb.UpdateSandboxTemplateRequest(sandbox_template_id="e2e-shared", sandbox_template=tpb.SandboxTemplate(display_name="mine now")), metadata=md)
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION and "shared by the operator" in e.value.details()
        with pytest.raises(grpc.RpcError) as e:
            stub.DeleteSandboxTemplate(tpb.DeleteSandboxTemplateRequest(sandbox_template_id="e2e-shared"), metadata=md)
        assert e.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        ch.close()
    finally:
        stop_hangar(h)
    # A file with a field Hangar refuses stops the start, naming it.
    f.write_text("- id: bad\n  display_name: x\n  spec: { containers: [{ image: python:3.11, security_context: { privileged: true } }] }\n")
    with pytest.raises(RuntimeError) as e:
        start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f)})
    assert "HANGAR_SHARED_TEMPLATES_FILE" in str(e.value) and "privileged" in str(e.value)
