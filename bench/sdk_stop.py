"""SDK stop() latency on the Kubernetes runtime for commands without a SIGTERM handler (docs/benchmarks.md).
Run with the test cluster up: KUBECONFIG=.cluster/kubeconfig HANGAR_E2E_KUBECONFIG=.cluster/hangar-sa.kubeconfig .venv/bin/python bench/sdk_stop.py"""
import os, sys, time, statistics
sys.path.insert(0, "test/e2e")
os.environ.setdefault("HANGAR_E2E_RUNTIME", "kubernetes")
from conftest import start_hangar, stop_hangar
h = start_hangar()
os.environ["CWSANDBOX_BASE_URL"] = h.url; os.environ["CWSANDBOX_API_KEY"] = h.keys["alpha"]
from cwsandbox import Sandbox
res = {}
for name, argv in [("sleep infinity", ["sleep", "infinity"]), ("python loop", ["python", "-c", "import time\nwhile True: time.sleep(1)"])]:
    ts = []
    for _ in range(3):
        sb = Sandbox.run(*argv, tags=["stopbench"]); sb.wait()
        t = time.monotonic(); sb.stop().result(); ts.append(time.monotonic() - t)
    res[name] = [round(x, 2) for x in ts]
print(res)
stop_hangar(h)
