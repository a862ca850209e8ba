"""bench/sdk-results.json -> the SDK-driven RL loop table in docs/benchmarks.md (between the sdk-bench markers)."""
import json
import re
from pathlib import Path

r = json.loads(Path("bench/sdk-results.json").read_text())


def p(x, k="p50"):
    return "–" if not x or x.get(k) is None else f"{x[k]:.0f}"


lines = [
    "| run | where | completions/s | SDK run→RUNNING p50 / p99 | Hangar create→RUNNING p50 | exec p50 | stop p50 / p99 | reward p50 | session close p50 |",
    "|---|---|---|---|---|---|---|---|---|",
]
for label, run in r.items():
    what = f"{label} ({run['hangar']}, {run['when'][:16]}Z)"
    for where in ("local", "kubernetes", "kubernetes_reuse"):
        x = run.get(where)
        if not x:
            continue
        parts, loop = x["parts"], x["loop"]
        lines.append(
            f"| {what} | {where} | {loop['completions_per_s']} | {p(parts['run_to_running_ms'])} / {p(parts['run_to_running_ms'], 'p99')} | "
            f"{p(parts['hangar_create_to_running_ms'])} | {p(parts['exec_ms'])} | {p(parts['stop_ms'])} / {p(parts['stop_ms'], 'p99')} | {p(loop['reward_ms'])} | {p(loop['session_close_ms'])} |"
        )
    raw = run.get("raw")
    if raw:
        lines.append(
            f"| {what} | raw pods | {raw['completions_per_s']} | {p(raw['run_to_running_ms'])} / {p(raw['run_to_running_ms'], 'p99')} | – | {p(raw['exec_ms'])} | "
            f"{p(raw['stop_ms'])} / {p(raw['stop_ms'], 'p99')} | {p(raw['reward_ms'])} | – |"
        )
lines += [
    "",
    "| run | where | CPU per completion in the loop: machine | SDK client | Hangar | sandboxes, kernel, cluster |",
    "|---|---|---|---|---|---|",
]
for label, run in r.items():
    for where in ("local", "kubernetes", "kubernetes_reuse"):
        c = (run.get(where) or {}).get("loop", {}).get("cpu_ms_per_completion")
        if c:
            lines.append(f"| {label} | {where} | {c['machine']:.0f} ms | {c['sdk']:.0f} ms | {c.get('hangar', 0):.0f} ms | {c['sandboxes_and_kernel']:.0f} ms |")
lines += [
    "",
    "| run | SDK run→RUNNING p50 / p99: egress denied | egress allowed (pasta) | neighbour's exec p50 / p99: idle | while a sandbox floods its log with empty lines |",
    "|---|---|---|---|---|",
]
for label, run in r.items():
    b = run.get("local_boundary")
    if b:
        e, f = b["egress"], b["flood"]
        pp = lambda x: f"{p(x)} / {p(x, 'p99')} ms"  # noqa: E731
        lines.append(f"| {label} | {pp(e['denied_run_to_running_ms'])} | {pp(e['allowed_run_to_running_ms'])} | {pp(f['idle_exec_ms'])} | {pp(f['during_flood_exec_ms'])} |")
doc = Path("docs/benchmarks.md").read_text()
doc = re.sub(r"<!-- sdk-bench:start -->[\s\S]*<!-- sdk-bench:end -->", "<!-- sdk-bench:start -->\n" + "\n".join(lines) + "\n<!-- sdk-bench:end -->", doc)
Path("docs/benchmarks.md").write_text(doc)
print("\n".join(lines))
