// One sandbox: spec, status history, containers and events (refreshed), its log followed live, a terminal.
import { FitAddon } from "/vendor/addon-fit.mjs";
import { Terminal } from "/vendor/xterm.mjs";
import { call, el, pullBar, state, stateBadge, table, when } from "./app-util.js";

const kv = (pairs) =>
  el(
    "dl",
    { class: "kv" },
    pairs.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v === null || v === undefined || v === "" ? "—" : String(v))]),
  );

function info(s) {
  const sp = s.spec;
  return [
    el("h1", {}, s.name || s.id, " ", stateBadge(s.state)),
    el("p", { id: "detail-reason", class: "reason" }, s.reason),
    pullBar(s.pull),
    el(
      "div",
      { class: "tags", id: "detail-tags" },
      s.tags.map((t) => el("span", { class: "tag" }, t)),
    ),
    el("h2", {}, "Spec"),
    kv([
      ["id", s.id],
      ["tenant", s.tenant],
      ["image", s.image],
      ["command", sp.argv.join(" ")],
      ["environment", sp.envNames.join(", ")],
      ["secrets", sp.secrets.join(", ")],
      ["working dir", sp.workingDir],
      ["requests", JSON.stringify(sp.requests)],
      ["limits", JSON.stringify(sp.limits)],
      ["lifetime (s)", sp.lifetimeSeconds],
      ["runtime class", sp.runtimeClass],
      ["egress", sp.egress.join(", ") || "none"],
      ["volumes", sp.volumes.join(", ")],
      ["runner", s.runner],
      ["exit code", s.exitCode],
    ]),
    el("h2", {}, "Status history"),
    table(
      ["When", "State", "Note"],
      s.history.map((h) => el("tr", {}, el("td", {}, when(h.atMs)), el("td", {}, stateBadge(h.state)), el("td", {}, h.note))),
      "history",
    ),
    el("h2", {}, "Containers"),
    table(
      ["Name", "Image", "State", "Reason", "Restarts"],
      s.containers.map((c) =>
        el("tr", {}, el("td", {}, c.name), el("td", {}, c.image), el("td", {}, c.state), el("td", {}, c.reason), el("td", {}, c.restarts)),
      ),
      "containers",
    ),
    el("h2", {}, "Events"),
    table(
      ["When", "Type", "Reason", "Message"],
      s.events.map((e) => el("tr", {}, el("td", {}, when(e.atMs)), el("td", {}, e.type), el("td", {}, e.reason), el("td", {}, e.message))),
      "events",
    ),
  ];
}

function followLogs(id, pre, note) {
  const src = new EventSource(`/api/sandboxes/${encodeURIComponent(id)}/logs`);
  src.onmessage = (ev) => {
    const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
    pre.append(document.createTextNode(JSON.parse(ev.data)));
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  };
  src.addEventListener("end", () => {
    note.textContent = "the log ended";
    src.close();
  });
  src.addEventListener("failed", (ev) => {
    note.textContent = JSON.parse(ev.data);
    src.close();
  });
  return () => src.close();
}

function openTerminal(id, box, note) {
  box.replaceChildren();
  const term = new Terminal({ convertEol: false, fontSize: 13, cursorBlink: true });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(box);
  fit.fit();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const q = new URLSearchParams({ csrf: state.me.csrf, cols: String(term.cols), rows: String(term.rows) });
  const ws = new WebSocket(`${proto}//${location.host}/api/sandboxes/${encodeURIComponent(id)}/terminal?${q}`);
  ws.binaryType = "arraybuffer";
  const enc = new TextEncoder();
  ws.onopen = () => {
    note.textContent = "terminal connected";
    term.focus();
  };
  ws.onmessage = (ev) => {
    if (typeof ev.data !== "string") return term.write(new Uint8Array(ev.data));
    const m = JSON.parse(ev.data);
    note.textContent = m.error ? `terminal: ${m.error}` : `the shell exited (code ${m.exit})`;
  };
  ws.onclose = (ev) => {
    if (!note.textContent.startsWith("the shell") && !note.textContent.startsWith("terminal:"))
      note.textContent = `terminal closed${ev.code === 1006 ? " (refused or lost)" : ""}`;
  };
  term.onData((d) => ws.readyState === WebSocket.OPEN && ws.send(enc.encode(d)));
  term.onResize(({ cols, rows }) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ resize: [cols, rows] })));
  return () => {
    ws.close();
    term.dispose();
  };
}

export function showDetail(main, id) {
  const infoBox = el("section", { id: "detail" });
  const error = el("p", { id: "detail-error", class: "error" });
  const pre = el("pre", { id: "logs", class: "logs" });
  const logNote = el("p", { id: "log-note", class: "muted" });
  const termBox = el("div", { id: "terminal", class: "terminal" });
  const termNote = el("p", { id: "terminal-note", class: "muted" });
  const stops = [];
  const termButton = el("button", { id: "open-terminal", onclick: () => stops.push(openTerminal(id, termBox, termNote)) }, "Open terminal");
  const stopButton = el("button", { id: "stop", class: "danger", onclick: stop }, "Stop sandbox");
  main.append(
    el("p", {}, el("a", { href: "#/" }, "← all sandboxes")),
    error,
    infoBox,
    el("div", { class: "actions" }, stopButton, termButton),
    el("h2", {}, "Terminal"),
    termNote,
    termBox,
    el("h2", {}, "Log"),
    logNote,
    pre,
  );
  async function stop() {
    try {
      await call(`/api/sandboxes/${encodeURIComponent(id)}/stop`, { method: "POST" });
      refresh();
    } catch (e) {
      error.textContent = e.message;
    }
  }
  let started = false;
  async function refresh() {
    try {
      const s = await call(`/api/sandboxes/${encodeURIComponent(id)}`);
      infoBox.replaceChildren(...info(s));
      const mayWrite = s.tenant === state.me.tenant || state.me.operatorWrite;
      stopButton.disabled = !mayWrite || ["COMPLETED", "FAILED"].includes(s.state);
      termButton.disabled = !mayWrite || s.state !== "RUNNING";
      if (!started) {
        started = true;
        stops.push(followLogs(id, pre, logNote));
      }
    } catch (e) {
      error.textContent = e.message;
      infoBox.replaceChildren();
    }
  }
  refresh();
  const timer = setInterval(refresh, 3000);
  return () => {
    clearInterval(timer);
    for (const s of stops) s();
  };
}
