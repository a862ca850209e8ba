// Sandboxes: filters by tag, state and (operators) tenant, refreshed every 2 seconds.
import { call, el, pullBar, state, stateBadge, table, when } from "./app-util.js";

const filters = { tags: "", state: "", tenant: "", ended: true };
const STATES = ["", "PENDING", "CREATING", "PREPARING", "RUNNING", "COMPLETED", "FAILED", "TERMINATED"];

function query() {
  const q = new URLSearchParams();
  for (const t of filters.tags.split(/[\s,]+/).filter(Boolean)) q.append("tag", t);
  if (filters.state) q.set("state", filters.state);
  if (filters.tenant) q.set("tenant", filters.tenant);
  if (!filters.ended) q.set("ended", "0");
  return q.toString();
}

function row(s) {
  return el(
    "tr",
    { "data-id": s.id },
    el("td", {}, el("a", { href: `#/s/${encodeURIComponent(s.id)}`, class: "sandbox-link" }, s.name || s.id)),
    el("td", {}, s.tenant),
    el("td", {}, stateBadge(s.state), pullBar(s.pull), el("div", { class: "reason" }, s.reason)),
    el(
      "td",
      { class: "tags" },
      s.tags.map((t) => el("span", { class: "tag" }, t)),
    ),
    el("td", {}, s.image),
    el("td", {}, when(s.createdAtMs)),
  );
}

export function showList(main) {
  const input = (key, attrs) => {
    const i = el("input", { ...attrs, value: filters[key] });
    i.addEventListener("input", () => {
      filters[key] = i.value.trim();
      refresh();
    });
    return i;
  };
  const stateSel = el(
    "select",
    { id: "filter-state" },
    STATES.map((s) => el("option", { value: s, selected: s === filters.state }, s || "any state")),
  );
  stateSel.addEventListener("change", () => {
    filters.state = stateSel.value;
    refresh();
  });
  const ended = el("input", { id: "filter-ended", type: "checkbox", checked: filters.ended });
  ended.addEventListener("change", () => {
    filters.ended = ended.checked;
    refresh();
  });
  const bar = el(
    "form",
    { id: "filters", class: "filters" },
    el("label", {}, "Tags ", input("tags", { id: "filter-tag", placeholder: "tag, tag" })),
    el("label", {}, "State ", stateSel),
    state.me.operator ? el("label", {}, "Tenant ", input("tenant", { id: "filter-tenant", placeholder: "all tenants" })) : null,
    el("label", {}, ended, " show ended"),
  );
  bar.addEventListener("submit", (ev) => ev.preventDefault());
  const status = el("p", { id: "list-status", class: "muted" });
  const holder = el("div", { id: "sandboxes" });
  main.append(el("h1", {}, "Sandboxes"), bar, status, holder);
  let seq = 0;
  async function refresh() {
    const mine = ++seq;
    try {
      const data = await call(`/api/sandboxes?${query()}`);
      if (mine !== seq) return;
      holder.replaceChildren(table(["Sandbox", "Tenant", "State", "Tags", "Image", "Created"], data.items.map(row), "sandbox-table"));
      status.textContent = `${data.items.length}${data.more ? "+" : ""} sandboxes · updated ${new Date().toLocaleTimeString()}`;
      status.classList.remove("error");
    } catch (e) {
      if (mine !== seq) return;
      status.textContent = e.message;
      status.classList.add("error");
    }
  }
  refresh();
  const timer = setInterval(refresh, 2000);
  return () => clearInterval(timer);
}
