"""bench/results.json -> the tables in docs/benchmarks.md (between the bench markers) and docs/bench.png."""
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

r = json.loads(Path("bench/results.json").read_text())


def row(name, h, raw, target=""):
    ratio50 = h["p50"] / raw["p50"]
    return f"| {name} | {h['p50']} | {h['p99']} | {raw['p50']} | {raw['p99']} | {ratio50:.2f} ({h['p50'] - raw['p50']:+.1f} ms) | {h['p99'] / raw['p99']:.2f} | {target} |"


e, m, c = r["exec_true_ms"], r["exec_1mib_ms"], r["create_to_running_ms"]
lines = [
    f"Measured {r['when']} on {r['machine']}, {r['cluster']}. Raw = @kubernetes/client-node straight to the apiserver, same pods, same run.",
    "",
    "| measure (ms) | Hangar p50 | Hangar p99 | raw p50 | raw p99 | ratio p50 | ratio p99 | target |",
    "|---|---|---|---|---|---|---|---|",
    row(f"exec `true`, agent channel, minimal gRPC client (n={e['hangar']['n']})", e["hangar"], e["raw"], "p50 ≤ 5 ms"),
    row(f"exec `true`, plain exec, minimal gRPC client (n={e['hangar_plain']['n']})", e["hangar_plain"], e["raw"], "p50 ≤ raw + 3 ms, p99 ≤ 1.3×"),
    row(f"exec `true`, agent channel, real SDK (n={e['hangar_sdk']['n']})", e["hangar_sdk"], e["raw"]),
    row(f"exec `true`, plain exec, real SDK (n={e['hangar_sdk_plain']['n']})", e["hangar_sdk_plain"], e["raw"]),
    row(f"exec 1 MiB of output, agent channel (n={m['hangar']['n']})", m["hangar"], m["raw"], "p50 ≤ 10 ms (≥ 100 MiB/s)"),
    row(f"exec 1 MiB of output, plain exec (n={m['hangar_plain']['n']})", m["hangar_plain"], m["raw"]),
    *([row(f"exec 1 MiB of output, agent channel, real SDK (n={m['hangar_sdk']['n']})", m["hangar_sdk"], m["raw"])] if m.get("hangar_sdk") else []),
    row(f"create → RUNNING, cold (n={c['hangar_cold']['n']})", c["hangar_cold"], c["raw"], "≤ 1.1× raw + 50 ms"),
    row(f"create → RUNNING, warm pool (n={c['hangar_warm']['n']})", c["hangar_warm"], c["raw"], "p50 ≤ 40 ms, p99 ≤ 250 ms"),
    "",
    "| execs per second (`true`, 4 s, one sandbox) | agent ops/s | agent p99 ms | agent failed | plain ops/s | plain p99 ms | plain failed | raw ops/s | raw p99 ms | raw failed | ratio agent/raw | ratio plain/raw |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    *[f"| concurrency {x['concurrency']} | {x['hangar']['ops_per_s']} | {x['hangar']['p99']} | {x['hangar']['failed']} | {x['hangar_plain']['ops_per_s']} | {x['hangar_plain']['p99']} | {x['hangar_plain']['failed']} | {x['raw']['ops_per_s']} | {x['raw']['p99']} | {x['raw']['failed']} | {x['hangar']['ops_per_s'] / max(x['raw']['ops_per_s'], 0.1):.2f} | {x['hangar_plain']['ops_per_s'] / max(x['raw']['ops_per_s'], 0.1):.2f} |" for x in r["execs_per_s"]],
    "",
    f"| burst of {r['burst']['raw']['requested']} concurrent creates | success | all RUNNING after (ms) |",
    "|---|---|---|",
    f"| Hangar, warm pool | {r['burst']['hangar_warm']['success_rate'] * 100:.0f} % | {r['burst']['hangar_warm']['all_running_ms']} (target ≤ 600) |",
    f"| raw pods | {r['burst']['raw']['success_rate'] * 100:.0f} % | {r['burst']['raw']['all_running_ms']} |",
    "",
    "| other | value |",
    "|---|---|",
    f"| GetSandbox from the cache, 16 clients (no apiserver request; target ≥ 5,000 req/s, p99 ≤ 10 ms) | {r['get_list']['get']['ops_per_s']} req/s, p99 {r['get_list']['get']['p99']} ms |",
    f"| ListSandboxes (tag filter), 16 clients (target ≥ 5,000 req/s, p99 ≤ 10 ms) | {r['get_list']['list']['ops_per_s']} req/s, p99 {r['get_list']['list']['p99']} ms |",
    f"| Hangar RSS with {r['hangar_process']['sandboxes']} sandboxes | {r['hangar_process']['rss_mib']} MiB |",
    f"| Hangar CPU for the {r['hangar_process']['sandboxes']}-create burst / idle with them | {r['hangar_process']['cpu_seconds_for_burst']} CPU-s / {r['hangar_process']['cpu_percent_idle_with_sandboxes']} % |",
    f"| RL reward workload (create, write file, exec python, collect, stop), {r['rl_workload']['completions']} completions at once, warm pool + agent (target ≥ 20/s) | {r['rl_workload']['completions_per_s']} completions/s ({r['rl_workload']['correct']} correct, {r['rl_workload']['seconds']} s) |",
    f"| the same on raw pods (create, exec with stdin, exec, delete) | {r['rl_workload']['raw']['completions_per_s']} completions/s ({r['rl_workload']['raw']['correct']} correct, {r['rl_workload']['raw']['seconds']} s); ratio {r['rl_workload']['completions_per_s'] / max(r['rl_workload']['raw']['completions_per_s'], 0.01):.1f}× |",
    *([f"| RL workload, where each completion's time goes (p50 / p99 ms per step, all at once) | " + ", ".join(f"{k.replace('_', ' ')} {v['p50']} / {v['p99']}" for k, v in r['rl_workload']['steps'].items()) + " |"] if r['rl_workload'].get('steps') else []),
    f"| warm pool fill, {r['sizes']['BURST']} pods from empty | {r['warm_pool_fill_ms']} ms |",
    *([f"| waited for a quiet node (kubelet + containerd < 10 % of a core) before the burst / the RL workload | {r['settle_ms']['before_burst']} / {r['settle_ms']['before_rl']} ms |"] if r.get('settle_ms') else []),
    f"| node full: {r['node_full']['running']} of {r['node_full']['requested']} cold sandboxes RUNNING (waves of 20, agent on) | filled in {r['node_full']['seconds_to_fill']} s; Hangar RSS {r['node_full']['rss_mib']} MiB, {r['node_full']['cpu_seconds_to_fill']} CPU-s to fill, idle {r['node_full']['cpu_percent_idle']} % |",
    f"| node full: exec `true` round robin over all of them, 16 clients | {r['node_full']['exec_round_robin_16']['ops_per_s']} execs/s, p50 {r['node_full']['exec_round_robin_16']['p50']} ms, p99 {r['node_full']['exec_round_robin_16']['p99']} ms, {r['node_full']['exec_round_robin_16']['failed']} failed |",
    "",
    "![Hangar vs raw Kubernetes](bench.png)",
]
doc = Path("docs/benchmarks.md").read_text()
doc = re.sub(r"<!-- bench:start -->[\s\S]*<!-- bench:end -->", "<!-- bench:start -->\n" + "\n".join(lines) + "\n<!-- bench:end -->", doc)
Path("docs/benchmarks.md").write_text(doc)

names = ["exec true\nagent", "exec true\nplain", "exec true\nSDK agent", "exec 1 MiB\nagent", "exec 1 MiB\nplain", "create cold", "create warm"]
hs = [e["hangar"], e["hangar_plain"], e["hangar_sdk"], m["hangar"], m["hangar_plain"], c["hangar_cold"], c["hangar_warm"]]
raws = [e["raw"], e["raw"], e["raw"], m["raw"], m["raw"], c["raw"], c["raw"]]
fig, axes = plt.subplots(1, 2, figsize=(14, 4.5))
for ax, key in zip(axes, ["p50", "p99"]):
    x = range(len(names))
    ax.bar([i - 0.2 for i in x], [h[key] for h in hs], 0.4, label="Hangar")
    ax.bar([i + 0.2 for i in x], [raw[key] for raw in raws], 0.4, label="raw Kubernetes")
    ax.set_xticks(list(x), names, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("ms (log)")
    ax.set_title(f"{key} latency")
    ax.legend()
fig.suptitle(f"Hangar vs raw Kubernetes ({r['machine']}, {r['when'][:10]})")
fig.tight_layout()
fig.savefig("docs/bench.png", dpi=100)
print("\n".join(lines))
