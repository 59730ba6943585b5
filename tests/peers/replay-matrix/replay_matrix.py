#!/usr/bin/env python3
"""Replays recorded sessions through SDK drivers, whatever SDK recorded them.

usage: replay_matrix.py --harness PATH --fake-claude PATH --driver-cpp PATH
                        [--set DIR] [--case NAME] [--recorded-by SDK] [--sdk SDK] [--table]

Each cell replays SET/<case>/<recorded-by>.ndjson with `harness replay` through the driver of
<sdk> (cpp, ts, python or ruby) carrying out SET/<case>/spec.json. A cell passes when fake-claude's
verdict is pass. It is skipped when the driver says its SDK cannot express the spec (exit 4, an
`unsupported` observation: the Python and Ruby SDKs' stand-in `mcp` packages host no MCP server)
or the SDK is not installed. --case/--recorded-by/--sdk pick one cell (exit 0 pass, 1 fail, 77 skip);
without them every cell runs. --table prints the results as a Markdown table.
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SKIP = 77
SDKS = ("cpp", "ts", "python", "ruby")


def driver_command(sdk: str, args: argparse.Namespace) -> list:
    if sdk == "cpp":
        return [args.driver_cpp]
    if sdk == "ts":
        return ["node", str(ROOT / "drivers/ts/driver.mjs")]
    if sdk == "ruby":
        return ["ruby", str(ROOT / "drivers/ruby/driver.rb")]
    return [sys.executable, str(ROOT / "drivers/python/driver.py")]


def sdk_missing(sdk: str) -> str:
    """Why the SDK cannot run here, or "" when it can."""
    if sdk == "ts" and not (ROOT / "drivers/ts/node_modules/@anthropic-ai/claude-agent-sdk").is_dir():
        return "the TypeScript SDK is not installed (tests/peers/ts-sdk/install-sdk)"
    if sdk == "python":
        probe = subprocess.run(
            [sys.executable, str(ROOT / "drivers/python/driver.py"), "--sdk-info"],
            capture_output=True, text=True)
        if probe.returncode != 0:
            return "no Python Agent SDK: " + probe.stderr.strip()
    if sdk == "ruby":
        if shutil.which("ruby") is None:
            return "no `ruby` on PATH (Debian: apt-get install ruby ruby-async)"
        probe = subprocess.run(["ruby", str(ROOT / "drivers/ruby/driver.rb"), "--sdk-info"],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            return "no Ruby Agent SDK: " + probe.stderr.strip()
    return ""


def replay(case_dir: Path, recorded_by: str, sdk: str, args: argparse.Namespace) -> tuple:
    """(outcome, detail): outcome is pass, fail or skip."""
    missing = sdk_missing(sdk)
    if missing:
        return "skip", missing
    command = [args.harness, "replay", str(case_dir / f"{recorded_by}.ndjson"), "--"]
    command += driver_command(sdk, args)
    command += ["--spec", str(case_dir / "spec.json"), "--fake-claude", args.fake_claude]
    try:
        run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "fail", "harness replay did not end within 120 s"
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            observation = json.loads(line)
            if observation.get("obs") == "unsupported":
                return "skip", f"the driver cannot express: {observation.get('feature')}"
    if run.returncode == 0 and "harness: verdict pass" in run.stdout:
        return "pass", ""
    return "fail", (run.stdout + run.stderr)[-3000:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--harness", required=True)
    parser.add_argument("--fake-claude", required=True)
    parser.add_argument("--driver-cpp", required=True)
    parser.add_argument("--set", default=str(ROOT / "scenarios/recorded/cli-2.1.332"))
    parser.add_argument("--case")
    parser.add_argument("--recorded-by")
    parser.add_argument("--sdk", choices=SDKS)
    parser.add_argument("--table", action="store_true")
    args = parser.parse_args()

    set_dir = Path(args.set)
    cases = json.loads((set_dir / "set.json").read_text())["cases"]
    cells = [(c["name"], recorded_by, sdk) for c in cases for recorded_by in c["sdks"]
             for sdk in SDKS]
    cells = [cell for cell in cells
             if (args.case is None or cell[0] == args.case)
             and (args.recorded_by is None or cell[1] == args.recorded_by)
             and (args.sdk is None or cell[2] == args.sdk)]
    if not cells:
        print("replay_matrix.py: no recorded session matches", file=sys.stderr)
        return 2
    results = {}
    for name, recorded_by, sdk in cells:
        outcome, detail = replay(set_dir / name, recorded_by, sdk, args)
        results[(name, recorded_by, sdk)] = (outcome, detail)
        print(f"{outcome.upper():4} {name}/{recorded_by}.ndjson through {sdk}"
              + (f": {detail}" if detail else ""), flush=True)
    if args.table:
        print("\n| recording | " + " | ".join(SDKS) + " |")
        print("|---|" + "---|" * len(SDKS))
        for name, recorded_by in dict.fromkeys((n, r) for n, r, _ in cells):
            row = []
            for sdk in SDKS:
                outcome, detail = results.get((name, recorded_by, sdk), ("-", ""))
                row.append("skipped: " + detail if outcome == "skip" else outcome)
            print(f"| `{name}/{recorded_by}` | " + " | ".join(row) + " |")
    outcomes = [outcome for outcome, _ in results.values()]
    if "fail" in outcomes:
        return 1
    return SKIP if len(cells) == 1 and outcomes == ["skip"] else 0


if __name__ == "__main__":
    sys.exit(main())
