#!/usr/bin/env python3
"""Without the Ruby Agent SDK, the Ruby tests skip and `harness check --sdk ruby` refuses, each
saying what is missing and how to get it.

usage: skip_without_sdk_test.py HARNESS   (exit 0 pass, 1 fail, 77 skipped)
The SDK's absence is simulated by pointing $CLAUDE_HARNESS_RUBY_SDK_PATH at an empty folder; that
cannot hide a gem `ruby` loads by itself (gem install, Bundler, RUBYLIB), so then this test is
skipped, as it is without `ruby`.
"""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER = HERE.parents[2] / "drivers" / "ruby" / "driver.rb"
SKIP = 77


def main() -> int:
    harness = sys.argv[1]
    if shutil.which("ruby") is None:
        print("SKIP: no `ruby` on PATH (Debian: apt-get install ruby ruby-async)")
        return SKIP
    installed = subprocess.run(
        ["ruby", "-e", "require 'set'; require 'claude_agent_sdk'"], capture_output=True
    )
    if installed.returncode == 0:
        print("SKIP: claude_agent_sdk is loadable as installed; its absence cannot be simulated")
        return SKIP
    failures = []
    with tempfile.TemporaryDirectory(prefix="no-ruby-sdk-") as empty:
        env = dict(os.environ, CLAUDE_HARNESS_RUBY_SDK_PATH=empty)

        def run(argv):
            return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120)

        def expect(what, result, code, stream, words):
            text = getattr(result, stream)
            if result.returncode != code:
                failures.append(f"{what}: exit {result.returncode}, expected {code}: {text}")
            for word in words:
                if word not in text:
                    failures.append(f"{what}: {stream} does not say {word!r}: {text}")

        reason = ["CLAUDE_HARNESS_RUBY_SDK_PATH", empty, "gem install claude-agent-sdk"]
        expect("with_sdk.py", run([sys.executable, str(HERE / "with_sdk.py"), "true"]), SKIP,
               "stdout", ["SKIP: no Ruby Agent SDK"] + reason)
        expect("driver.rb --sdk-info", run(["ruby", str(DRIVER), "--sdk-info"]), 2, "stderr", reason)
        expect("harness check --sdk ruby", run([harness, "check", "--sdk", "ruby"]), 2,
               "stderr", ["harness check: --sdk ruby cannot run"] + reason)
    for failure in failures:
        print(f"FAIL {failure}")
    if not failures:
        print("PASS: the tests skip and harness check refuses, naming the variable and gem install")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
