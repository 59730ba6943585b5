#!/usr/bin/env python3
"""docs/sdk-ruby.md's example and its `harness replay` line for a vendored CLI run as printed.

usage: doc_snippet_test.py FAKE_CLAUDE   (run through with_sdk.py; exit 0 pass, 1 fail)
1. Takes the first ```ruby block of the page, runs it with `ruby example.rb` in a fresh folder
   holding the scenario it names (scenarios/verbs/basic-turn.ndjson) with fake-claude on PATH,
   and checks what it printed and both fake-claude verdicts (query() and Client).
2. Takes the page's ```sh line that sets CLAUDE_CLI_PATH and runs it in a folder holding a
   vendored `vendor/claude/claude` (which the gem would prefer to PATH) and an app that passes no
   cli_path: harness replay must pass and the vendored CLI must never start.
The SDK, the Ruby 3.1 prelude and (when the `mcp` gem is missing) its stand-in are put on the
load path through RUBYLIB/RUBYOPT, the way the driver finds them; harness sits beside fake-claude.
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
PAGE = ROOT / "docs" / "sdk-ruby.md"
SCENARIO = ROOT / "scenarios" / "verbs" / "basic-turn.ndjson"
DRIVER_LIB = ROOT / "drivers" / "ruby" / "lib" / "harness_driver"
EXPECTED_OUTPUT = ["assistant: Hello from fake-claude", "result: success"] * 2
APP = """require 'claude_agent_sdk'
ClaudeAgentSDK.query(prompt: 'hi') do |message|
  puts "result: #{message.subtype}" if message.is_a?(ClaudeAgentSDK::ResultMessage)
end
"""
VENDORED = "#!/bin/sh\ntouch \"$(dirname \"$0\")/started\"\nexit 1\n"


def blocks(language: str) -> list:
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)


def ruby_env(fake_claude: Path) -> dict:
    sdk = subprocess.run(["ruby", str(ROOT / "drivers/ruby/driver.rb"), "--sdk-info"],
                         capture_output=True, text=True, check=True).stdout
    sdk_lib = re.search(r" from (\S+) ", sdk).group(1)
    lib = [sdk_lib]
    if subprocess.run(["ruby", "-e", "require 'mcp'"], capture_output=True).returncode != 0:
        lib.append(str(DRIVER_LIB / "mcp_stand_in"))
    env = dict(os.environ, PATH=f"{fake_claude.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    env["RUBYLIB"] = os.pathsep.join(lib + [env["RUBYLIB"]] if env.get("RUBYLIB") else lib)
    env["RUBYOPT"] = f"-r{DRIVER_LIB / 'prelude.rb'} {env.get('RUBYOPT', '')}".strip()
    for name in ("FAKE_CLAUDE_SCENARIO", "FAKE_CLAUDE_REPORT", "CLAUDE_CLI_PATH"):
        env.pop(name, None)
    return env


def verdict(path: Path):
    return json.loads(path.read_text()).get("verdict") if path.exists() else None


def example(env: dict, failures: list) -> None:
    with tempfile.TemporaryDirectory(prefix="sdk-ruby-doc-") as work:
        shutil.copy(SCENARIO, work)
        Path(work, "example.rb").write_text(blocks("ruby")[0], encoding="utf-8")
        run = subprocess.run(["ruby", "example.rb"], cwd=work, env=env, capture_output=True,
                             text=True, timeout=60)
        printed = run.stdout.splitlines()
        if run.returncode != 0:
            failures.append(f"the example exited {run.returncode}")
        if printed != EXPECTED_OUTPUT:
            failures.append(f"it printed {printed!r}, expected {EXPECTED_OUTPUT!r}")
        for report in ("query-report.json", "client-report.json"):
            if verdict(Path(work, report)) != "pass":
                failures.append(f"fake-claude's verdict in {report}: {verdict(Path(work, report))!r}")
        if failures:
            failures.append("its stderr:\n" + run.stderr)


def vendored_cli(env: dict, harness: str, failures: list) -> None:
    lines = [line for block in blocks("sh") for line in block.splitlines() if "CLAUDE_CLI_PATH=" in line]
    if len(lines) != 1:
        failures.append(f"{PAGE.name}: expected one ```sh line setting CLAUDE_CLI_PATH, found {lines}")
        return
    argv = ["sh", "-c", lines[0].replace("harness replay", f"'{harness}' replay", 1)]
    with tempfile.TemporaryDirectory(prefix="sdk-ruby-vendored-") as work:
        shutil.copy(SCENARIO, work)
        Path(work, "app.rb").write_text(APP, encoding="utf-8")
        vendored = Path(work, "vendor", "claude", "claude")
        vendored.parent.mkdir(parents=True)
        vendored.write_text(VENDORED)
        vendored.chmod(0o755)
        # The gem would start the vendored CLI without the line's CLAUDE_CLI_PATH: check the setup.
        bare = subprocess.run(["ruby", "app.rb"], cwd=work, env=env, capture_output=True, text=True,
                              timeout=60)
        if not Path(work, "vendor", "claude", "started").exists():
            failures.append(f"setup: without CLAUDE_CLI_PATH the gem did not start the vendored CLI: {bare.stderr}")
        Path(work, "vendor", "claude", "started").unlink(missing_ok=True)
        run = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=60)
        if run.returncode != 0 or "verdict pass" not in run.stdout + run.stderr:
            failures.append(f"`{lines[0]}` exited {run.returncode}:\n{run.stdout}{run.stderr}")
        if Path(work, "vendor", "claude", "started").exists():
            failures.append(f"`{lines[0]}` started the vendored CLI")


def main() -> int:
    fake_claude = Path(sys.argv[1]).resolve()
    harness = str(fake_claude.parent / "harness")
    env = ruby_env(fake_claude)
    failures = []
    example(env, failures)
    vendored_cli(env, harness, failures)
    if failures:
        print(f"FAIL {PAGE.name}:\n  " + "\n  ".join(failures))
        return 1
    print(f"PASS {PAGE.name}'s example printed {EXPECTED_OUTPUT} with two passing verdicts, and its "
          "CLAUDE_CLI_PATH line replayed past a vendored CLI")
    return 0


if __name__ == "__main__":
    sys.exit(main())
