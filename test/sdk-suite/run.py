"""The SDK's own integration suite (tests/integration of the pinned cwsandbox sdist from PyPI),
run unmodified against a Hangar started here: `make test-sdk-suite` (local runtime) or with
HANGAR_E2E_RUNTIME=kubernetes and the test cluster up. Writes the pass/skip/fail counts, and
each failure with its message, to .build/sdk-suite/<runtime>.json; docs/sdk-suite.md reports them.
"""
import json
import os
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "test/e2e"))
from conftest import RUNTIME, start_hangar, stop_hangar  # noqa: E402

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


def main() -> int:
    root = sdist()
    # The suite's own pytest settings need plugins it lists for development (dotenv); only asyncio is needed here.
    ini = WORK / "pytest.ini"
    ini.write_text("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\ntimeout = 180\n")
    report = WORK / f"{RUNTIME}.xml"
    h = start_hangar()
    env = {**os.environ, "CWSANDBOX_BASE_URL": h.url, "CWSANDBOX_API_KEY": h.keys["alpha"], "PYTHONPATH": str(root)}
    try:
        subprocess.run([str(PY), "-m", "pytest", "-v", "-rs", "-c", str(ini), "--rootdir", str(root), "-p", "no:cacheprovider",
                        f"--junitxml={report}", *sys.argv[1:], "tests/integration"], cwd=root, env=env, timeout=3000)
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
    (WORK / f"{RUNTIME}.json").write_text(json.dumps({"sdk": VERSION, "runtime": RUNTIME, "counts": counts, "cases": cases}, indent=1))
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
