"""bench/results.json's `scale` section -> the tables between the scale markers in docs/benchmarks.md and docs/bench-scale.png."""
import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

s = json.loads(Path("bench/results.json").read_text())["scale"]
rows = s["sizes"]
raw = s.get("raw")
GOALS = {"create_per_s": "≥ 300", "get_rps": "≥ 5,000", "list_p99_ms": "≤ 20", "rss_mib": "≤ 500", "reaper_lag_ms": "≤ 5,000"}


def never(r):
    # Sandboxes that ended without running (the bed saturated: not started within the startup timeout).
    return f" ({r['not_running']:,} never RUNNING)" if r.get("not_running") else ""


def get_failed(r):
    return f", {r['get_failed']:,} failed" if r.get("get_failed") else ""


def cpu(c):
    parts = sorted(c["cpu_s"].items(), key=lambda kv: -kv[1])
    return ", ".join(f"{k} {v}" for k, v in parts if v >= 0.5) + f" (total {c['cpu_total_s']} CPU-s in {c['wall_s']} s)"


lines = [
    f"Measured {s['when']} on {s['machine']}, {s['cluster']}; {s['replicas']} Hangar replicas, "
    f"{s['concurrency']} creates in flight, creates alternating between the replicas.",
    "",
    "| sandboxes | creates/s | create p50 / p99 ms | all RUNNING after (s) | Get rps (p99 ms) | List by tag p50 / p99 ms | RSS MiB (max of 2) | reaper lag max / p50 ms |",
    "|---|---|---|---|---|---|---|---|",
]
for r in rows:
    lines.append(
        f"| {r['sandboxes']:,} | {r['create_per_s']} | {r['create_p50_ms']} / {r['create_p99_ms']} | {r['all_running_ms'] / 1000:.1f}{never(r)} "
        f"| {r['get_rps']} ({r['get_p99_ms']}){get_failed(r)} | {r['list_p50_ms']} / {r['list_p99_ms']} | {r['rss_mib']} | {r['reaper_lag_ms']} / {r['reaper_lag_p50_ms']} |"
    )
lines.append("| goal at 10k | " + " | ".join([GOALS["create_per_s"], "", "", GOALS["get_rps"], f"p99 {GOALS['list_p99_ms']}", GOALS["rss_mib"], GOALS["reaper_lag_ms"]]) + " |")
if raw:
    lines += [
        "",
        f"Raw Kubernetes, same bed and run: {raw['pods']:,} bare pods at the same concurrency, {raw['create_per_s']} creates/s "
        f"(p50 {raw['create_p50_ms']} ms, p99 {raw['create_p99_ms']} ms), all Running after {raw['all_running_ms'] / 1000:.1f} s.",
    ]
lines += ["", "| phase | CPU by process (CPU-s) |", "|---|---|"]
if raw:
    lines.append(f"| raw: {raw['pods']:,} pods created → Running | {cpu(raw['create_to_running_cpu'])} |")
for r in rows:
    lines.append(f"| Hangar: to {r['sandboxes']:,} sandboxes, created → RUNNING | {cpu(r['create_to_running_cpu'])} |")
lines += ["", "| sandboxes | apiserver pod requests per create (all clients) | idle apiserver pod requests/s, by verb |", "|---|---|---|"]
for r in rows:
    by = r.get("apiserver_pod_requests_per_s_idle_by_verb", {})
    lines.append(f"| {r['sandboxes']:,} | {r['apiserver_pod_requests_per_create']} | {r['apiserver_pod_requests_per_s_idle']} ({', '.join(f'{k} {v}' for k, v in by.items()) or 'none'}) |")
if any(r.get("memory_per_replica") for r in rows):
    lines += ["", "| sandboxes | RSS MiB per replica: at the end / mean (1 s samples) / peak | V8 heap committed / used MiB, per replica | external MiB per replica | malloc_trim calls (s), MiB handed back |", "|---|---|---|---|---|"]
    for r in rows:
        m = [x or {} for x in r.get("memory_per_replica") or []]
        if not m:
            continue
        two = lambda k: " / ".join(str(x.get(k, "?")) for x in m)  # noqa: E731
        heap = "; ".join(f"{x.get('heap_total_mib', '?')} / {x.get('heap_used_mib', '?')}" for x in m)
        trims = " / ".join(f"{x.get('trims', 0)} ({x.get('trim_seconds', 0)} s)" for x in m)
        lines.append(
            f"| {r['sandboxes']:,} | {r['rss_mib_per_replica']} / {r.get('rss_mean_mib_per_replica', '?')} / {r.get('rss_peak_mib_per_replica', '?')} "
            f"| {heap} | {two('external_mib')} | {trims}, {two('trim_released_mib')} |"
        )
if any(r.get("list_process_per_replica") for r in rows):
    lines += ["", "Where a List by tag waits (200 sequential Lists, both replicas; the handler's time from Hangar's request histogram, as bucket bounds; "
              "the event loop's delay and GC time over the same seconds, from each replica's /metrics):", "",
              "| sandboxes | List p50 / p99 / max ms (client) | handler p50 / p99 ≤ ms, per replica | event-loop delay p50 / p99 / max ms, per replica | GC ms by kind, per replica |", "|---|---|---|---|---|"]
    for r in rows:
        p = [x or {} for x in r.get("list_process_per_replica") or []]
        if not p:
            continue
        handler = "; ".join(f"{x.get('list_handler_p50_le_ms')} / {x.get('list_handler_p99_le_ms')}" for x in p)
        loop = "; ".join(f"{x.get('eventloop_delay_p50_ms')} / {x.get('eventloop_delay_p99_ms')} / {x.get('eventloop_delay_max_ms')}" for x in p)
        gc = "; ".join(", ".join(f"{k} {v}" for k, v in (x.get("gc_ms") or {}).items() if v) or "none" for x in p)
        lines.append(f"| {r['sandboxes']:,} | {r['list_p50_ms']} / {r['list_p99_ms']} / {r.get('list_max_ms', '?')} | {handler} | {loop} | {gc} |")
if "restart" in s:
    x = s["restart"]
    lines += ["", f"A replica killed (SIGKILL) at {x['sandboxes']:,} sandboxes and started again: listening after {x['listening_ms']} ms, "
              f"serving Get and List of every sandbox after {x['serving_ms']} ms (goal ≤ 10,000), RSS {x['rss_mib_after']} MiB."]
if "watch_expiry" in s:
    w = s["watch_expiry"]
    lines += ["", f"The apiserver killed (SIGKILL) and restarted at {w['sandboxes']:,} sandboxes: ready again after {w['apiserver_ready_ms']} ms; "
              f"both replicas' pod watches had expired (410 Gone) and listed every pod again after {w['relisted_ms']} ms "
              f"(hangar_kube_pod_watch_relists {w['relists_per_replica']}); a new sandbox through each replica RUNNING after {w['new_sandbox_running_ms']} ms; "
              f"RSS after {w['rss_mib_after']} MiB; CPU in that time: {cpu(w['cpu'])}."]
if "pool" in s:
    p = s["pool"]
    fill = f"{p['fill_ms'] / 1000:.1f} s" if p["fill_ms"] is not None else f"not within 900 s ({p['fill_ready']} ready)"
    refill = f"{p['refill_ms'] / 1000:.1f} s" if p["refill_ms"] is not None else f"not within 900 s ({p['refill_ready']} ready)"
    lines += ["", f"A warm pool at {p['sandboxes']:,} sandboxes (both replicas restarted with `HANGAR_KUBE_WARM_POOLS=python:3.11={p['pool_size']}@kwok`): "
              f"{p['pool_size']} idle pods ready after {fill} (CPU: {cpu(p['fill_cpu'])}); "
              f"{p['claims']} creates of the pool's sandbox at {s['concurrency']} in flight: {p['claim_per_s']} claims/s, p50 {p['claim_p50_ms']} ms, p99 {p['claim_p99_ms']} ms, "
              f"{p['claims_warm']} of {p['claims']} served by a pool pod, all RUNNING after {p['claims_all_running_ms'] / 1000:.1f} s (CPU: {cpu(p['claim_cpu'])}); "
              f"the pool full again {refill} later (CPU: {cpu(p['refill_cpu'])})."]
lines += ["", "![Hangar at scale](bench-scale.png)"]

doc = Path("docs/benchmarks.md").read_text()
doc = re.sub(r"<!-- scale:start -->[\s\S]*<!-- scale:end -->", "<!-- scale:start -->\n" + "\n".join(lines) + "\n<!-- scale:end -->", doc)
Path("docs/benchmarks.md").write_text(doc)

n = [r["sandboxes"] for r in rows]
fig, axes = plt.subplots(1, 4, figsize=(16, 3.8))
for ax, key, title, goal in [
    (axes[0], "create_per_s", "creates/s", 300),
    (axes[1], "get_rps", "Get rps", 5000),
    (axes[2], "list_p99_ms", "List by tag p99 (ms)", 20),
    (axes[3], "rss_mib", "RSS (MiB, max of 2 replicas)", 500),
]:
    ax.plot(n, [r[key] for r in rows], "o-", label="Hangar")
    ax.axhline(goal, color="grey", linestyle="--", label="goal")
    if key == "create_per_s" and raw:
        ax.axhline(raw["create_per_s"], color="tab:orange", linestyle=":", label="raw pods")
    ax.set_xlabel("sandboxes")
    ax.set_title(title)
    ax.legend(fontsize=8)
fig.suptitle(f"Hangar at scale ({s['machine']}, kwok fake nodes, {s['when'][:10]})")
fig.tight_layout()
fig.savefig("docs/bench-scale.png", dpi=100)
print("\n".join(lines))
