"""pytest-fake-claude: the `fake_claude` fixture (see plugin.py and the package README)."""

from .session import FakeClaude, FakeClaudeError

__all__ = ["FakeClaude", "FakeClaudeError"]
