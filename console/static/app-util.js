// Shared by the console's views: DOM building (text is always set as text, never as HTML) and calls.
export const state = { me: null };

/** An element with attributes and children; strings become text nodes, so nothing a tenant wrote is parsed as HTML. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** A JSON call; a change carries the session's CSRF token. Throws an Error with the server's message and status. */
export async function call(path, opts = {}) {
  const method = opts.method ?? "GET";
  const headers = { "Content-Type": "application/json" };
  if (method !== "GET" && state.me) headers["x-csrf-token"] = state.me.csrf;
  const res = await fetch(path, { method, headers, credentials: "same-origin", body: opts.body ? JSON.stringify(opts.body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) {
    const err = new Error(data.error ?? `HTTP ${res.status}`);
    err.status = res.status;
    throw err;
  }
  return data;
}

export const when = (ms) => (ms ? new Date(ms).toLocaleString() : "");

export function table(headers, rows, id) {
  return el(
    "table",
    { id },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        headers.map((h) => el("th", {}, h)),
      ),
    ),
    el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { colspan: headers.length, class: "empty" }, "none"))),
  );
}

/** The image pull of a PREPARING sandbox, as a bar (its reason says the same in words). */
export function pullBar(p) {
  if (!p) return null;
  const layers = p.layersTotal ? p.layersTotal : 1;
  const [value, max] = p.bytesTotal ? [p.bytesDone, p.bytesTotal] : [p.layersDone, layers];
  return el("progress", { class: "pull", value: p.phase === "unpacking" ? max : value, max, title: `${p.phase} ${p.image}` });
}

export function stateBadge(s) {
  return el("span", { class: `state state-${String(s).toLowerCase()}` }, s);
}
