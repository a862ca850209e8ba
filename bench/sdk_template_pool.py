"""A run from a shared template with a warm pool for it (template:<id>, ADR 0007) against the same
template created cold (an override of its resources), through the SDK, same run, same Hangar, on
the Kubernetes runtime (make cluster-up first). Prints JSON (docs/benchmarks.md, "Template pools").
  KUBECONFIG=.cluster/kubeconfig HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_template_pool.py"""
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, "test/e2e")
from conftest import NAMESPACE, RUNTIME, _kube, start_hangar, stop_hangar  # noqa: E402

N = int(os.environ.get("BENCH_TEMPLATE_RUNS", "15"))
TEMPLATE = """- id: bench-agent
  display_name: bench agent env
  spec:
    containers: [{ name: main, image: python:3.11, working_dir: /bench-agent, resources: { cpu: 250m, memory: 192Mi } }]
    max_lifetime_seconds: 300
"""
f = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False)
f.write(TEMPLATE)
f.close()
h = start_hangar({"HANGAR_SHARED_TEMPLATES_FILE": f.name, "HANGAR_KUBE_WARM_POOLS": "template:bench-agent=4", "HANGAR_KUBE_EXEC_AGENT": "true"})
os.environ["CWSANDBOX_BASE_URL"] = h.url
os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
from cwsandbox import Sandbox  # noqa: E402


def pool_pods(ready: bool) -> list[dict]:
    items = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fwarm-pool")["items"]
    return [p for p in items if p["spec"]["containers"][0].get("workingDir") == "/bench-agent" and not p["metadata"].get("deletionTimestamp") and (not ready or p["metadata"].get("annotations", {}).get("hangar.dev/exec"))]


def wait_pool(n: int) -> None:
    t = time.monotonic()
    while len(pool_pods(True)) < n:
        assert time.monotonic() - t < 300, "the template pool did not fill"
        time.sleep(0.5)


def one(**kw) -> tuple[float, float, str]:
    t = time.monotonic()
    sb = Sandbox.run(template_id="bench-agent", tags=["bench-template-pool"], **kw)
    sb.wait()
    running = time.monotonic() - t
    r = sb.exec(["pwd"]).result()
    assert r.stdout == "/bench-agent\n" or kw, r.stdout
    total = time.monotonic() - t
    pod = _kube("GET", f"/api/v1/namespaces/{NAMESPACE}/pods?labelSelector=hangar.dev%2Fsandbox-id%3D{sb.sandbox_id}")["items"][0]["metadata"]["name"]
    sb.stop().result()
    return running * 1000, total * 1000, pod


def stats(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"n": len(xs), "p50": round(statistics.median(xs), 1), "max": round(xs[-1], 1)}


out: dict = {"runtime": RUNTIME, "runs": N}
try:
    warm, cold = [], []
    for i in range(N):
        wait_pool(4)
        warm.append(one())
        cold.append(one(container_image="python:3.11", resources={"cpu": "250m", "memory": "256Mi"}))
    out["warm_from_pool"] = {"run_to_running_ms": stats([w[0] for w in warm]), "with_first_exec_ms": stats([w[1] for w in warm]), "claimed": sum(w[2].startswith("warm-") for w in warm)}
    out["cold"] = {"run_to_running_ms": stats([c[0] for c in cold]), "with_first_exec_ms": stats([c[1] for c in cold]), "claimed": sum(c[2].startswith("warm-") for c in cold)}
finally:
    stop_hangar(h)
    for p in pool_pods(False):
        _kube("DELETE", f"/api/v1/namespaces/{NAMESPACE}/pods/{p['metadata']['name']}?gracePeriodSeconds=0")
    os.unlink(f.name)
print(json.dumps(out, indent=1))
