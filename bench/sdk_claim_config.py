"""What claim-time configuration costs on reused pool pods (ADR 0041, 0042), through the SDK, same run,
same Hangar, on the Kubernetes runtime (make cluster-up first): run -> RUNNING and the first exec for a
plain sandbox, one with a hostname grant (a +https pool), one with a sized scratch volume (its cell made
again at claim), and two with their own CPU and memory limits (a sized pool, ADR 0043: one whose pod is
already at its limits, one resized in place at claim, confirmed from the pod's cgroup), and one with an
egress rule by address (a +egress pool, ADR 0044: its rules loaded at claim), against cold starts of the same. Alternating, one at a time. Prints JSON
(docs/benchmarks.md, "Claim-time configuration").
  KUBECONFIG=.cluster/kubeconfig HANGAR_E2E_RUNTIME=kubernetes .venv/bin/python bench/sdk_claim_config.py"""
import json
import os
import statistics
import sys
import time

sys.path.insert(0, "test/e2e")
from conftest import TEST_GATEWAY, start_hangar, stop_hangar  # noqa: E402
from test_kube_pool_reuse import cleanup_reuse, pod_of, wait_idle  # noqa: E402

N = int(os.environ.get("BENCH_CLAIM_RUNS", "12"))
IMAGE = "python:3.11"
h = start_hangar({
    "HANGAR_KUBE_WARM_POOLS": f"{IMAGE}=2,{IMAGE}=2+https,{IMAGE}=2+cpu:1+memory:512Mi,{IMAGE}=2+egress", "HANGAR_KUBE_POOL_REUSE": "true", "HANGAR_KUBE_EXEC_AGENT": "true",
    "HANGAR_KUBE_EGRESS_PROXY_LISTEN": "0.0.0.0:0", "HANGAR_KUBE_EGRESS_PROXY_ADDRESS": f"{TEST_GATEWAY}:0",
})
os.environ["CWSANDBOX_BASE_URL"] = h.url
os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
from cwsandbox import EgressRule, FileSystemSnapshotOptions, NetworkOptions, Sandbox  # noqa: E402

KINDS = {
    "plain": lambda i: {},
    "hostname grant": lambda i: {"network": NetworkOptions(egress=[EgressRule(dns_name="bench.test")])},
    # An address and port (ADR 0044): the rules loaded through the pod's hangar-net sidecar at claim.
    "egress rule by address": lambda i: {"network": NetworkOptions(egress=[EgressRule(cidr="198.18.0.0/15", ports=[8080])])},
    "scratch volume 64Mi": lambda i: {"file_system_snapshot": FileSystemSnapshotOptions(mount_path="/workspace", size="64Mi")},
    # The same limits every time: after the first, the pod is already at them (its memory limit, 512Mi,
    # keeps the other kind's claims off it: a pod's memory limit is never lowered).
    "limits, pod at them": lambda i: {"resources": {"limits": {"cpu": "500m", "memory": "512Mi"}}},
    # A CPU limit no pod has yet: every claim resizes the pod and waits for its cgroup.
    "limits, resized at claim": lambda i: {"resources": {"limits": {"cpu": f"{200 + 10 * i}m", "memory": "256Mi"}}},
}


def one(kw: dict, image: str) -> dict:
    t0 = time.perf_counter()
    sb = Sandbox.run(container_image=image, tags=["bench-claim"], max_lifetime_seconds=300, **kw)
    sb.wait()
    t1 = time.perf_counter()
    r = sb.exec(["true"]).result()
    t2 = time.perf_counter()
    warm = (pod_of(sb.sandbox_id) or "").startswith("warm-")
    sb.stop(graceful_shutdown_seconds=0).result()
    assert r.returncode == 0
    return {"running_ms": (t1 - t0) * 1000, "first_exec_ms": (t2 - t1) * 1000, "warm": warm}


def summary(xs: list[float]) -> dict:
    xs = sorted(xs)
    return {"p50": round(statistics.median(xs), 1), "p99": round(xs[min(len(xs) - 1, int(len(xs) * 0.99))], 1)}


out: dict = {"runs": N, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "kinds": {}}
try:
    wait_idle(8)
    got: dict[str, list[dict]] = {f"{k} ({w})": [] for k in KINDS for w in ("warm", "cold")}
    for i in range(N + 1):
        for k, kw in KINDS.items():
            # warm: the pooled image; cold: the same image by another name (no pool serves it).
            for w, image in (("warm", IMAGE), ("cold", f"docker.io/library/{IMAGE}")):
                r = one(kw(i), image)
                if i:  # the first round warms the caches
                    got[f"{k} ({w})"].append(r)
            time.sleep(0.3)  # the pod back in its pool
    for name, rs in got.items():
        out["kinds"][name] = {"run_to_running_ms": summary([r["running_ms"] for r in rs]),
                              "first_exec_ms": summary([r["first_exec_ms"] for r in rs]),
                              "served_warm": sum(r["warm"] for r in rs)}
finally:
    assert stop_hangar(h) == 0
    cleanup_reuse()
print(json.dumps(out, indent=2))
