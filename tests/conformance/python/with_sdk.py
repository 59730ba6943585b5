#!/usr/bin/env python3
"""Runs a test command when the Python driver finds the official Python Agent SDK.

usage: with_sdk.py CMD [ARG...]
The driver looks for the SDK itself (`driver.py --sdk-info`: an importable claude_agent_sdk,
else $CLAUDE_HARNESS_PYTHON_SDK_PATH, else <source root>/../shared/peers/python-sdk/site).
Found: runs CMD and exits with its status. Not found: prints why and exits 77, which CTest
reports as skipped (SKIP_RETURN_CODE). Any other failure of the probe fails the test (1).
"""

import os
import subprocess
import sys
from pathlib import Path

SKIP = 77
DRIVER = Path(__file__).resolve().parents[3] / "drivers" / "python" / "driver.py"


def main() -> int:
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    probe = subprocess.run(
        [sys.executable, str(DRIVER), "--sdk-info"], capture_output=True, text=True
    )
    if probe.returncode == 2:
        print(f"SKIP: no Python Agent SDK: {probe.stderr.strip()}")
        return SKIP
    if probe.returncode != 0:
        sys.stderr.write(f"with_sdk.py: `driver.py --sdk-info` failed ({probe.returncode}):\n")
        sys.stderr.write(probe.stderr)
        return 1
    print(f"using {probe.stdout.strip()}", flush=True)
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
