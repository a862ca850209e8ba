"""Compose files through the real SDK (Sandbox.run_from_file, CreateSandboxFromFile): on Kubernetes each
service is a container of one sandbox, started after what it depends on has passed its healthcheck,
reachable by service name on 127.0.0.1; what Hangar cannot honour (host ports, bind mounts, privileged,
builds, a Docker engine) is refused naming the key. A sidecar made from a Compose file is as confined
as the primary: the attacks below run inside it. The local runtime runs one-service files."""
import uuid

import pytest
from cwsandbox import Sandbox, SandboxControl
from cwsandbox.exceptions import CWSandboxError

from conftest import RUNTIME, _kube

RES = {"requests": {"cpu": "200m", "memory": "128Mi"}, "limits": {"cpu": "200m", "memory": "128Mi"}}

# The file lists the primary first and the database last: Hangar starts them the other way round.
# `web` records, once, what the database answered when web started: only a start after the
# database's healthcheck passed can have seen PONG.
ORDERED = b"""
name: e2e-compose
services:
  main:
    image: python:3.11
    command: ["sleep", "600"]
    volumes: ["shared:/shared"]
    depends_on:
      web: { condition: service_healthy }
  web:
    image: python:3.11
    volumes: ["shared:/shared"]
    environment: { DB_HOST: db }
    depends_on:
      db: { condition: service_healthy }
    entrypoint:
      - python3
      - -c
      - |
        import os, socket, time
        try:
            c = socket.create_connection((os.environ["DB_HOST"], 6379), 2); c.sendall(b"PING\\r\\n"); seen = c.recv(16).decode().strip()
        except OSError as e:
            seen = "no database: " + e.__class__.__name__
        open("/shared/seen-at-start", "w").write(seen)
        open("/tmp/ready", "w").write("1")
        time.sleep(600)
    healthcheck: { test: ["CMD", "test", "-f", "/tmp/ready"], interval: 1s, retries: 30 }
  db:
    image: redis:7
    healthcheck: { test: "redis-cli ping | grep -q PONG", interval: 1s, timeout: 1s, retries: 30, start_period: 2s }
volumes:
  shared: {}
"""


def _run(contents: bytes, **kw) -> Sandbox:
    return Sandbox.run_from_file(contents, primary_service=kw.pop("primary_service", "main"), default_resources=RES, tags=["e2e-compose"], max_lifetime_seconds=300, **kw)


@pytest.mark.kubernetes_only
def test_services_start_in_dependency_order_behind_healthchecks_and_meet_on_loopback(hangar):
    sb = _run(ORDERED)
    try:
        sb.wait()
        assert [c.name for c in sb.containers] == ["main", "web", "db"]
        assert [c.name for c in sb.containers if c.primary] == ["main"]
        assert sb.control == SandboxControl.PLATFORM
        # web started only after db answered its healthcheck, main only after web's.
        assert sb.read_file("/shared/seen-at-start").result() == b"+PONG"
        hosts = sb.exec(["getent", "hosts", "db"]).result()
        assert hosts.returncode == 0 and hosts.stdout.startswith("127.0.0.1"), hosts
        assert sb.exec(["redis-cli", "ping"], container="db").result().stdout.strip() == "PONG"
        assert sb.exec(["sh", "-c", "echo $DB_HOST"], container="web").result().stdout.strip() == "db"
    finally:
        sb.stop().result()


@pytest.mark.kubernetes_only
def test_a_compose_sidecar_is_confined_as_the_primary(hangar):
    node = _kube("GET", "/api/v1/nodes")["items"][0]
    node_ip = next(a["address"] for a in node["status"]["addresses"] if a["type"] == "InternalIP")
    api = _kube("GET", "/api/v1/namespaces/default/services/kubernetes")["spec"]["clusterIP"]
    sb = _run(b"services:\n  main: { image: python:3.11, command: [sleep, '600'] }\n  side: { image: python:3.11, command: [sleep, '600'] }\n")
    try:
        sb.wait()
        r = sb.exec(["sh", "-c", "id -u; head -1 /proc/self/uid_map; grep -E '^(Seccomp|NoNewPrivs|CapEff):' /proc/self/status; ls /var/run/secrets/kubernetes.io 2>&1"], container="side").result()
        lines = r.stdout.splitlines()
        uid_map = lines[1].split()
        assert lines[0] == "0" and uid_map[0] == "0" and uid_map[1] != "0", r.stdout  # root inside is not the node's root
        assert "Seccomp:\t2" in lines and "NoNewPrivs:\t1" in lines, r.stdout
        assert "No such file" in r.stdout, r.stdout  # no service-account token
        probe = "import socket\nfor h, p in %r:\n    s = socket.socket(); s.settimeout(3)\n    try:\n        s.connect((h, p)); print('CONNECTED', h, p)\n    except OSError as e:\n        print('refused', h, p)\n" % ([(api, 443), (node_ip, 6443), (node_ip, 10250)],)
        r = sb.exec(["python3", "-c", probe], container="side", timeout_seconds=60).result()
        assert "CONNECTED" not in r.stdout and r.stdout.count("refused") == 3, r.stdout  # not the Kubernetes API, not the kubelet
    finally:
        sb.stop().result()


def test_what_cannot_be_honoured_is_refused_naming_the_key(hangar):
    escape = b"""services:
  main:
    image: python:3.11
    entrypoint: [sleep, "60"]
    privileged: true
    cap_add: [SYS_ADMIN]
    network_mode: host
    pid: host
    ports: ["8080:80"]
    volumes: ["/:/host"]
"""
    with pytest.raises(CWSandboxError) as e:
        _run(escape).wait()
    for key in ("privileged", "cap_add", "network_mode", "pid", "ports", "volumes[0]"):
        assert f"contents.services.main.{key}" in str(e.value), (key, e.value)
    with pytest.raises(CWSandboxError) as e:
        _run(b"services:\n  main: { build: . }\n").wait()
    assert "contents.services.main.build" in str(e.value) and "not supported" in str(e.value), e.value
    with pytest.raises(CWSandboxError) as e:
        Sandbox.run_from_file(b"services:\n  main: { image: python:3.11 }\n", control=SandboxControl.CONTAINER_ENGINE).wait()
    assert "CONTROL_CONTAINER_ENGINE" in str(e.value), e.value


def test_a_request_id_names_one_file(hangar):
    rid = f"e2e-compose-{uuid.uuid4().hex}"
    one = b"services:\n  main: { image: python:3.11, entrypoint: [sleep, '300'] }\n"
    a = _run(one, request_id=rid)
    try:
        a.wait()
        assert _run(one, request_id=rid).sandbox_id == a.sandbox_id  # a retry is the same sandbox
        with pytest.raises(CWSandboxError) as e:
            _run(one + b"\n", request_id=rid)  # other bytes, even whitespace
        assert "request_id" in str(e.value), e.value
        assert a.exec(["true"]).result().returncode == 0
    finally:
        a.stop().result()


@pytest.mark.local_only
def test_the_local_runtime_runs_one_service_with_an_entrypoint(hangar):
    sb = _run(b"services:\n  main: { image: python:3.11, entrypoint: [sleep, '300'], environment: { X: 'y' } }\n")
    try:
        sb.wait()
        assert sb.exec(["sh", "-c", "echo $X"]).result().stdout.strip() == "y"
    finally:
        sb.stop().result()
    with pytest.raises(CWSandboxError) as e:
        _run(b"services:\n  main: { image: python:3.11, command: [sleep, '300'] }\n").wait()
    assert "contents.services.main.command" in str(e.value) and "entrypoint" in str(e.value), e.value
    with pytest.raises(CWSandboxError) as e:
        _run(ORDERED).wait()
    assert "only one container is supported" in str(e.value), e.value
