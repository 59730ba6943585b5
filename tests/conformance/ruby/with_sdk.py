#!/usr/bin/env python3
"""Runs a test command when the Ruby driver finds the Ruby Agent SDK.

usage: with_sdk.py CMD [ARG...]
The driver looks for the SDK itself (`ruby driver.rb --sdk-info`: a `claude_agent_sdk` that
`require` finds, else $CLAUDE_HARNESS_RUBY_SDK_PATH, else <source root>/../shared/peers/ruby-sdk/lib,
as docs/sdk-ruby.md says). Found: runs CMD and exits with its status. No `ruby`
on PATH or no SDK: prints why and exits 77, which CTest reports as skipped (SKIP_RETURN_CODE).
Any other failure of the probe fails the test (1).
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

SKIP = 77
DRIVER = Path(__file__).resolve().parents[3] / "drivers" / "ruby" / "driver.rb"


def main() -> int:
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    if shutil.which("ruby") is None:
        print("SKIP: no `ruby` on PATH (Debian: apt-get install ruby ruby-async, or scripts/bootstrap)")
        return SKIP
    probe = subprocess.run(["ruby", str(DRIVER), "--sdk-info"], capture_output=True, text=True)
    if probe.returncode == 2:
        print(f"SKIP: no Ruby Agent SDK: {probe.stderr.strip()}")
        return SKIP
    if probe.returncode != 0:
        sys.stderr.write(f"with_sdk.py: `ruby driver.rb --sdk-info` failed ({probe.returncode}):\n")
        sys.stderr.write(probe.stderr)
        return 1
    print(f"using {probe.stdout.strip()}", flush=True)
    os.execvp(sys.argv[1], sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
