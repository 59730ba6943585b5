"""Tests that use the fixture wrongly: each must fail with a message saying what went wrong."""

import os


def test_never_starts_claude(fake_claude):
    fake_claude.scenario(os.environ["FAKE_CLAUDE_EXAMPLE_SCENARIO"])


def test_missing_scenario(fake_claude):
    fake_claude.scenario("no/such/scenario.ndjson")
