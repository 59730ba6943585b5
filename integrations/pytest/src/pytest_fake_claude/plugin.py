"""The pytest side: options, ini keys and the `fake_claude` fixture (entry point `pytest11`).

Load it installed (`pip install ./integrations/pytest`) or with `-p pytest_fake_claude.plugin`.
At teardown every CLI run of the test is graded by fake-claude; a failing verdict fails the test
with fake-claude's mismatch text. `--claude-record` records through claude-tee into each scenario
path instead, and is refused when CI is set (a CI run must replay what was committed).
"""

from __future__ import annotations

import os

import pytest

from .locate import locate
from .session import FakeClaude, FakeClaudeError

CI_REFUSAL = (
    "--claude-record: refused because CI={ci!r} is set: CI replays the committed scenarios; "
    "record them locally and commit them (harness run decides the same way)"
)


def pytest_addoption(parser):
    group = parser.getgroup("fake-claude", "play recorded Claude Code CLI sessions (claude-harness)")
    group.addoption("--fake-claude", dest="fake_claude_bin", metavar="PATH",
                    help="the fake-claude executable (else ini fake_claude, $FAKE_CLAUDE_BIN, PATH)")
    group.addoption("--claude-tee", dest="claude_tee_bin", metavar="PATH",
                    help="the claude-tee executable for --claude-record (else $CLAUDE_TEE_BIN, PATH)")
    group.addoption("--claude-record", action="store_true", default=False,
                    help="record each scenario through claude-tee and the real CLI instead of "
                         "replaying it (refused when CI is set)")
    group.addoption("--claude-real-cli", metavar="PATH",
                    help="the real claude CLI claude-tee runs when recording (else claude-tee's own "
                         "choice: $CLAUDE_TEE_REAL_CLI, then `claude` on PATH)")
    parser.addini("fake_claude", "path of the fake-claude executable")
    parser.addini("claude_tee", "path of the claude-tee executable")
    parser.addini("fake_claude_timeout", "seconds to wait at teardown for runs to end (default 30)",
                  default="30")


def _ci_value() -> str | None:
    value = os.environ.get("CI")
    return value if value not in (None, "", "0", "false", "False") else None


@pytest.fixture
def fake_claude(request, monkeypatch):
    """`fake_claude.scenario(path) -> str`: the path of a `claude` that plays `path`."""
    config = request.config
    record = config.getoption("claude_record")
    problem = None
    try:
        if record:
            ci = _ci_value()
            if ci is not None:
                raise FakeClaudeError(CI_REFUSAL.format(ci=ci))
            tool = locate("claude-tee", config.getoption("claude_tee_bin") or config.getini("claude_tee"))
        else:
            tool = locate("fake-claude",
                          config.getoption("fake_claude_bin") or config.getini("fake_claude"))
        timeout = float(config.getini("fake_claude_timeout"))
    except (FakeClaudeError, ValueError) as error:
        problem = f"fake_claude: {error}"
    if problem is not None:
        pytest.fail(problem, pytrace=False)
    session = FakeClaude(tool=tool, monkeypatch=monkeypatch, record=record,
                         real_cli=config.getoption("claude_real_cli"), timeout=timeout)
    yield session
    # Normally graded already by pytest_runtest_call; this catches a test that never reached its
    # call phase (its runs are still cleaned up and reported).
    problems = session.finish()
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# Outermost wrapper (tryfirst), so the capture plugin has closed the call phase when it fails.
@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Grades the runs right after the test body, so a failing verdict fails the test itself
    (not its teardown) with fake-claude's mismatch text."""
    outcome = yield
    session = getattr(item, "funcargs", {}).get("fake_claude")
    if not isinstance(session, FakeClaude):
        return
    problems = session.finish(body_passed=outcome.excinfo is None)
    if not problems:
        return
    text = "\n".join(problems)
    if outcome.excinfo is not None:
        # The mismatch is usually why the body failed (fake-claude ends a failing session with
        # exit 1, which SDKs raise as a process error): lead with it, name what the body raised.
        kind, value, _ = outcome.excinfo
        said = str(value).splitlines()[0] if str(value) else ""
        text += f"\n(the test body also raised {kind.__name__}: {said})"
    pytest.fail(text, pytrace=False)
