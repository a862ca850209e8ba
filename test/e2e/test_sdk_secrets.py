"""Secrets from the operator's stores (HANGAR_SECRET_STORES), through the real SDK: the main process
and every exec get them as environment variables; each tenant reads only its own store; the values
never come back through Get/List, the logs, an error or (locally) a host command line; on
Kubernetes they travel in a Secret the sandbox's pod owns, and go with it."""
import base64
import json
import os
import secrets as pysecrets
import tempfile
import time
from pathlib import Path

import grpc
import pytest
from cwsandbox import Sandbox, Secret
from cwsandbox._proto import sandbox_pb2 as pb, sandbox_pb2_grpc
from cwsandbox.exceptions import CWSandboxError

from conftest import DEPLOYED, NAMESPACE, RUNTIME, _kube, point_sdk_at, start_hangar, stop_hangar

pytestmark = pytest.mark.skipif(bool(DEPLOYED), reason="starts Hangars of its own with a secret store")

VALUES = {t: {"HF_TOKEN": f"hf-{t}-{pysecrets.token_hex(12)}", "password": f"pw-{t}-{pysecrets.token_hex(12)}"} for t in ("alpha", "beta")}
ONLY_ALPHA = f"only-alpha-{pysecrets.token_hex(12)}"


def _k8s_secret(ns: str, name: str, data: dict[str, str], store: str | None = "team") -> None:
    body = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": name, **({"labels": {"hangar.dev/secret-store": store}} if store else {})},
            "data": {k: base64.b64encode(v.encode()).decode() for k, v in data.items()}}
    try:
        _kube("DELETE", f"/api/v1/namespaces/{ns}/secrets/{name}")
    except Exception:
        pass
    _kube("POST", f"/api/v1/namespaces/{ns}/secrets", json.dumps(body).encode())


@pytest.fixture(scope="module")
def store_hangar():
    if RUNTIME == "kubernetes":
        for t, v in VALUES.items():
            ns = f"hangar-secrets-{t}"
            _k8s_secret(ns, "hf-token", {"token": v["HF_TOKEN"]})
            _k8s_secret(ns, "db", {"password": v["password"], "user": "u"})
        _k8s_secret("hangar-secrets-alpha", "alpha-only", {"v": ONLY_ALPHA})
        # Same store name, no label: not part of the store.
        _k8s_secret("hangar-secrets-alpha", "unlabelled", {"v": "not-handed-out"}, store=None)
        location = "team=kubernetes:hangar-secrets-{tenant}"
    else:
        root = tempfile.mkdtemp(prefix="hangar-secret-store-")
        for t, v in VALUES.items():
            d = Path(root, t)
            (d / "db").mkdir(parents=True)
            (d / "HF_TOKEN").write_text(v["HF_TOKEN"])
            (d / "db" / "password").write_text(v["password"])
            (d / "db" / "user").write_text("u")
        Path(root, "alpha", "alpha-only").write_text(ONLY_ALPHA)
        os.chmod(root, 0o700)
        location = f"team=dir:{root}/{{tenant}}"
    h = start_hangar({"HANGAR_SECRET_STORES": location})
    yield h
    assert stop_hangar(h) == 0
    log = h.log()
    for t in VALUES.values():
        for v in t.values():
            assert v not in log, "a secret value is in Hangar's log"
    assert ONLY_ALPHA not in log


SECRETS = [Secret(store="team", name="HF_TOKEN"), Secret(store="team", name="db", field="password", env_var="DB_PASS")]


def _run(cmd: str, **kw) -> Sandbox:
    sb = Sandbox.run("sh", "-c", cmd, tags=["e2e-secrets"], max_lifetime_seconds=120, secrets=SECRETS, **kw)
    sb.wait()
    return sb


def test_main_process_and_every_exec_see_the_tenants_secrets(store_hangar, monkeypatch):
    for tenant in ("alpha", "beta"):
        point_sdk_at(monkeypatch, store_hangar, tenant)
        sb = _run('echo "main:$HF_TOKEN:$DB_PASS"; sleep 120')
        try:
            got = sb.exec(["sh", "-c", 'echo "$HF_TOKEN:$DB_PASS"']).result()
            assert got.stdout.strip() == f"{VALUES[tenant]['HF_TOKEN']}:{VALUES[tenant]['password']}"
            deadline = time.time() + 20
            logs = ""
            while time.time() < deadline and "main:" not in logs:
                logs = "".join(str(line) for line in sb.stream_logs(follow=False))
                time.sleep(0.2)
            assert f"main:{VALUES[tenant]['HF_TOKEN']}:{VALUES[tenant]['password']}" in logs
        finally:
            sb.stop().result()


def test_values_never_come_back_through_get_or_list(store_hangar, monkeypatch):
    point_sdk_at(monkeypatch, store_hangar, "alpha")
    sb = _run("sleep 120")
    try:
        ch = grpc.insecure_channel(f"127.0.0.1:{store_hangar.port}")
        stub = sandbox_pb2_grpc.SandboxServiceStub(ch)
        md = (("authorization", f"Bearer {store_hangar.keys['alpha']}"),)
        got = stub.GetSandbox(pb.GetSandboxRequest(sandbox_id=sb.sandbox_id), metadata=md).SerializeToString()
        listed = stub.ListSandboxes(pb.ListSandboxesRequest(tags=["e2e-secrets"]), metadata=md).SerializeToString()
        ch.close()
        for v in VALUES["alpha"].values():
            assert v.encode() not in got and v.encode() not in listed
        # The references do come back (the spec as sent): the store and the names.
        assert b"HF_TOKEN" in got and b"DB_PASS" in got
        if RUNTIME == "local":
            # Not on any host command line either (ps shows those to every user of the machine).
            for p in Path("/proc").iterdir():
                if p.name.isdigit():
                    try:
                        cmdline = (p / "cmdline").read_bytes()
                    except OSError:
                        continue
                    assert VALUES["alpha"]["HF_TOKEN"].encode() not in cmdline, f"pid {p.name} has the secret on its command line"
        else:
            pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sb.sandbox_id}")
            assert VALUES["alpha"]["HF_TOKEN"] not in json.dumps(pod), "the pod spec carries a secret value"
            copy = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/secrets/sbx-{sb.sandbox_id}-env")
            assert [o["kind"] for o in copy["metadata"].get("ownerReferences", [])] == ["Pod"], copy["metadata"]
    finally:
        sb.stop().result()


def test_a_tenant_cannot_reach_another_tenants_secret(store_hangar, monkeypatch):
    point_sdk_at(monkeypatch, store_hangar, "beta")
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run("sleep", "60", tags=["e2e-secrets"], secrets=[Secret(store="team", name="alpha-only", env_var="X")]).wait()
    msg = str(e.value)
    assert "secret_stores[0].secrets[0]" in msg and "not there for this tenant" in msg, msg
    assert ONLY_ALPHA not in msg


@pytest.mark.parametrize("secret, field, text", [
    (Secret(store="nope", name="HF_TOKEN"), "secret_stores[0].store_name", 'no store named "nope"'),
    (Secret(store="team", name="missing"), "secret_stores[0].secrets[0]", "not there for this tenant"),
    (Secret(store="team", name="db"), "secret_stores[0].secrets[0]", "name one in field"),
])
def test_bad_references_are_refused_naming_the_field(store_hangar, monkeypatch, secret, field, text):
    point_sdk_at(monkeypatch, store_hangar, "alpha")
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run("sleep", "60", tags=["e2e-secrets"], secrets=[secret]).wait()
    assert field in str(e.value) and text in str(e.value), e.value


@pytest.mark.kubernetes_only
def test_a_secret_without_the_stores_label_is_not_handed_out(store_hangar, monkeypatch):
    point_sdk_at(monkeypatch, store_hangar, "alpha")
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run("sleep", "60", tags=["e2e-secrets"], secrets=[Secret(store="team", name="unlabelled", env_var="X")]).wait()
    assert "not there for this tenant" in str(e.value) and "not-handed-out" not in str(e.value)


@pytest.mark.kubernetes_only
def test_the_pods_secret_goes_with_the_pod(store_hangar, monkeypatch):
    point_sdk_at(monkeypatch, store_hangar, "alpha")
    sb = _run("sleep 120")
    sid = sb.sandbox_id
    sb.stop().result()
    # Retention keeps the finished pod (the record); once it is released (by hand here), the garbage collector takes the copy.
    pod = f"/api/v1/namespaces/{NAMESPACE}/pods/sbx-{sid}"
    _kube("PATCH", pod, b'{"metadata":{"finalizers":null}}', "application/merge-patch+json")
    _kube("DELETE", pod + "?gracePeriodSeconds=0")
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/secrets/sbx-{sid}-env")
        except Exception:
            return
        time.sleep(0.5)
    raise AssertionError("the sandbox's Secret outlived its pod")


def test_without_stores_secrets_are_refused(hangar):
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run("sleep", "60", tags=["e2e-secrets"], secrets=[Secret(store="team", name="HF_TOKEN")]).wait()
    assert "no secret stores are configured" in str(e.value), e.value
