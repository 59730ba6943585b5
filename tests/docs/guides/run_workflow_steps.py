#!/usr/bin/env python3
"""Runs the SDK-repository workflow of docs/ci-github-actions.md as one script, outside GitHub.

usage: run_workflow_steps.py GUIDE.md JOB_NAME SOURCE_DIR BUILD_DIR TS_SDK_PACKAGE_DIR BASELINE

Takes the ```yaml block that defines JOB_NAME from the page and maps what only GitHub has
(the page says the same, under the workflow):
  - the first `actions/checkout` (the SDK repository) is a temporary workspace holding a copy of
    TS_SDK_PACKAGE_DIR (an installed SDK package, so `npm pack` works on it) and BASELINE as
    `conformance.baseline`;
  - a checkout `with: {path: P}` is a link P -> SOURCE_DIR;
  - run lines for `apt-get`, `scripts/bootstrap`, `cmake -S` and `cmake --build` are skipped
    (this tree is built), `cmake --install /tmp/ch` installs BUILD_DIR, and `/opt/claude-harness`
    becomes a temporary prefix;
  - `harness check` grades only the `errors.` cases (they include baselined ones): the whole
    suite against the same SDK is the test conformance.ts.suite, and running it twice would cost
    CI minutes of Node start-ups for nothing this page adds;
  - `actions/upload-artifact` checks that every listed path exists.
Any other `uses:` fails the test, as does a rule that matches nothing (the page changed).
Each step runs with bash -e in the workspace ($GITHUB_WORKSPACE). Exit 0 when all steps pass.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

SKIP = [r"^apt-get ", r"^claude-harness/scripts/bootstrap$", r"^cmake -S ", r"^cmake --build "]


def workflow(guide: Path, job: str) -> dict:
    for block in re.findall(r"^```yaml\n(.*?)^```", guide.read_text(encoding="utf-8"), re.S | re.M):
        doc = yaml.safe_load(block)
        if isinstance(doc, dict) and job in (doc.get("jobs") or {}):
            return doc["jobs"][job]
    raise SystemExit(f"{guide}: no yaml block with job {job!r}")


def main() -> int:
    if len(sys.argv) != 7:
        print(__doc__, file=sys.stderr)
        return 2
    guide, job = Path(sys.argv[1]), sys.argv[2]
    source, build, package, baseline = (Path(a).resolve() for a in sys.argv[3:])
    steps = workflow(guide, job)["steps"]
    used = {pattern: False for pattern in SKIP + ["install", "prefix", "check"]}
    with tempfile.TemporaryDirectory(prefix="workflow-") as tmp:
        workspace, prefix = Path(tmp) / "workspace", Path(tmp) / "prefix"
        env = dict(os.environ, GITHUB_WORKSPACE=str(workspace), HOME=tmp)
        checkouts = 0
        for number, step in enumerate(steps, start=1):
            name = step.get("name") or step.get("uses") or f"step {number}"
            print(f"--- {name}", flush=True)
            uses = step.get("uses", "")
            if uses.startswith("actions/checkout@"):
                checkouts += 1
                path = (step.get("with") or {}).get("path")
                if path:
                    (workspace / path).symlink_to(source)
                elif checkouts == 1:
                    shutil.copytree(package, workspace)
                    shutil.copy(baseline, workspace / "conformance.baseline")
                else:
                    print(f"{name}: a second checkout without a path", file=sys.stderr)
                    return 1
                continue
            if uses.startswith("actions/upload-artifact@"):
                missing = [p for p in step["with"]["path"].split() if not (workspace / p).exists()]
                if missing:
                    print(f"{name}: missing {missing}", file=sys.stderr)
                    return 1
                continue
            if uses:
                print(f"{name}: no mapping for `uses: {uses}`", file=sys.stderr)
                return 1
            lines = []
            for line in step["run"].replace("\\\n", " ").splitlines():
                skipped = [p for p in SKIP if re.search(p, line.strip())]
                for p in skipped:
                    used[p] = True
                if skipped:
                    continue
                if "cmake --install /tmp/ch" in line:
                    used["install"] = True
                    line = line.replace("cmake --install /tmp/ch", f"cmake --install {build}")
                if re.search(r"/bin/harness check ", line):
                    used["check"] = True
                    line += " errors."
                if "/opt/claude-harness" in line:
                    used["prefix"] = True
                    line = line.replace("/opt/claude-harness", str(prefix))
                lines.append(line)
            script = "set -eu\n" + "\n".join(lines) + "\n"
            print(script, flush=True)
            run = subprocess.run(["bash", "-c", script], cwd=workspace, env=env)
            if run.returncode != 0:
                print(f"{name}: exit {run.returncode}", file=sys.stderr)
                return 1
        unused = [p for p, hit in used.items() if not hit]
        if unused:
            print(f"{guide}: no line matches {unused}: the page changed, update its test",
                  file=sys.stderr)
            return 1
    print(f"{guide}: every step of job {job} passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
