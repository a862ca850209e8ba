"""The web console (ADR 0039) in a real browser: Debian's Chromium, headless, driven by Playwright,
against a real Hangar on the local runtime with sandboxes made by the real SDK.

Signs in, finds a sandbox by tag, watches its log grow, runs a command in the terminal, is refused
another tenant's sandbox, sees an XSS payload in a tag as text; and attacks the session: a forged
key, a cookie replayed after sign-out, a change without the CSRF token or from another origin, an
operator's read-only view. Screenshots go to HANGAR_CONSOLE_SCREENSHOTS (docs/console/ holds the
ones the docs show) or a temporary directory.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from conftest import start_hangar, stop_hangar

pytestmark = [pytest.mark.own_hangar, pytest.mark.local_only]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
XSS_TAG = '<img src=x onerror="window.__xss=1">'
LOOP = "i=0; while true; do echo \"line-$i <b>bold</b>\"; i=$((i+1)); sleep 0.3; done"


def console_port(h) -> int:
    deadline = time.time() + 10
    while time.time() < deadline:
        for line in h.log().splitlines():
            if '"msg":"console listening"' in line:
                return json.loads(line)["console_port"]
        time.sleep(0.05)
    raise AssertionError("the console did not start:\n" + h.log()[-3000:])


def http(base: str, path: str, method: str = "GET", body: dict | None = None, headers: dict | None = None):
    """One raw request (no browser): the status and the parsed body."""
    req = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"{}"), r.headers
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}"), e.headers


@pytest.fixture(scope="module")
def console():
    h = start_hangar({"HANGAR_CONSOLE_LISTEN": "127.0.0.1:0", "HANGAR_CONSOLE_OPERATORS": "beta"})
    try:
        yield h, f"http://127.0.0.1:{console_port(h)}"
    finally:
        assert stop_hangar(h) == 0, h.log()[-3000:]


def bearer(key: str):
    from cwsandbox import AuthHeaders
    return AuthHeaders(headers={"Authorization": f"Bearer {key}"}, strategy="api_key")


@pytest.fixture(scope="module")
def sandboxes(console):
    """Alpha's sandbox prints a line every 0.3 s and carries an XSS payload as a tag; beta's sleeps."""
    from cwsandbox import Sandbox
    h, _ = console
    alpha, beta = bearer(h.keys["alpha"]), bearer(h.keys["beta"])
    os.environ["CWSANDBOX_BASE_URL"] = h.url
    mine = Sandbox.run("sh", "-c", LOOP, tags=["console-e2e", XSS_TAG], max_lifetime_seconds=300, auth=alpha)
    other = Sandbox.run("sleep", "300", tags=["console-e2e-beta"], max_lifetime_seconds=300, auth=beta)
    mine.wait()
    other.wait()
    yield mine, other
    for sb in (mine, other):
        sb.stop(missing_ok=True).result()


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    assert os.path.exists(CHROMIUM), "Debian's chromium is not installed (make test-e2e installs it)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def shots() -> Path:
    d = Path(os.environ.get("HANGAR_CONSOLE_SCREENSHOTS") or tempfile.mkdtemp(prefix="hangar-console-"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def wait_until(page, js: str, arg=None, timeout_s: float = 20):
    """Polls a page expression until truthy (page.wait_for_function evaluates strings in the page, which its CSP forbids)."""
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if page.evaluate(js, arg):
            return
        time.sleep(0.1)
    raise AssertionError(f"not true within {timeout_s} s: {js}")


def sign_in(browser, base: str, key: str):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.goto(base + "/")
    page.fill("#token", key)
    page.click("#login button[type=submit]")
    page.wait_for_selector("#whoami")
    page.errors.clear()  # the 401 of the signed-out page's first look at /api/me is expected
    return ctx, page


def test_a_tenant_signs_in_finds_its_sandbox_by_tag_and_sees_the_xss_tag_as_text(console, sandboxes, browser, shots):
    h, base = console
    mine, other = sandboxes
    # Every answer carries a Content-Security-Policy whose scripts come from the console itself only.
    with urllib.request.urlopen(base + "/") as r:
        csp = r.headers["Content-Security-Policy"]
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src")).split()[1:]
    assert script_src == ["'self'"], csp
    ctx, page = sign_in(browser, base, h.keys["alpha"])
    assert page.inner_text("#whoami") == "tenant alpha"
    # The session cookie is HttpOnly and SameSite=Strict: the page's script cannot read it.
    cookie = next(c for c in ctx.cookies() if c["name"] == "hangar_console")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert "hangar_console" not in page.evaluate("document.cookie")
    page.fill("#filter-tag", "console-e2e")
    page.wait_for_selector(f'#sandbox-table tr[data-id="{mine.sandbox_id}"]')
    ids = page.eval_on_selector_all("#sandbox-table tbody tr[data-id]", "rows => rows.map(r => r.dataset.id)")
    assert ids == [mine.sandbox_id], ids  # beta's sandbox (another tag, another tenant) is not listed
    # The payload is shown as the tag's text: no element was made of it and its handler never ran.
    row = page.locator(f'#sandbox-table tr[data-id="{mine.sandbox_id}"]')
    assert XSS_TAG in row.locator(".tag").all_inner_texts()
    assert row.locator("img").count() == 0
    assert page.evaluate("window.__xss") is None
    page.screenshot(path=str(shots / "console-sandboxes.png"))
    assert page.errors == [], page.errors
    ctx.close()


def test_the_log_grows_live_and_the_terminal_runs_a_command(console, sandboxes, browser, shots):
    h, base = console
    mine, _ = sandboxes
    ctx, page = sign_in(browser, base, h.keys["alpha"])
    page.goto(f"{base}/#/s/{mine.sandbox_id}")
    page.wait_for_selector("#history")
    assert mine.sandbox_id in page.inner_text("#detail")
    wait_until(page, "document.querySelector('#logs').textContent.includes('line-')")
    first = max(int(n) for n in re.findall(r"line-(\d+)", page.inner_text("#logs")))
    wait_until(page, f"(() => {{ const m = [...document.querySelector('#logs').textContent.matchAll(/line-(\\d+)/g)]; return m.length && Math.max(...m.map(x => +x[1])) >= {first + 3}; }})()")
    # The log's markup is text: <b> was printed, not rendered.
    assert "<b>bold</b>" in page.inner_text("#logs") and page.locator("#logs b").count() == 0
    page.click("#open-terminal")
    wait_until(page, "document.querySelector('#terminal-note').textContent === 'terminal connected'")
    page.click("#terminal")
    page.keyboard.type("echo hangar-$((6*7)) $(id -u)\n")
    wait_until(page, "document.querySelector('#terminal .xterm-rows').textContent.includes('hangar-42 0')")
    page.screenshot(path=str(shots / "console-sandbox.png"), full_page=True)
    page.keyboard.type("exit\n")
    wait_until(page, "document.querySelector('#terminal-note').textContent.startsWith('the shell exited')")
    assert page.errors == [], page.errors
    ctx.close()


def test_another_tenants_sandbox_is_refused(console, sandboxes, browser):
    h, base = console
    mine, other = sandboxes
    ctx, page = sign_in(browser, base, h.keys["alpha"])
    page.goto(f"{base}/#/s/{other.sandbox_id}")
    wait_until(page, "document.querySelector('#detail-error').textContent.length > 0")
    assert "not found" in page.inner_text("#detail-error").lower()
    assert page.inner_text("#detail") == ""
    # Its log, its terminal and its stop are refused the same way, and a listing of beta's is refused.
    for path in (f"/api/sandboxes/{other.sandbox_id}", f"/api/sandboxes/{other.sandbox_id}/logs", "/api/sandboxes?tenant=beta"):
        status = page.evaluate("p => fetch(p).then(r => r.status)", path)
        assert status in (403, 404), (path, status)
    csrf = page.evaluate("fetch('/api/me').then(r => r.json()).then(m => m.csrf)")
    status = page.evaluate("([p, t]) => fetch(p, {method: 'POST', headers: {'x-csrf-token': t}}).then(r => r.status)", [f"/api/sandboxes/{other.sandbox_id}/stop", csrf])
    assert status == 404
    closed = page.evaluate("""([id, t]) => new Promise(res => { const ws = new WebSocket(`ws://${location.host}/api/sandboxes/${id}/terminal?csrf=${t}`);
        ws.onopen = () => res('opened'); ws.onerror = () => res('refused'); })""", [other.sandbox_id, csrf])
    assert closed == "refused"
    assert other.status == "running" or other.exec(["true"]).result().returncode == 0
    ctx.close()


def test_the_session_holds_against_forged_keys_replayed_cookies_and_csrf(console, sandboxes, browser):
    h, base = console
    mine, _ = sandboxes
    origin = {"Origin": base}
    # A forged key is refused at sign-in, with the reason on the page.
    ctx = browser.new_context()
    page = ctx.new_page()
    page.goto(base + "/")
    page.fill("#token", h.keys["alpha"] + "x")
    page.click("#login button[type=submit]")
    wait_until(page, "document.querySelector('#login-error').textContent.length > 0")
    assert "invalid API key" in page.inner_text("#login-error")
    ctx.close()
    # Sign in from another origin: refused.
    status, body, _ = http(base, "/api/login", "POST", {"token": h.keys["alpha"]}, {"Origin": "http://evil.example"})
    assert status == 403, body
    status, me, headers = http(base, "/api/login", "POST", {"token": h.keys["alpha"]}, origin)
    assert status == 200
    cookie = headers["Set-Cookie"].split(";")[0]
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    with_cookie = {"Cookie": cookie, **origin}
    stop_path = f"/api/sandboxes/{mine.sandbox_id}/stop"
    # A change without the CSRF token, with a wrong one, or from another origin: refused, the sandbox runs on.
    assert http(base, stop_path, "POST", {}, with_cookie)[0] == 403
    # A wrong token: the last character changed (to "B" when it was "A": one time in 64 it was, and that "wrong" token was right).
    wrong = me["csrf"][:-1] + ("B" if me["csrf"].endswith("A") else "A")
    assert wrong != me["csrf"]
    assert http(base, stop_path, "POST", {}, {**with_cookie, "x-csrf-token": wrong})[0] == 403
    assert http(base, stop_path, "POST", {}, {"Cookie": cookie, "Origin": "http://evil.example", "x-csrf-token": me["csrf"]})[0] == 403
    assert http(base, f"/api/sandboxes/{mine.sandbox_id}", headers={"Cookie": cookie})[1]["state"] == "RUNNING"
    # Signed out, the same cookie names nothing.
    assert http(base, "/api/me", headers={"Cookie": cookie})[0] == 200
    assert http(base, "/api/logout", "POST", {}, {**with_cookie, "x-csrf-token": me["csrf"]})[0] == 200
    assert http(base, "/api/me", headers={"Cookie": cookie})[0] == 401
    assert http(base, "/api/sandboxes", headers={"Cookie": cookie})[0] == 401
    # No session at all: nothing but the page itself.
    assert http(base, "/api/sandboxes")[0] == 401
    assert http(base, "/api/fleet")[0] == 401


def test_an_operator_reads_every_tenant_but_acts_on_none_of_theirs(console, sandboxes, browser, shots):
    h, base = console
    mine, other = sandboxes
    ctx, page = sign_in(browser, base, h.keys["beta"])
    assert page.inner_text("#whoami") == "tenant beta (operator)"
    page.fill("#filter-tenant", "alpha")
    page.wait_for_selector(f'#sandbox-table tr[data-id="{mine.sandbox_id}"]')
    page.goto(f"{base}/#/s/{mine.sandbox_id}")
    page.wait_for_selector("#history")
    assert page.is_disabled("#open-terminal") and page.is_disabled("#stop")
    csrf = page.evaluate("fetch('/api/me').then(r => r.json()).then(m => m.csrf)")
    status = page.evaluate("([p, t]) => fetch(p, {method: 'POST', headers: {'x-csrf-token': t}}).then(r => r.status)", [f"/api/sandboxes/{mine.sandbox_id}/stop", csrf])
    assert status == 403
    page.errors.clear()  # that refusal, asked for on purpose
    page.goto(f"{base}/#/fleet")
    page.wait_for_selector("#tenant-table")
    tenants = page.eval_on_selector_all("#tenant-table tbody tr td:first-child", "tds => tds.map(t => t.textContent)")
    assert {"alpha", "beta"} <= set(tenants), tenants
    page.wait_for_selector("#plot canvas")
    assert "no warm pools" in page.inner_text("#pools")
    page.screenshot(path=str(shots / "console-fleet.png"), full_page=True)
    assert page.errors == [], page.errors
    ctx.close()
    # A tenant's fleet view shows its own use only.
    ctx, page = sign_in(browser, base, h.keys["alpha"])
    page.goto(f"{base}/#/fleet")
    page.wait_for_selector("#tenant-table")
    tenants = page.eval_on_selector_all("#tenant-table tbody tr td:first-child", "tds => tds.map(t => t.textContent)")
    assert tenants == ["alpha"], tenants
    ctx.close()
