// The console's entry: sign-in, the header, and the view the location's hash names.
import { call, el, state } from "./app-util.js";
import { showDetail } from "./app-detail.js";
import { showFleet } from "./app-fleet.js";
import { showList } from "./app-list.js";

const main = document.getElementById("main");
const top = document.getElementById("top");
let cleanup = () => {};

function header() {
  const who = state.me
    ? [
        el("span", { id: "whoami" }, `tenant ${state.me.tenant}${state.me.operator ? " (operator)" : ""}`),
        el("button", { id: "signout", onclick: signOut }, "Sign out"),
      ]
    : [];
  top.replaceChildren(
    el(
      "nav",
      {},
      el("strong", {}, "Hangar"),
      el("a", { href: "#/" }, "Sandboxes"),
      el("a", { href: "#/fleet" }, "Pools and tenants"),
      el("span", { class: "spacer" }),
      who,
    ),
  );
}

async function signOut() {
  await call("/api/logout", { method: "POST" }).catch(() => undefined);
  state.me = null;
  render();
}

function showLogin() {
  const input = el("input", { id: "token", type: "password", autocomplete: "off", placeholder: "API key or token" });
  const error = el("p", { id: "login-error", class: "error" });
  const form = el(
    "form",
    { id: "login" },
    el("h1", {}, "Sign in"),
    el("p", {}, "Use the API key or token your jobs use with Hangar."),
    input,
    el("button", { type: "submit" }, "Sign in"),
    error,
  );
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      state.me = await call("/api/login", { method: "POST", body: { token: input.value } });
      render();
    } catch (e) {
      error.textContent = e.message;
    }
  });
  main.append(form);
}

function render() {
  cleanup();
  cleanup = () => {};
  main.replaceChildren();
  header();
  if (!state.me) return showLogin();
  const h = location.hash;
  if (h.startsWith("#/s/")) cleanup = showDetail(main, decodeURIComponent(h.slice(4)));
  else if (h === "#/fleet") cleanup = showFleet(main);
  else cleanup = showList(main);
}

window.addEventListener("hashchange", render);
call("/api/me")
  .then((me) => (state.me = me))
  .catch(() => (state.me = null))
  .finally(render);
