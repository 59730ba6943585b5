#!/usr/bin/env python3
"""Writes the action's summary.md (and, for replay, junit.xml) from harness's reports.

usage: summarize.py check|replay REPORT_DIR EXIT_CODE

check:  reads REPORT_DIR/junit.xml (harness check --junit) and summarises it.
replay: reads REPORT_DIR/report.json (harness replay --report: one run's report, or
        {"runs":[…]} for several) and writes junit.xml with one <testcase> per run, plus a
        run_missing case when a part of a multi-run scenario never ran.
A missing or unreadable report is itself reported (harness exited before it wrote one).
Exit codes: 0 written, 2 usage.
"""

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def finding_lines(report: dict) -> list:
    """A run's findings, as harness prints them (harness/src/run_verdicts.cpp print_one)."""
    lines = [f"{e.get('file', '')}:{e.get('line', 0)}: {e.get('reason', '')}" for e in report.get("errors", [])]
    lines += [f"note: {n}" for n in report.get("notes", []) if isinstance(n, str)]
    failure = report.get("failure")
    if isinstance(failure, dict):
        lines.append(f"{failure.get('location', '')}: {failure.get('kind', '')}: {failure.get('message', '')}")
        if "expected" in failure:
            lines.append("expected: " + json.dumps(failure["expected"], separators=(",", ":")))
        closest = failure.get("closest")
        if isinstance(closest, dict):
            lines.append(f"closest:  {closest.get('line', '')}")
            lines += [f"  at {d.get('pointer', '')}: {d.get('reason', '')}" for d in closest.get("differences", [])]
    return lines


def replay(out: Path, code: int) -> str:
    try:
        combined = json.loads((out / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        combined = {"verdict": "error", "runs": [], "failure": {
            "kind": "no_report", "location": str(out / "report.json"),
            "message": f"harness exited {code} without a readable report ({error}); see the step's log"}}
    runs = combined.get("runs")
    if runs is None:
        runs = [dict(combined, run=1)]
    suite = ET.Element("testsuite", name="claude-harness replay", tests="0", failures="0")
    failed, md = 0, []
    cases = [(f"run {r.get('run', i + 1)}", r) for i, r in enumerate(runs)]
    if combined.get("missing_runs") or (not runs and combined.get("failure")):
        cases.append((combined["failure"].get("kind", "failure"), {"verdict": "fail", "failure": combined["failure"]}))
    for name, report in cases:
        case = ET.SubElement(suite, "testcase", classname="claude-harness", name=name)
        if report.get("verdict") != "pass":
            failed += 1
            lines = finding_lines(report)
            failure = report.get("failure") or {}
            ET.SubElement(case, "failure", message=failure.get("message", report.get("verdict", "fail")),
                          type=failure.get("kind", "fail")).text = "\n".join(lines)
            md.append(f"**{name}**: verdict `{report.get('verdict', 'fail')}`\n\n```\n" + "\n".join(lines) + "\n```\n")
    suite.set("tests", str(len(cases)))
    suite.set("failures", str(failed))
    ET.ElementTree(suite).write(out / "junit.xml", encoding="utf-8", xml_declaration=True)
    verdict = combined.get("verdict", "fail")
    head = (f"### claude-harness replay: {'✅' if verdict == 'pass' else '❌'} verdict `{verdict}`\n\n"
            f"Scenario `{combined.get('scenario', '?')}`: {len(runs)} run(s), {failed} failed; harness exit {code}.\n\n")
    return head + "\n".join(md) + "\nArtifacts: `junit.xml`, `report.html`, `report.json`.\n"


def check(out: Path, code: int) -> str:
    try:
        root = ET.parse(out / "junit.xml").getroot()
    except (OSError, ET.ParseError) as error:
        return (f"### claude-harness check: ❌ no report\n\nharness exited {code} without a readable "
                f"junit.xml ({error}); see the step's log.\n")
    cases = root.iter("testcase")
    total = failed = skipped = 0
    rows = []
    for case in cases:
        total += 1
        if case.find("skipped") is not None:
            skipped += 1
        problem = case.find("failure")
        if problem is None:
            problem = case.find("error")
        if problem is not None:
            failed += 1
            where = f"{case.get('file', '')}:{case.get('line', '')}" if case.get("file") else ""
            message = (problem.get("message") or "").replace("|", "\\|").replace("\n", " ")
            rows.append(f"| `{case.get('name')}` | {where} | {message[:300]} |")
    head = (f"### claude-harness check: {'✅' if code == 0 else '❌'} {total} case(s), {failed} failed, "
            f"{skipped} skipped; harness exit {code}\n\n")
    table = "| case | scenario | failure |\n|---|---|---|\n" + "\n".join(rows) + "\n\n" if rows else ""
    return head + table + "Artifacts: `junit.xml`, `report.html`, `check.json`.\n"


def main() -> int:
    if len(sys.argv) != 4 or sys.argv[1] not in ("check", "replay") or not sys.argv[3].lstrip("-").isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    out, code = Path(sys.argv[2]), int(sys.argv[3])
    text = replay(out, code) if sys.argv[1] == "replay" else check(out, code)
    (out / "summary.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
