#!/usr/bin/env python3
"""Runs the steps of the repository's action.yml (a composite GitHub Action) as a script, here.

usage: run_action.py ACTION_YML SOURCE_DIR BIN_DIR --expect-exit N [--input NAME=VALUE]...
                     [--want-summary TEXT]... [--want-junit TEXT]...

What only GitHub has is mapped: `${{ inputs.NAME }}` takes --input or the input's default (and
`harness-bin-dir` is BIN_DIR, so the install step uses this tree's build instead of building);
`${{ github.action_path }}` is SOURCE_DIR; `${{ steps.ID.outputs.NAME }}` comes from the lines
that step appended to $GITHUB_OUTPUT; $GITHUB_PATH lines go first on PATH for later steps;
`actions/upload-artifact` checks that its path holds junit.xml, report.html and summary.md.
A step without `if: always()` is skipped once a step failed, as on GitHub. Any other `uses:` or
`${{ … }}` fails the test (action.yml changed). Steps run with bash -e in a temporary workspace.
Passes when the job's result is --expect-exit (0: every step passed; N: the last step failed
with N) and $GITHUB_STEP_SUMMARY and junit.xml hold every TEXT. Exit 0 pass, 1 fail, 2 usage.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def main() -> int:
    parser = argparse.ArgumentParser(usage=__doc__)
    parser.add_argument("action")
    parser.add_argument("source")
    parser.add_argument("bin")
    parser.add_argument("--expect-exit", type=int, required=True)
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--want-summary", action="append", default=[])
    parser.add_argument("--want-junit", action="append", default=[])
    args = parser.parse_args()
    action = yaml.safe_load(Path(args.action).read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite", "action.yml is not a composite action"
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    inputs["harness-bin-dir"] = str(Path(args.bin).resolve())
    for pair in args.input:
        name, _, value = pair.partition("=")
        if name not in inputs:
            print(f"run_action: action.yml has no input {name!r}", file=sys.stderr)
            return 2
        inputs[name] = value

    with tempfile.TemporaryDirectory(prefix="action-") as tmp:
        workspace = Path(tmp) / "workspace"
        workspace.mkdir()
        files = {name: Path(tmp) / name for name in ("path", "summary", "output-run")}
        for f in files.values():
            f.touch()
        outputs = {}
        path_dirs = []
        failed_code = 0

        def expand(text: str, step_outputs_file: Path) -> str:
            def one(match):
                expr = match.group(1)
                if expr.startswith("inputs."):
                    return inputs[expr[len("inputs."):]]
                if expr == "github.action_path":
                    return str(Path(args.source).resolve())
                m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
                if m:
                    return outputs.get(m.group(1), {}).get(m.group(2), "")
                raise SystemExit(f"run_action: unmapped expression ${{{{ {expr} }}}}")
            return EXPR.sub(one, text)

        for number, step in enumerate(action["runs"]["steps"], start=1):
            name = step.get("name", f"step {number}")
            condition = step.get("if")
            if failed_code and condition != "always()":
                print(f"--- {name}: skipped (an earlier step failed)", flush=True)
                continue
            print(f"--- {name}", flush=True)
            uses = step.get("uses", "")
            if uses.startswith("actions/upload-artifact@"):
                where = workspace / expand(step["with"]["path"], files["output-run"])
                missing = [f for f in ("junit.xml", "report.html", "summary.md") if not (where / f).is_file()]
                if missing:
                    print(f"run_action: artifact {where} lacks {missing}", file=sys.stderr)
                    return 1
                continue
            if uses:
                print(f"run_action: unmapped action {uses!r}", file=sys.stderr)
                return 1
            output_file = Path(tmp) / f"output-{step.get('id', number)}"
            output_file.write_text("")
            env = dict(os.environ, GITHUB_WORKSPACE=str(workspace), GITHUB_PATH=str(files["path"]),
                       GITHUB_STEP_SUMMARY=str(files["summary"]), GITHUB_OUTPUT=str(output_file),
                       GITHUB_ACTION_PATH=str(Path(args.source).resolve()))
            env["PATH"] = os.pathsep.join(path_dirs + [env["PATH"]])
            for key, value in (step.get("env") or {}).items():
                env[key] = expand(str(value), output_file)
            run = subprocess.run(["bash", "-e", "-c", expand(step["run"], output_file)], cwd=workspace, env=env)
            path_dirs = [line for line in files["path"].read_text().splitlines() if line][::-1]
            if step.get("id"):
                outputs[step["id"]] = dict(line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line)
            if run.returncode != 0:
                print(f"--- {name}: exit {run.returncode}", flush=True)
                failed_code = run.returncode

        summary = files["summary"].read_text(encoding="utf-8")
        junit_path = workspace / inputs["report-dir"] / "junit.xml"
        junit = junit_path.read_text(encoding="utf-8") if junit_path.is_file() else ""
        print("--- $GITHUB_STEP_SUMMARY\n" + summary)
        problems = []
        if failed_code != args.expect_exit:
            problems.append(f"job ended {failed_code}, expected {args.expect_exit}")
        problems += [f"summary lacks {t!r}" for t in args.want_summary if t not in summary]
        problems += [f"junit.xml lacks {t!r}" for t in args.want_junit if t not in junit]
        for p in problems:
            print(f"run_action: {p}", file=sys.stderr)
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
