"""The SDK's own integration suite (tests/integration of the pinned cwsandbox sdist from PyPI),
run unmodified against a Hangar started here: `make test-sdk-suite` (local runtime) or with
HANGAR_E2E_RUNTIME=kubernetes and the test cluster up. Writes the pass/skip/fail counts, and
each failure with its message, to .build/sdk-suite/<runtime>.json; docs/sdk-suite.md reports them.
Tests listed in known-failures.txt (each with why) are deselected; any other failure fails the run.
Extra arguments go to pytest (e.g. --run-known to run the listed ones too).
"""
import json
import re
import os
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test/e2e"))
from conftest import GATEWAY_CA, RUNTIME, https_endpoints_env, start_hangar, stop_hangar  # noqa: E402

VERSION = (REPO / "test/fixtures/SDK_VERSION").read_text().strip()
WORK = REPO / ".build/sdk-suite"
PY = REPO / ".venv/bin/python"


def sdist() -> Path:
    root = WORK / f"cwsandbox-{VERSION}"
    if (root / "tests/integration").is_dir():
        return root
    WORK.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(PY), "-m", "pip", "download", "-q", "--disable-pip-version-check", f"cwsandbox=={VERSION}", "--no-binary", ":all:", "--no-deps", "-d", str(WORK)], check=True)
    with tarfile.open(WORK / f"cwsandbox-{VERSION}.tar.gz") as t:
        t.extractall(WORK, filter="data")
    return root


def known_failures() -> dict[str, str]:
    out = {}
    for line in (REPO / "test/sdk-suite/known-failures.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            test, why = (x.strip() for x in line.split("|", 1))
            # "[local] tests/..." lists a test that fails on that runtime only.
            only = re.match(r"\[(\w+)\]\s*(.*)", test)
            if only and only.group(1) != RUNTIME:
                continue
            out[only.group(2) if only else test] = why
    return out


def main() -> int:
    root = sdist()
    args = sys.argv[1:]
    known = known_failures()
    deselect = [] if "--run-known" in args else [f"--deselect={t}" for t in known]
    args = [a for a in args if a != "--run-known"]
    # The suite's own pytest settings need plugins it lists for development (dotenv); only asyncio is needed here.
    ini = WORK / "pytest.ini"
    ini.write_text("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\ntimeout = 180\n")
    report = WORK / f"{RUNTIME}.xml"
    # On Kubernetes PUBLIC ports are HTTPS endpoints on the test cluster's HTTPS listener, with share
    # tokens (the SDK's share-token test runs): its clients trust the cluster's CA (SSL_CERT_FILE, which
    # httpx and Python's ssl read) and resolve *.localhost to loopback (the localhost_names plugin).
    h = start_hangar(https_endpoints_env() if RUNTIME == "kubernetes" else None)
    # test/sdk-suite on the path for the localhost_names plugin (the TLS passthrough test resolves *.localhost).
    env = {**os.environ, "CWSANDBOX_BASE_URL": h.url, "CWSANDBOX_API_KEY": h.keys["alpha"], "PYTHONPATH": os.pathsep.join([str(root), str(REPO / "test/sdk-suite")]),
           **({"SSL_CERT_FILE": str(GATEWAY_CA)} if RUNTIME == "kubernetes" else {})}
    try:
        subprocess.run([str(PY), "-m", "pytest", "-v", "-rs", "-c", str(ini), "--rootdir", str(root), "-p", "no:cacheprovider", "-p", "localhost_names",
                        f"--junitxml={report}", *deselect, *args, "tests/integration"], cwd=root, env=env, timeout=3000)
    finally:
        stop_hangar(h)
    cases = []
    for tc in ET.parse(report).getroot().iter("testcase"):
        outcome, msg = "passed", ""
        for kind in ("failure", "error", "skipped"):
            el = tc.find(kind)
            if el is not None:
                outcome, msg = ("skipped" if kind == "skipped" else "failed"), (el.get("message") or "")[:300]
        cases.append({"test": f"{tc.get('classname')}.{tc.get('name')}", "outcome": outcome, "message": msg})
    counts = {k: sum(c["outcome"] == k for c in cases) for k in ("passed", "skipped", "failed")}
    counts["known_failures_deselected"] = len(deselect)
    (WORK / f"{RUNTIME}.json").write_text(json.dumps({"sdk": VERSION, "runtime": RUNTIME, "counts": counts, "cases": cases, "known_failures": known}, indent=1))
    print(json.dumps(counts))
    failed = [f'{c["test"]}: {c["message"]}' for c in cases if c["outcome"] == "failed"]
    if failed:
        # With the message: CI shows only the tail of a run, where a traceback's last line may not be.
        print("failed (not in known-failures.txt):\n  " + "\n  ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
