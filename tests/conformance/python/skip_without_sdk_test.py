#!/usr/bin/env python3
"""Without the Python Agent SDK, the Python tests skip and `harness check --sdk python` refuses,
each saying what is missing and how to get it.

usage: skip_without_sdk_test.py HARNESS   (exit 0 pass, 1 fail, 77 skipped)
The SDK's absence is simulated by pointing $CLAUDE_HARNESS_PYTHON_SDK_PATH at an empty folder;
that cannot hide an SDK `python3` imports by itself (pip-installed, or on PYTHONPATH), so then
this test is skipped.
"""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER = HERE.parents[2] / "drivers" / "python" / "driver.py"
SKIP = 77


def main() -> int:
    harness = sys.argv[1]
    installed = subprocess.run(
        [sys.executable, "-c", "import claude_agent_sdk"], capture_output=True
    )
    if installed.returncode == 0:
        print("SKIP: claude_agent_sdk is importable as installed; its absence cannot be simulated")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory(prefix="no-python-sdk-") as empty:
        env = dict(os.environ, CLAUDE_HARNESS_PYTHON_SDK_PATH=empty)

        def run(argv):
            return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)

        def expect(what, result, code, stream, words):
            text = getattr(result, stream)
            if result.returncode != code:
                failures.append(f"{what}: exit {result.returncode}, expected {code}: {text}")
            for word in words:
                if word not in text:
                    failures.append(f"{what}: {stream} does not say {word!r}: {text}")

        reason = ["CLAUDE_HARNESS_PYTHON_SDK_PATH", empty, "pip install claude-agent-sdk"]
        expect("with_sdk.py", run([sys.executable, str(HERE / "with_sdk.py"), "true"]), SKIP,
               "stdout", ["SKIP: no Python Agent SDK"] + reason)
        expect("driver.py --sdk-info", run([sys.executable, str(DRIVER), "--sdk-info"]), 2,
               "stderr", reason)
        expect("harness check --sdk python", run([harness, "check", "--sdk", "python"]), 2,
               "stderr", ["harness check: --sdk python cannot run"] + reason)
    for failure in failures:
        print(f"FAIL {failure}")
    if not failures:
        print("PASS: the tests skip and harness check refuses, naming the variable and pip")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
