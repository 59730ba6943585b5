"""FakeClaude: what the `fake_claude` fixture hands a test.

`scenario(path)` makes a private folder holding a `claude` shim (a small sh script that sets
FAKE_CLAUDE_SCENARIO and FAKE_CLAUDE_RUNS itself, since an SDK may not pass its environment on,
then execs fake-claude), puts that folder first on PATH and returns the shim's path for
`cli_path=`-style options. `finish()` (at teardown) waits, bounded, for every run to report and
returns the text of what failed: a failing or missing run, a part of a multi-run scenario no run
played, or no run at all. In record mode the shim execs claude-tee instead, and finish() replaces
the scenario with the recording only when a session was recorded and the test body passed (else
it is kept beside it as SCENARIO.incomplete, as `harness record` does).

How it fails: FakeClaudeError for a missing scenario or tool. Costs: one folder and one process
exec per CLI run; the wait polls the runs folder every 50 ms up to `timeout` seconds.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from pathlib import Path

from . import verdicts


class FakeClaudeError(Exception):
    """A setup problem: the scenario or a tool is missing."""


def _part_count(scenario: Path) -> int:
    """Headers in the file: a line whose object has a top-level "scenario" or "recording" key."""
    parts = 0
    with scenario.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if '"scenario"' not in line and '"recording"' not in line:
                continue  # cheap filter: most lines are steps or events
            try:
                value = json.loads(line)
            except ValueError:
                continue  # fake-claude reports bad lines itself
            parts += isinstance(value, dict) and ("scenario" in value or "recording" in value)
    return parts


def _write_shim(folder: Path, target: str, env: dict[str, str | None]) -> Path:
    lines = ["#!/bin/sh", "# written by pytest-fake-claude: plays one scenario"]
    for name, value in env.items():
        lines.append(f"unset {name}" if value is None else f"{name}={shlex.quote(value)}; export {name}")
    lines.append(f'exec {shlex.quote(target)} "$@"')
    shim = folder / "claude"
    shim.write_text("\n".join(lines) + "\n", encoding="utf-8")
    shim.chmod(0o700)
    return shim


class _Played:
    def __init__(self, scenario: Path, folder: Path, record: bool):
        self.scenario = scenario
        self.folder = folder
        self.record = record


class FakeClaude:
    def __init__(self, *, tool: str, monkeypatch, record: bool = False,
                 real_cli: str | None = None, timeout: float = 30.0):
        self._tool = tool  # fake-claude, or claude-tee when recording
        self._monkeypatch = monkeypatch
        self._record = record
        self._real_cli = real_cli
        self._timeout = timeout
        self._played: list[_Played] = []

    @property
    def recording(self) -> bool:
        return self._record

    def scenario(self, path: str | os.PathLike) -> str:
        scenario = Path(path).resolve()
        if not self._record and not scenario.is_file():
            raise FakeClaudeError(f"{scenario}: no such scenario file")
        folder = Path(tempfile.mkdtemp(prefix="fake-claude-"))
        if self._record:
            (folder / "recordings").mkdir()
            env = {"CLAUDE_TEE_OUT": str(folder / "recordings") + "/"}
            if self._real_cli:
                env["CLAUDE_TEE_REAL_CLI"] = self._real_cli
        else:
            (folder / "runs").mkdir()
            env = {
                "FAKE_CLAUDE_SCENARIO": str(scenario),
                "FAKE_CLAUDE_RUNS": str(folder / "runs"),
                "FAKE_CLAUDE_REPORT": None,  # each run reports into FAKE_CLAUDE_RUNS
            }
        shim = _write_shim(folder, self._tool, env)
        self._played.append(_Played(scenario, folder, self._record))
        self._monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
        self._monkeypatch.setenv("CLAUDE_CLI_PATH", str(shim))
        return str(shim)

    def finish(self, body_passed: bool = True) -> list[str]:
        """Every problem, worded for the test report; empty when every run passed."""
        problems = []
        for played in self._played:
            try:
                problem = self._finish_recording(played, body_passed) if played.record else self._grade(played)
            finally:
                shutil.rmtree(played.folder, ignore_errors=True)
            if problem:
                problems.append(problem)
        self._played.clear()
        return problems

    def _grade(self, played: _Played) -> str | None:
        runs_dir = played.folder / "runs"
        still = verdicts.wait_for_runs(runs_dir, self._timeout)
        reports = verdicts.read_runs(runs_dir)
        if not reports:
            return (f"fake-claude: {played.scenario}: the test never started claude (no fake-claude "
                    "session ran): no verdict. Hand the path scenario() returned to the SDK "
                    "(cli_path=...) or let it find `claude` on PATH.")
        text = verdicts.describe(str(played.scenario), reports)
        if still:
            text += (f"\nfake-claude: run(s) {still} still running after {self._timeout:g} s "
                     "(the client did not end the session)")
        parts = _part_count(played.scenario)
        if parts > 1 and len(reports) < parts:
            text += (f"\nfake-claude: {played.scenario}: the scenario describes {parts} runs but "
                     f"the client started claude {len(reports)} time(s): part {len(reports) + 1} "
                     "never ran")
            return text
        return None if verdicts.all_passed(reports) and not still else text

    def _finish_recording(self, played: _Played, body_passed: bool) -> str | None:
        recordings = sorted((played.folder / "recordings").iterdir())
        if not recordings:
            return f"claude-tee: {played.scenario}: the test never started claude: nothing recorded"
        with tempfile.NamedTemporaryFile("wb", dir=played.scenario.parent, delete=False,
                                         prefix=played.scenario.name + ".") as out:
            for recording in recordings:  # one part per session, in the order claude-tee named them
                out.write(recording.read_bytes())
        if body_passed:
            os.replace(out.name, played.scenario)
            return None
        kept = played.scenario.with_name(played.scenario.name + ".incomplete")
        os.replace(out.name, kept)
        return (f"claude-tee: the test failed while recording, so {played.scenario} is unchanged; "
                f"what was recorded is in {kept}")
