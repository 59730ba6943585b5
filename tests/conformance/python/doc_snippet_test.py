#!/usr/bin/env python3
"""docs/sdk-python.md's example runs as printed: the official Python SDK against fake-claude.

usage: doc_snippet_test.py FAKE_CLAUDE   (run through with_sdk.py; exit 0 pass, 1 fail)
Takes the first ```python block of the page, runs it in a fresh folder holding the scenario it
names (scenarios/verbs/basic-turn.ndjson) with fake-claude on PATH, and checks what it printed
and fake-claude's verdict. The SDK is made importable the way the driver found it.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "sdk-python.md"
SCENARIO = ROOT / "scenarios" / "verbs" / "basic-turn.ndjson"
EXPECTED_OUTPUT = ["assistant: Hello from fake-claude", "result: success"]

sys.path.insert(0, str(ROOT / "drivers" / "python"))
from harness_driver import sdk_location  # noqa: E402


def snippet() -> str:
    found = re.search(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    if found is None:
        raise SystemExit(f"{PAGE}: no ```python block")
    return found.group(1)


def main() -> int:
    fake_claude = Path(sys.argv[1]).resolve()
    sdk = sdk_location.import_sdk()
    env = dict(os.environ, PATH=f"{fake_claude.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    sdk_parent = str(Path(sdk.__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (sdk_parent, env.get("PYTHONPATH")) if p)
    for name in ("FAKE_CLAUDE_SCENARIO", "FAKE_CLAUDE_REPORT"):
        env.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="sdk-python-doc-") as work:
        shutil.copy(SCENARIO, work)
        Path(work, "example.py").write_text(snippet(), encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "example.py"], cwd=work, env=env, capture_output=True, text=True,
            timeout=60,
        )
        printed = run.stdout.splitlines()
        report_path = Path(work, "report.json")
        report = json.loads(report_path.read_text()) if report_path.exists() else None
    failures = []
    if run.returncode != 0:
        failures.append(f"the example exited {run.returncode}")
    if printed != EXPECTED_OUTPUT:
        failures.append(f"it printed {printed!r}, expected {EXPECTED_OUTPUT!r}")
    if report is None or report.get("verdict") != "pass":
        failures.append(f"fake-claude's verdict: {report and report.get('verdict')!r} ({report})")
    if failures:
        print(f"FAIL {PAGE.name}'s example:\n  " + "\n  ".join(failures))
        print("--- its stderr ---\n" + run.stderr)
        return 1
    print(f"PASS {PAGE.name}'s example printed {printed} and fake-claude passed it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
