"""Kubernetes-native identities on the deployed tier (ADR 0037, make test-e2e-deployed): a pod on the
test cluster whose projected ServiceAccount token is for audience `hangar` runs the real, unmodified
SDK with that token as CWSANDBOX_API_KEY, and creates a sandbox and execs in it through the deployed
Hangar (TokenReview checks the token; test/cluster/deploy-values.yaml maps the namespace to tenant
`gamma`); a pod whose token is for another audience is refused; and the sandbox the token made is
NOT_FOUND to another tenant's key.

The pods run the python:3.11 test image with this venv's site-packages mounted read-only (the test
cluster's node is this host), so the SDK in the pod is the very one the rest of the suite runs."""
import json
import secrets
import sysconfig
import time

import pytest
from cwsandbox import Sandbox
from cwsandbox.exceptions import SandboxNotFoundError

from conftest import DEPLOYED, _kube, _kube_text

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.deployed_only]

NS = "hangar-e2e-identity"  # test/cluster/deploy-values.yaml: auth.tokenReview.tenants maps it to gamma
SA = "trainer"

# Runs in the pod: the unmodified SDK, its key the projected token (set by the shell from the file).
SCRIPT = """
import site
site.addsitedir("/sdk")  # this venv's site-packages, .pth files included
from cwsandbox import Sandbox
try:
    sb = Sandbox.run(tags=["e2e-identity"])
    sb.wait()
    r = sb.exec(["echo", "through-a-serviceaccount"]).result()
    print("SANDBOX", sb.sandbox_id, flush=True)
    print("STDOUT", r.stdout.strip(), flush=True)
    sb.stop(missing_ok=True).result()
except Exception as e:
    print("REFUSED", type(e).__name__, " ".join(str(e).split()), flush=True)
"""


def _create(path: str, body: dict) -> None:
    import urllib.error

    try:
        _kube("POST", path, json.dumps(body).encode())
    except urllib.error.HTTPError as e:
        if e.code != 409:  # already there from an earlier run
            raise


@pytest.fixture(scope="module")
def identity_ns():
    _create("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}})
    _create(f"/api/v1/namespaces/{NS}/serviceaccounts", {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": SA}})
    yield NS
    _kube("DELETE", f"/api/v1/namespaces/{NS}")


def run_sdk_pod(audience: str) -> str:
    """Runs SCRIPT in a pod of NS as SA with a projected token for `audience`; returns its log."""
    name = f"sdk-{audience.replace('_', '-')}-{secrets.token_hex(3)}"
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name},
        "spec": {
            "serviceAccountName": SA,
            "automountServiceAccountToken": False,
            "restartPolicy": "Never",
            "containers": [{
                "name": "sdk",
                "image": "python:3.11",
                "imagePullPolicy": "IfNotPresent",
                "command": ["sh", "-c", 'CWSANDBOX_API_KEY="$(cat /var/run/secrets/hangar/token)" exec python3 -c "$SCRIPT"'],
                "env": [
                    {"name": "SCRIPT", "value": SCRIPT},
                    {"name": "CWSANDBOX_BASE_URL", "value": DEPLOYED},
                ],
                "volumeMounts": [
                    {"name": "token", "mountPath": "/var/run/secrets/hangar", "readOnly": True},
                    {"name": "sdk", "mountPath": "/sdk", "readOnly": True},
                ],
            }],
            "volumes": [
                {"name": "token", "projected": {"sources": [{"serviceAccountToken": {"audience": audience, "expirationSeconds": 600, "path": "token"}}]}},
                {"name": "sdk", "hostPath": {"path": sysconfig.get_paths()["purelib"], "type": "Directory"}},
            ],
        },
    }
    _kube("POST", f"/api/v1/namespaces/{NS}/pods", json.dumps(pod).encode())
    deadline = time.time() + 240
    phase = ""
    while time.time() < deadline:
        phase = _kube("GET", f"/api/v1/namespaces/{NS}/pods/{name}")["status"].get("phase", "")
        if phase in ("Succeeded", "Failed"):
            break
        time.sleep(1)
    log = _kube_text(f"/api/v1/namespaces/{NS}/pods/{name}/log")
    assert phase == "Succeeded", f"pod {name} ended {phase or 'never'}:\n{log}"
    return log


def lines_of(log: str, tag: str) -> list[str]:
    return [line[len(tag) + 1:] for line in log.splitlines() if line.startswith(tag + " ")]


def test_a_projected_serviceaccount_token_creates_and_execs_through_hangar(hangar, identity_ns):
    log = run_sdk_pod("hangar")
    assert lines_of(log, "REFUSED") == [], log
    assert lines_of(log, "STDOUT") == ["through-a-serviceaccount"], log
    [sandbox_id] = lines_of(log, "SANDBOX")
    # The token's tenant (gamma) is not alpha: alpha's key never finds gamma's sandbox.
    with pytest.raises(SandboxNotFoundError):
        Sandbox.from_id(sandbox_id).result()
    with pytest.raises(SandboxNotFoundError):
        Sandbox.delete(sandbox_id).result()


def test_a_token_for_another_audience_is_refused(hangar, identity_ns):
    log = run_sdk_pod("not-hangar")
    assert lines_of(log, "SANDBOX") == [], log
    [refusal] = lines_of(log, "REFUSED")
    assert "TokenReview" in refusal, refusal
