"""Warm pools through the real SDK (make test-e2e-deployed runs the chart with a pool of python:3.11).

A default Sandbox.run() is served by a claimed pool pod, and the user cannot tell: env,
mounted files, a fresh filesystem, its own lifetime. A pool configured for a shared template
serves Sandbox.run(template_id=...) with the template's resources and working directory.
The chart's Hangar runs commands over the exec agent's direct link (ADR 0022), in the cluster.
"""
import re
import time

import pytest

from cwsandbox import Sandbox

from conftest import DEPLOY_NAMESPACE, NAMESPACE, _kube, _kube_text, hangar_replicas, point_sdk_at, start_hangar, stop_hangar


def backing_pod(sandbox_id: str) -> dict:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fsandbox-id%3D{sandbox_id}")["items"]
    assert len(items) == 1, items
    return items[0]


def exec_paths() -> dict[str, int]:
    """hangar_kube_exec_commands summed over the deployed replicas (their /metrics through the apiserver's pod proxy)."""
    total = {"direct": 0, "agent": 0, "plain": 0}
    for p in hangar_replicas():
        text = _kube_text(f"/api/v1/namespaces/{DEPLOY_NAMESPACE}/pods/{p['metadata']['name']}:9464/proxy/metrics")
        for path, n in re.findall(r'^hangar_kube_exec_commands\{path="(\w+)"\} (\d+)', text, re.M):
            total[path] += int(n)
    return total


@pytest.mark.deployed_only
def test_the_deployed_hangar_runs_commands_over_the_agents_direct_link(hangar):
    sb = Sandbox.run(tags=["e2e", "direct"])
    sb.wait()
    try:
        # Behind the Service either replica may take a call; each opens its own link to the pod,
        # the first call on a replica that has none yet goes another way while it opens.
        streak, deadline = 0, time.monotonic() + 60
        while streak < 5 and time.monotonic() < deadline:
            before = exec_paths()
            r = sb.exec(["/bin/sh", "-c", 'echo ok; tr "\\0" " " < /proc/$PPID/cmdline']).result()
            after = exec_paths()
            assert r.stdout.startswith("ok\n"), r.stdout
            took = {k: after[k] - before[k] for k in after}
            streak = streak + 1 if took == {"direct": 1, "agent": 0, "plain": 0} else 0
            if streak:
                # The agent netinit copied from Hangar's image into the read-only mount (ADR 0023).
                assert "/.hangar-agent/hangar-agent-" in r.stdout, r.stdout
            else:
                time.sleep(0.5)
        assert streak == 5, f"5 commands in a row over the direct link: {streak} ({exec_paths()})"
        # Nothing was streamed into the pod: no copy installed through exec stdin.
        assert sb.exec(["/bin/sh", "-c", "ls -A /tmp | grep -c hangar-agent || true"]).result().stdout == "0\n"
        # Root in the sandbox, through the SDK, cannot change, replace or add to the agent's mount.
        attack = "\n".join([
            'f=$(ls /.hangar-agent); before=$(sha256sum "/.hangar-agent/$f")',
            'for t in "cat /bin/sh > /.hangar-agent/$f" "rm -f /.hangar-agent/$f" "mv /.hangar-agent/$f /.hangar-agent/x" "chmod 777 /.hangar-agent/$f" "touch /.hangar-agent/new" "mount -o remount,rw /.hangar-agent" "umount /.hangar-agent"; do',
            '  sh -c "$t" 2>/dev/null && echo "ALLOWED: $t"',
            "done",
            'echo "$before" | sha256sum -c --quiet && echo intact; id -u; ls -A /.hangar-agent | wc -l',
        ])
        r = sb.exec(["/bin/sh", "-c", attack]).result()
        assert (r.returncode, r.stdout) == (0, "intact\n0\n1\n"), (r.returncode, r.stdout, r.stderr)
    finally:
        sb.stop().result()


@pytest.mark.deployed_only
def test_default_sandboxes_come_from_the_warm_pool_and_look_cold(hangar):
    first = Sandbox.run(tags=["e2e", "warm"], environment_variables={"GREETING": "hi"}, mounted_files=[{"mount_path": "/etc/app.conf", "file_content": "k=v\n"}])
    first.wait()
    pod = backing_pod(first.sandbox_id)
    assert pod["metadata"]["labels"].get("hangar.dev/claimed") == "true", pod["metadata"]["name"]
    assert not pod["metadata"]["name"].startswith("sbx-")
    r = first.exec(["/bin/sh", "-c", 'echo "$GREETING"; cat /etc/app.conf; touch /tmp/left-behind']).result()
    assert r.stdout == "hi\nk=v\n"
    second = Sandbox.run(tags=["e2e", "warm"])
    second.wait()
    assert backing_pod(second.sandbox_id)["metadata"]["name"] != pod["metadata"]["name"]
    r2 = second.exec(["/bin/sh", "-c", "ls /tmp/left-behind 2>&1; echo ${GREETING:-unset}; ls /etc/app.conf 2>&1"]).result()
    assert "unset" in r2.stdout and "No such file" in r2.stdout
    first.stop().result()
    second.stop().result()


POOLED_TEMPLATE = """- id: e2e-pooled
  display_name: pooled agent env
  spec:
    containers: [{ name: main, image: python:3.11, working_dir: /e2e-pooled, resources: { cpu: 250m, memory: 192Mi }, environment_variables: { FROM: template } }]
    max_lifetime_seconds: 300
"""


def template_pool_pods() -> list[dict]:
    """Idle pool pods made for the e2e-pooled template (its working directory marks them)."""
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fwarm-pool")["items"]
    return [p for p in items if p["spec"]["containers"][0].get("workingDir") == "/e2e-pooled" and not p["metadata"].get("deletionTimestamp")]


@pytest.mark.kubernetes_only
@pytest.mark.own_hangar
def test_a_shared_template_pool_serves_runs_from_the_template(monkeypatch, tmp_path):
    f = tmp_path / "shared.yaml"
    f.write_text(POOLED_TEMPLATE)
    h = start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f), "HANGAR_KUBE_WARM_POOLS": "template:e2e-pooled=2"})
    try:
        point_sdk_at(monkeypatch, h)
        deadline = time.monotonic() + 180
        while len([p for p in template_pool_pods() if p["metadata"].get("annotations", {}).get("hangar.dev/exec")]) < 2:
            assert time.monotonic() < deadline, "the template pool never had 2 ready pods"
            time.sleep(0.5)
        idle = template_pool_pods()[0]["spec"]["containers"][0]
        assert idle["resources"]["limits"]["memory"] == "192Mi" and idle["workingDir"] == "/e2e-pooled", idle

        sb = Sandbox.run(template_id="e2e-pooled", tags=["e2e", "warm"])
        sb.wait()
        pod = backing_pod(sb.sandbox_id)
        assert pod["metadata"]["labels"].get("hangar.dev/claimed") == "true" and pod["metadata"]["name"].startswith("warm-"), pod["metadata"]["name"]
        main = pod["spec"]["containers"][0]
        assert main["resources"]["limits"]["memory"] == "192Mi" and main["resources"]["limits"]["cpu"] == "250m", main["resources"]
        r = sb.exec(["sh", "-c", 'pwd; echo "$FROM"']).result()
        assert r.stdout == "/e2e-pooled\ntemplate\n", r.stdout

        # An override that changes what the pod is made with (its resources) is a cold create, with them.
        cold = Sandbox.run(template_id="e2e-pooled", container_image="python:3.11", resources={"memory": "256Mi"}, tags=["e2e", "warm"])
        cold.wait()
        cpod = backing_pod(cold.sandbox_id)
        assert cpod["metadata"]["name"].startswith("sbx-") and "hangar.dev/claimed" not in cpod["metadata"]["labels"]
        assert cpod["spec"]["containers"][0]["resources"]["limits"]["memory"] == "256Mi"
        sb.stop().result()
        cold.stop().result()
    finally:
        stop_hangar(h)
        for p in template_pool_pods():
            _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{p['metadata']['name']}?gracePeriodSeconds=0")


@pytest.mark.kubernetes_only
@pytest.mark.own_hangar
def test_a_template_pool_a_warm_pod_cannot_serve_stops_the_start(tmp_path):
    f = tmp_path / "shared.yaml"
    f.write_text("- id: with-ports\n  display_name: x\n  spec: { containers: [{ name: main, image: python:3.11 }], services: [{ port: 8080 }] }\n")
    with pytest.raises(RuntimeError) as e:
        start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f), "HANGAR_KUBE_WARM_POOLS": "template:with-ports=1"})
    assert "HANGAR_KUBE_WARM_POOLS" in str(e.value) and "template:with-ports" in str(e.value), str(e.value)
    with pytest.raises(RuntimeError) as e:
        start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": str(f), "HANGAR_KUBE_WARM_POOLS": "template:missing=1"})
    assert "no shared template has this id" in str(e.value), str(e.value)
