"""Reads the per-run reports fake-claude writes under FAKE_CLAUDE_RUNS and words the verdicts.

Every fake-claude session started with FAKE_CLAUDE_RUNS=DIR claims DIR/run-N.started (holding its
process id) and writes its JSON report to DIR/run-N.json (emulator/src/process/run_slot.hpp).
wait_for_runs() waits, bounded, until each claimed run has reported or its process is gone;
read_runs() returns one report per claim, a synthesized failed one when a run wrote none;
describe() prints them the way `harness replay` does (harness/src/run_verdicts.cpp): the
failure's file:line, kind and message, what was expected, the closest SDK line and each field
that differed. Grading itself is fake-claude's; nothing here re-judges a line.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

CLAIM = re.compile(r"^run-(\d+)\.started$")


def _claims(runs_dir: Path) -> list[tuple[int, int]]:
    """(number, pid) of every claimed run, in run order; pid 0 while the claim holds none yet."""
    found = []
    for entry in runs_dir.iterdir() if runs_dir.is_dir() else ():
        match = CLAIM.match(entry.name)
        if match:
            try:
                pid = int(entry.read_text().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            found.append((int(match.group(1)), pid))
    return sorted(found)


def _alive(pid: int) -> bool:
    if pid <= 0:
        return True  # the claim is being written: the process exists
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (ended, not yet reaped by the SDK) counts as ended.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def wait_for_runs(runs_dir: Path, timeout: float) -> list[int]:
    """Waits until every claimed run wrote its report or ended; returns the runs still going."""
    deadline = time.monotonic() + timeout
    while True:
        pending = [
            number
            for number, pid in _claims(runs_dir)
            if not (runs_dir / f"run-{number}.json").exists() and _alive(pid)
        ]
        if not pending or time.monotonic() >= deadline:
            return pending
        time.sleep(0.05)


def read_runs(runs_dir: Path) -> list[dict]:
    reports = []
    for number, pid in _claims(runs_dir):
        path = runs_dir / f"run-{number}.json"
        why = None
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(report, dict):
                why = "its report is not a JSON object"
        except FileNotFoundError:
            why = "it was killed, crashed or is still running: it wrote no report"
        except (OSError, ValueError) as error:
            why = f"its report does not parse ({error})"
        if why is not None:
            report = {
                "verdict": "fail",
                "failure": {
                    "kind": "no_report",
                    "location": str(path),
                    "message": f"fake-claude (run {number}, pid {pid}) ended without a report: {why}",
                },
            }
        report["run"] = number
        reports.append(report)
    return reports


def _shortened(line: str, limit: int = 160) -> str:
    return line if len(line) <= limit else f"{line[:limit]}… ({len(line)} bytes)"


def _describe_one(report: dict, prefix: str) -> list[str]:
    out = []
    for error in report.get("errors") or []:
        out.append(f"{prefix}{error.get('file', '')}:{error.get('line', 0)}: {error.get('reason', '')}")
    for note in report.get("notes") or []:
        if isinstance(note, str):
            out.append(f"{prefix}note: {note}")
    failure = report.get("failure")
    if isinstance(failure, dict):
        out.append(
            f"{prefix}{failure.get('location', '')}: {failure.get('kind', '')}: "
            f"{failure.get('message', '')}"
        )
        if "expected" in failure:
            out.append(f"{prefix}expected: {json.dumps(failure['expected'], separators=(',', ':'))}")
        closest = failure.get("closest")
        if isinstance(closest, dict):
            out.append(f"{prefix}closest:  {closest.get('line', '')}")
            for difference in closest.get("differences") or []:
                out.append(f"{prefix}  at {difference.get('pointer', '')}: {difference.get('reason', '')}")
    leftover = report.get("leftover") or []
    if leftover:
        out.append(f"{prefix}SDK lines no step consumed ({len(leftover)}):")
        for entry in leftover[:5]:
            out.append(f"{prefix}  {_shortened(str(entry.get('line', '')))}")
        if len(leftover) > 5:
            out.append(f"{prefix}  … {len(leftover) - 5} more in the report")
    return out


def describe(scenario: str, reports: list[dict]) -> str:
    """The verdict of every run, as `harness replay` prints it."""
    lines = []
    failed = 0
    for report in reports:
        verdict = report.get("verdict", "?")
        failed += verdict != "pass"
        argv = json.dumps(report.get("argv", []), separators=(",", ":"))
        lines.append(f"fake-claude: run {report['run']}: verdict {verdict} (argv {argv})")
        lines.extend(_describe_one(report, "    "))
    lines.append(f"fake-claude: {scenario}: {len(reports)} run(s), {failed} failed")
    return "\n".join(lines)


def all_passed(reports: list[dict]) -> bool:
    return bool(reports) and all(report.get("verdict") == "pass" for report in reports)
