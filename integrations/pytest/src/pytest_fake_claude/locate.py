"""Finds the fake-claude and claude-tee executables.


Order: the pytest option (`--fake-claude PATH` / `--claude-tee PATH`, or the ini keys
`fake_claude` / `claude_tee`), then the environment (FAKE_CLAUDE_BIN / CLAUDE_TEE_BIN), then PATH.
Fails with FakeClaudeError naming every place it looked.
"""

from __future__ import annotations

import os
import shutil

from .session import FakeClaudeError

ENV_OF = {"fake-claude": "FAKE_CLAUDE_BIN", "claude-tee": "CLAUDE_TEE_BIN"}


def locate(tool: str, configured: str | None) -> str:
    env_name = ENV_OF[tool]
    for source, candidate in ((f"--{tool}", configured), (env_name, os.environ.get(env_name))):
        if not candidate:
            continue
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return os.path.abspath(candidate)
        raise FakeClaudeError(f"{source} names {candidate!r}, which is not an executable file")
    found = shutil.which(tool)
    if found:
        return os.path.abspath(found)
    raise FakeClaudeError(
        f"cannot find {tool}: pass --{tool} PATH (or the ini key {tool.replace('-', '_')}), "
        f"set {env_name}, or put it on PATH (it is built by claude-harness: "
        f"cmake --build --preset release --target {tool})"
    )
