"""Operations: Prometheus metrics, a bad configuration refused with the setting's name, graceful shutdown."""
import os
import subprocess
import urllib.request

import pytest

from cwsandbox import Sandbox

from conftest import NODE, REPO, start_hangar, stop_hangar


def test_metrics_endpoint(hangar):
    sb = Sandbox.run(tags=["metrics"])
    sb.wait()
    sb.exec(["true"]).result()
    sb.stop().result()
    text = urllib.request.urlopen(f"http://127.0.0.1:{hangar.metrics_port}/metrics", timeout=10).read().decode()
    assert 'hangar_grpc_requests_total{method="CreateSandbox",code="OK"}' in text
    assert 'hangar_grpc_request_duration_seconds_bucket{le="0.005",method="GetSandbox"}' in text
    assert 'hangar_exec_duration_seconds_count{outcome="exited"}' in text
    assert 'hangar_sandboxes{state="COMPLETED"}' in text


def test_bad_configuration_names_the_setting():
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANGAR_")}
    for setting, value in [("HANGAR_LISTEN", "not-an-address"), ("HANGAR_RETENTION_SECONDS", "-5"), ("HANGAR_NOPE", "1")]:
        r = subprocess.run([str(NODE), str(REPO / "dist/cmd/main.js")], env={**env, setting: value}, capture_output=True, text=True, timeout=30)
        assert r.returncode == 2, r
        assert setting in r.stderr and "Error" not in r.stderr.split(":")[0], r.stderr


def test_bad_keys_file_names_the_line(tmp_path):
    keys = tmp_path / "keys"
    keys.write_text("# ok\nalpha:0123456789abcdef0123\nbroken line\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANGAR_")}
    r = subprocess.run([str(NODE), str(REPO / "dist/cmd/main.js")], env={**env, "HANGAR_API_KEYS_FILE": str(keys), "HANGAR_LISTEN": "127.0.0.1:0"}, capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and f"{keys}:3" in r.stderr, r.stderr


@pytest.mark.local_only  # in Kubernetes, pods outlive a Hangar restart by design
def test_graceful_shutdown_stops_sandboxes(monkeypatch):
    h = start_hangar(keys=False)
    monkeypatch.setenv("CWSANDBOX_BASE_URL", h.url)
    monkeypatch.delenv("CWSANDBOX_API_KEY")
    sb = Sandbox.run()
    sb.wait()
    assert stop_hangar(h) == 0
    assert '"msg":"stopped"' in h.log()
