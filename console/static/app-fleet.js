// Pools, runners, and each tenant's use against its limits; plots of the last hour of Hangar's own figures.
import uPlot from "/vendor/uplot.mjs";
import { call, el, table } from "./app-util.js";

const LABELS = {
  live: "live sandboxes",
  running: "running",
  starting: "starting",
  pool_idle: "idle pool pods",
  exec_streams: "commands running",
};
const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626"];
const of = (used, limit) => (limit > 0 ? `${used} / ${limit}` : `${used} (no limit)`);

function plot(box, h) {
  box.replaceChildren();
  const names = Object.keys(h.series);
  if (!h.t.length) return box.append(el("p", { class: "muted" }, "no samples yet"));
  const opts = {
    width: Math.max(320, box.clientWidth || 800),
    height: 240,
    series: [{}, ...names.map((n, i) => ({ label: LABELS[n] ?? n, stroke: COLORS[i % COLORS.length], width: 2 }))],
    axes: [{}, { label: "count" }],
  };
  return new uPlot(opts, [h.t, ...names.map((n) => h.series[n])], box);
}

export function showFleet(main) {
  const error = el("p", { id: "fleet-error", class: "error" });
  const pools = el("div", { id: "pools" });
  const runners = el("div", { id: "runners" });
  const tenants = el("div", { id: "tenants" });
  const plotBox = el("div", { id: "plot", class: "plot" });
  main.append(
    el("h1", {}, "Pools and tenants"),
    error,
    el("h2", {}, "Tenants: use against limits"),
    tenants,
    el("h2", {}, "Warm pools"),
    pools,
    el("h2", {}, "Runners"),
    runners,
    el("h2", {}, "Last hour"),
    plotBox,
  );
  let chart;
  async function refresh() {
    try {
      const f = await call("/api/fleet");
      tenants.replaceChildren(
        table(
          ["Tenant", "Sandboxes", "Commands", "Held calls", "Creates/s"],
          f.tenants.map((t) =>
            el(
              "tr",
              {},
              el("td", {}, t.tenant),
              el("td", {}, of(t.sandboxes, t.limits.concurrent_sandboxes)),
              el("td", {}, of(t.exec_streams, t.limits.exec_streams)),
              el("td", {}, of(t.held_calls, t.limits.held_calls)),
              el("td", {}, t.limits.creates_per_second || "no limit"),
            ),
          ),
          "tenant-table",
        ),
      );
      pools.replaceChildren(
        f.pools.length
          ? table(
              ["Pool", "Target", "Idle", "Ready", "Claims hit", "Claims missed", "Hit rate"],
              f.pools.map((p) =>
                el(
                  "tr",
                  {},
                  el("td", {}, p.pool),
                  el("td", {}, p.size),
                  el("td", {}, p.idle),
                  el("td", {}, p.ready),
                  el("td", {}, p.hits),
                  el("td", {}, p.misses),
                  el("td", {}, p.hits + p.misses ? `${Math.round((100 * p.hits) / (p.hits + p.misses))} %` : "—"),
                ),
              ),
              "pool-table",
            )
          : el("p", { class: "muted" }, "no warm pools on this runtime"),
      );
      runners.replaceChildren(
        table(
          ["Runner", "Healthy", "Sandboxes", "CPU free (m)", "Memory free (MiB)", "GPUs free"],
          f.runners.map((r) =>
            el(
              "tr",
              {},
              el("td", {}, r.id),
              el("td", {}, r.healthy ? "yes" : "no"),
              el("td", {}, r.running),
              el("td", {}, r.cpuMillicores),
              el("td", {}, Math.round(r.memoryBytes / 1048576)),
              el("td", {}, r.gpus),
            ),
          ),
          "runner-table",
        ),
      );
      const h = await call("/api/history");
      chart?.destroy?.();
      chart = plot(plotBox, h);
      error.textContent = "";
    } catch (e) {
      error.textContent = e.message;
    }
  }
  refresh();
  const timer = setInterval(refresh, 15000);
  return () => {
    clearInterval(timer);
    chart?.destroy?.();
  };
}
