"""The sandbox namespace's admission policy (charts/hangar/templates/admission.yaml, ADR 0033) against
the real apiserver, on the tier where the chart installed it (make test-e2e-deployed). Every pod Hangar
made there (cold, claimed from the warm pool, with a PRIVATE service, on gVisor, with Compose sidecars)
is admitted again as it is; each attack changes one thing in such a pod (a host namespace, a
capability, an unconfined profile, another netinit...) and the apiserver refuses it with the policy's
message. Even a cluster admin's pod is held to the shape. Requests are dry runs: nothing is created."""
import json
import secrets
import time
import urllib.error

import pytest
from cwsandbox import NetworkOptions, Sandbox, Service

from conftest import NAMESPACE, _kube

pytestmark = [pytest.mark.kubernetes_only, pytest.mark.deployed_only]

POLICY = "ValidatingAdmissionPolicy 'hangar-sandbox-pods'"
TWO_SERVICES = b"""
services:
  main: { image: "python:3.11", command: ["sleep", "300"] }
  helper: { image: "python:3.11", command: ["sleep", "300"] }
"""
RES = {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "200m", "memory": "128Mi"}}


def pod_of(sandbox_id: str) -> dict:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fsandbox-id%3D{sandbox_id}")["items"]
    assert len(items) == 1, items
    return items[0]


def as_new(pod: dict) -> dict:
    """The pod as a create request: a fresh name, its labels and annotations, its spec minus the node."""
    meta = pod["metadata"]
    spec = json.loads(json.dumps({k: v for k, v in pod["spec"].items() if k != "nodeName"}))
    # The apiserver writes the profile annotations from the fields at create: they follow the fields again.
    annotations = {k: v for k, v in meta.get("annotations", {}).items() if ".security.alpha.kubernetes.io/" not in k and ".security.beta.kubernetes.io/" not in k}
    return {"apiVersion": "v1", "kind": "Pod", "spec": spec,
            "metadata": {"name": f"hangar-shape-{secrets.token_hex(4)}", "labels": dict(meta.get("labels", {})), "annotations": annotations}}


def answer(method: str, path: str, body: dict, content_type: str = "application/json") -> str | None:
    """None when the apiserver accepts the dry run, else its refusal (status and message)."""
    try:
        _kube(method, f"{path}?dryRun=All", json.dumps(body).encode(), content_type)
        return None
    except urllib.error.HTTPError as e:
        return f"{e.code} {e.read().decode(errors='replace')}"


def create(pod: dict) -> str | None:
    return answer("POST", f"/api/v1/namespaces/{NAMESPACE}/pods", pod)


@pytest.fixture(scope="module")
def made(hangar):
    """Pods Hangar made, by what they show: a cold or claimed sandbox, one with a PRIVATE service and
    egress, one on gVisor, one of a Compose file (a sidecar), and an idle warm-pool pod."""
    runs = {
        "plain": Sandbox.run(tags=["e2e-admission"], max_lifetime_seconds=300),
        "service and egress": Sandbox.run(tags=["e2e-admission"], max_lifetime_seconds=300, services=[Service(port=8080, visibility="private")], network=NetworkOptions(deny_egress=False)),
        "gvisor": Sandbox.run(tags=["e2e-admission"], max_lifetime_seconds=300, runtime_class="gvisor"),
        "compose sidecar": Sandbox.run_from_file(TWO_SERVICES, primary_service="main", default_resources=RES, tags=["e2e-admission"], max_lifetime_seconds=300),
    }
    try:
        pods = {}
        for what, sb in runs.items():
            sb.wait()
            pods[what] = pod_of(sb.sandbox_id)
        deadline = time.time() + 90  # the pool refills what the plain sandbox may have claimed
        while not (idle := _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fwarm-pool")["items"]) and time.time() < deadline:
            time.sleep(1)
        assert idle, "the deployed tier's warm pool (test/cluster/deploy-values.yaml) has no idle pod"
        pods["warm pool"] = idle[0]
        yield pods
    finally:
        for sb in runs.values():
            sb.stop(graceful_shutdown_seconds=0, missing_ok=True).result()


def test_every_pod_shape_hangar_makes_is_admitted(made):
    inits = {what: [c["name"] for c in p["spec"].get("initContainers", [])] for what, p in made.items()}
    assert inits["plain"][0] == "hangar-netinit" and inits["warm pool"][0] == "hangar-netinit", inits
    assert "hangar-netinit" not in inits["gvisor"], inits
    assert "helper" in inits["compose sidecar"], inits
    for what, pod in made.items():
        assert create(as_new(pod)) is None, f"{what}: {create(as_new(pod))}"


def main(p: dict) -> dict:
    return next(c for c in p["spec"]["containers"] if c["name"] == "main")


def netinit(p: dict) -> dict:
    return next(c for c in p["spec"]["initContainers"] if c["name"] == "hangar-netinit")


def sandbox_shaped(name: str, **extra) -> dict:
    return {"name": name, "image": "python:3.11", "command": ["sleep", "1"], **extra,
            "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}}}


def sc(c: dict) -> dict:
    return c["securityContext"]


HOST_NS = "sandbox pods share no host namespace"
ESCALATE = "no container is privileged or may escalate privileges"
SECCOMP = "every container runs under the RuntimeDefault seccomp profile"
APPARMOR = "no AppArmor profile other than RuntimeDefault"
SELINUX = "no SELinux type, user or role"
DROP = "every container drops ALL capabilities"
ADDS = "adds only CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID, NET_BIND_SERVICE"
NETINIT = "or hangar-netinit as Hangar runs it"

# One change each, to a pod Hangar made (its hostUsers dropped, as a cluster without user namespaces
# makes it: the apiserver itself refuses host namespaces beside hostUsers: false).
ATTACKS = [
    ("privileged", ESCALATE, lambda p: (sc(main(p)).update(privileged=True), sc(main(p)).pop("allowPrivilegeEscalation"))),
    ("allowPrivilegeEscalation true", ESCALATE, lambda p: sc(main(p)).update(allowPrivilegeEscalation=True)),
    ("allowPrivilegeEscalation unset", ESCALATE, lambda p: sc(main(p)).pop("allowPrivilegeEscalation")),
    ("hostPID", HOST_NS, lambda p: p["spec"].update(hostPID=True, shareProcessNamespace=False)),
    ("hostIPC", HOST_NS, lambda p: p["spec"].update(hostIPC=True)),
    ("hostNetwork", HOST_NS, lambda p: p["spec"].update(hostNetwork=True)),
    ("hostPort", "no container opens a host port", lambda p: main(p).update(ports=[{"containerPort": 8080, "hostPort": 18080, "protocol": "TCP"}])),
    ("hostPath", "sandbox pods mount no host path", lambda p: p["spec"]["volumes"].append({"name": "host", "hostPath": {"path": "/"}})),
    ("an nfs volume", "sandbox pods mount only emptyDir", lambda p: p["spec"]["volumes"].append({"name": "nfs", "nfs": {"server": "192.0.2.1", "path": "/"}})),
    ("seccomp Unconfined on the pod", SECCOMP, lambda p: p["spec"]["securityContext"].update(seccompProfile={"type": "Unconfined"})),
    ("seccomp Unconfined on a container", SECCOMP, lambda p: sc(main(p)).update(seccompProfile={"type": "Unconfined"})),
    ("a Localhost seccomp profile on the pod", SECCOMP, lambda p: p["spec"]["securityContext"].update(seccompProfile={"type": "Localhost", "localhostProfile": "profiles/audit.json"})),
    ("a Localhost seccomp profile on netinit", SECCOMP, lambda p: sc(netinit(p)).update(seccompProfile={"type": "Localhost", "localhostProfile": "profiles/audit.json"})),
    ("no seccomp profile anywhere", SECCOMP, lambda p: [d.pop("seccompProfile", None) for d in [p["spec"]["securityContext"], *[sc(c) for c in p["spec"]["containers"] + p["spec"]["initContainers"]]]]),
    ("the seccomp annotation unconfined", SECCOMP, lambda p: (p["spec"]["securityContext"].pop("seccompProfile"), p["metadata"]["annotations"].update({"seccomp.security.alpha.kubernetes.io/pod": "unconfined"}))),
    ("procMount Unmasked", "no container sets procMount other than Default", lambda p: (p["spec"].update(hostUsers=False), sc(main(p)).update(procMount="Unmasked"))),
    ("a sysctl", "sandbox pods set no sysctls", lambda p: p["spec"]["securityContext"].update(sysctls=[{"name": "kernel.shm_rmid_forced", "value": "1"}])),
    ("appArmorProfile Unconfined on a container", APPARMOR, lambda p: sc(main(p)).update(appArmorProfile={"type": "Unconfined"})),
    ("appArmorProfile Unconfined on the pod", APPARMOR, lambda p: p["spec"]["securityContext"].update(appArmorProfile={"type": "Unconfined"})),
    ("a Localhost AppArmor profile on netinit", APPARMOR, lambda p: sc(netinit(p)).update(appArmorProfile={"type": "Localhost", "localhostProfile": "hangar-loose"})),
    ("the AppArmor annotation unconfined", APPARMOR, lambda p: p["metadata"]["annotations"].update({"container.apparmor.security.beta.kubernetes.io/main": "unconfined"})),
    ("an SELinux type on the pod", SELINUX, lambda p: p["spec"]["securityContext"].update(seLinuxOptions={"type": "spc_t"})),
    ("an SELinux role on a container", SELINUX, lambda p: sc(main(p)).update(seLinuxOptions={"role": "system_r"})),
    ("an SELinux user on netinit", SELINUX, lambda p: sc(netinit(p)).update(seLinuxOptions={"user": "system_u"})),
    ("no drop ALL", DROP, lambda p: sc(main(p))["capabilities"].update(drop=[])),
    ("no drop ALL on netinit", DROP, lambda p: sc(netinit(p))["capabilities"].pop("drop")),
    ("SYS_PTRACE added", ADDS, lambda p: sc(main(p))["capabilities"]["add"].append("SYS_PTRACE")),
    ("NET_ADMIN on the sandbox's container", ADDS, lambda p: sc(main(p))["capabilities"].update(add=["NET_ADMIN"])),
    ("a sidecar adding NET_ADMIN", ADDS, lambda p: p["spec"]["initContainers"].append({**sandbox_shaped("side", restartPolicy="Always"), "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"], "add": ["NET_ADMIN"]}}})),
    ("netinit from another image", NETINIT, lambda p: netinit(p).update(image="python:3.11")),
    ("netinit running another command", NETINIT, lambda p: netinit(p).update(command=["/bin/sh", "-c", "nft flush ruleset"])),
    ("netinit with arguments", NETINIT, lambda p: netinit(p).update(args=['{"grants":[{"to":"any"}]}'])),
    ("netinit adding another capability", NETINIT, lambda p: sc(netinit(p))["capabilities"]["add"].append("SYS_PTRACE")),
    ("another init container", NETINIT, lambda p: p["spec"]["initContainers"].append(sandbox_shaped("sneaky"))),
    ("a sidecar named hangar-netinit", NETINIT, lambda p: (netinit(p).update(restartPolicy="Always"), sc(netinit(p))["capabilities"].update(add=[]))),
]


@pytest.mark.parametrize("what, why, change", ATTACKS, ids=[a[0] for a in ATTACKS])
def test_a_pod_one_change_away_from_hangars_is_refused(made, what, why, change):
    pod = as_new(made["plain"])
    pod["spec"].pop("hostUsers", None)
    assert create(pod) is None, "the unchanged pod must be admitted for the attack to mean anything"
    change(pod)
    refused = create(pod)
    assert refused is not None, f"the sandbox namespace admitted {what}"
    assert POLICY in refused and why in refused, refused


def as_cell_supervisor(pod: dict) -> dict:
    """The idle pool pod as a reusable one is made (ADR 0040): its main container runs netinit's copy
    of the agent as `supervise`, with the supervisor's capabilities, in the pod's own user namespace."""
    p = as_new(pod)
    p["spec"]["hostUsers"] = False
    agent = next(m for m in main(p)["volumeMounts"] if m["name"] == "hangar-agent")
    assert agent.get("readOnly") and agent["mountPath"] == "/.hangar-agent", agent
    main(p).update(command=["/.hangar-agent/hangar-agent-0123456789abcdef", "supervise"], args=[])
    sc(main(p))["capabilities"]["add"] += ["SYS_ADMIN", "SYS_CHROOT", "SETPCAP"]
    main(p)["volumeMounts"].append({"name": "hangar-cell", "mountPath": "/.hangar-cell"})
    p["spec"]["volumes"].append({"name": "hangar-cell", "emptyDir": {}})
    return p


AGENT_VOLUME = "only hangar-netinit writes the exec agent's volume"
CELL_ATTACKS = [
    ("in the node's user namespace", ADDS, lambda p: p["spec"].update(hostUsers=True)),
    ("a command other than the supervisor", ADDS, lambda p: main(p).update(command=["/.hangar-agent/hangar-agent-0123456789abcdef", "run"])),
    ("another binary as supervisor", ADDS, lambda p: main(p).update(command=["/bin/sh", "supervise"])),
    ("a path out of the agent's volume", ADDS, lambda p: main(p).update(command=["/.hangar-agent/../bin/sh", "supervise"])),
    ("arguments after supervise", ADDS, lambda p: main(p).update(args=["-c", "id"])),
    ("the agent's volume not an emptyDir", ADDS, lambda p: next(v for v in p["spec"]["volumes"] if v["name"] == "hangar-agent").update(emptyDir=None, configMap={"name": "agent"})),
    ("a capability beyond the supervisor's", ADDS, lambda p: sc(main(p))["capabilities"]["add"].append("NET_ADMIN")),
    ("the supervisor's capabilities on a sidecar", ADDS, lambda p: p["spec"]["initContainers"].append({**sandbox_shaped("side", restartPolicy="Always"), "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"], "add": ["SYS_ADMIN"]}}})),
    ("a sidecar writing the agent's volume", AGENT_VOLUME, lambda p: p["spec"]["initContainers"].append({**sandbox_shaped("side", restartPolicy="Always"), "volumeMounts": [{"name": "hangar-agent", "mountPath": "/x"}]})),
    ("a sidecar mounting the cells", AGENT_VOLUME, lambda p: p["spec"]["initContainers"].append({**sandbox_shaped("side", restartPolicy="Always"), "volumeMounts": [{"name": "hangar-cell", "mountPath": "/x", "readOnly": True}]})),
]


@pytest.mark.parametrize("what, why, change", CELL_ATTACKS, ids=[a[0] for a in CELL_ATTACKS])
def test_a_reusable_pool_pod_is_admitted_only_in_its_exact_shape(made, what, why, change):
    pod = as_cell_supervisor(made["warm pool"])
    assert create(pod) is None, f"the reusable pool pod's shape must be admitted: {create(pod)}"
    change(pod)
    refused = create(pod)
    assert refused is not None, f"the sandbox namespace admitted a reusable pod with {what}"
    assert POLICY in refused and why in refused, refused


def as_egress_pool_pod(pod: dict) -> dict:
    """The idle pool pod as a +egress pool makes it (ADR 0044): the hangar-net sidecar, netinit's
    image running `hold` with NET_ADMIN alone, and its own state volume."""
    p = as_new(pod)
    n = netinit(p)
    p["spec"]["initContainers"].append({
        "name": "hangar-net", "image": n["image"], "command": [n["command"][0], "hold"], "restartPolicy": "Always",
        "volumeMounts": [{"name": "hangar-net", "mountPath": "/run/hangar-net"}],
        "securityContext": {"runAsUser": 0, "allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                            "capabilities": {"drop": ["ALL"], "add": ["NET_ADMIN"]}, "seccompProfile": {"type": "RuntimeDefault"}}})
    p["spec"]["volumes"].append({"name": "hangar-net", "emptyDir": {"medium": "Memory", "sizeLimit": "1Mi"}})
    return p


def net_sidecar(p: dict) -> dict:
    return next(c for c in p["spec"]["initContainers"] if c["name"] == "hangar-net")


NET_VOLUME = "only the hangar-net sidecar mounts hangar-net"
NET_ATTACKS = [
    ("another command", ADDS, lambda p: net_sidecar(p).update(command=["/bin/sh", "-c", "sleep 1"])),
    ("arguments after hold", ADDS, lambda p: net_sidecar(p).update(args=["x"])),
    ("another image", ADDS, lambda p: net_sidecar(p).update(image="python:3.11")),
    ("a capability beside NET_ADMIN", ADDS, lambda p: sc(net_sidecar(p))["capabilities"]["add"].append("SYS_ADMIN")),
    ("not a sidecar (runs before main, then exits)", NETINIT, lambda p: net_sidecar(p).pop("restartPolicy")),
    ("the sandbox's container mounting its state", NET_VOLUME, lambda p: main(p).setdefault("volumeMounts", []).append({"name": "hangar-net", "mountPath": "/x"})),
]


@pytest.mark.parametrize("what, why, change", NET_ATTACKS, ids=[a[0] for a in NET_ATTACKS])
def test_an_egress_pool_pods_net_sidecar_is_admitted_only_in_its_exact_shape(made, what, why, change):
    pod = as_egress_pool_pod(made["warm pool"])
    assert create(pod) is None, f"the +egress pool pod's shape must be admitted: {create(pod)}"
    change(pod)
    refused = create(pod)
    assert refused is not None, f"the sandbox namespace admitted a hangar-net sidecar with {what}"
    assert POLICY in refused and why in refused, refused


EPHEMERAL = [
    ("privileged", ESCALATE, {"privileged": True, "allowPrivilegeEscalation": None}),
    ("allowPrivilegeEscalation unset", ESCALATE, {"allowPrivilegeEscalation": None}),
    ("SYS_PTRACE added", ADDS, {"capabilities": {"drop": ["ALL"], "add": ["SYS_PTRACE"]}}),
    ("no drop ALL", DROP, {"capabilities": {}}),
    ("seccomp Unconfined", SECCOMP, {"seccompProfile": {"type": "Unconfined"}}),
    ("appArmorProfile Unconfined", APPARMOR, {"appArmorProfile": {"type": "Unconfined"}}),
    ("an SELinux type", SELINUX, {"seLinuxOptions": {"type": "spc_t"}}),
]


def add_ephemeral(pod_name: str, security: dict | None) -> str | None:
    debug = {"name": f"debug-{secrets.token_hex(3)}", "image": "python:3.11", "command": ["sleep", "1"], "targetContainerName": "main"}
    if security is not None:
        debug["securityContext"] = {k: v for k, v in {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}, "seccompProfile": {"type": "RuntimeDefault"}, **security}.items() if v is not None}
    return answer("PATCH", f"/api/v1/namespaces/{NAMESPACE}/pods/{pod_name}/ephemeralcontainers",
                  {"spec": {"ephemeralContainers": [debug]}}, "application/strategic-merge-patch+json")


@pytest.mark.parametrize("what, why, security", EPHEMERAL, ids=[e[0] for e in EPHEMERAL])
def test_an_ephemeral_container_is_held_to_the_same_shape(made, what, why, security):
    name = made["plain"]["metadata"]["name"]
    assert add_ephemeral(name, {}) is None, "a sandbox-shaped ephemeral container must be admitted to a live sandbox pod"
    refused = add_ephemeral(name, security)
    assert refused is not None, f"a live sandbox pod took an ephemeral container with {what}"
    assert POLICY in refused and why in refused, refused


def test_a_live_pods_netinit_cannot_be_swapped_for_another_image(made):
    name = made["plain"]["metadata"]["name"]
    patch = lambda image: answer("PATCH", f"/api/v1/namespaces/{NAMESPACE}/pods/{name}",
                                 {"spec": {"initContainers": [{"name": "hangar-netinit", "image": image}]}}, "application/strategic-merge-patch+json")
    assert patch(netinit(made["plain"])["image"]) is None  # an update that changes nothing there is admitted
    refused = patch("python:3.11")
    assert refused is not None and POLICY in refused and NETINIT in refused, refused

