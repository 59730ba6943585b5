"""A user's tests as they would write them: the official Python SDK against fake-claude.

The scenario is the real CLI 2.1.332's recording of a client that allowed a Bash tool call
(scenarios/recorded/cli-2.1.332/tool-allowed). TOOL_DECISION picks what this client answers:
"allow" matches the recording; "deny" is a client that answers differently, which fake-claude's
verdict must fail naming the field; "deny-second" denies only in the second session a test starts. The scenario path comes from FAKE_CLAUDE_EXAMPLE_SCENARIO.
"""

import os

import anyio
from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKClient,
    PermissionResultAllow,
    PermissionResultDeny,
    ResultMessage,
)

SCENARIO = os.environ["FAKE_CLAUDE_EXAMPLE_SCENARIO"]
PROMPT = "Create the allowed marker file"


SESSIONS_STARTED = [0]


async def decide(tool_name, tool_input, context):
    decision = os.environ.get("TOOL_DECISION", "allow")
    if decision == "deny" or (decision == "deny-second" and SESSIONS_STARTED[0] == 2):
        return PermissionResultDeny(message="not in this test")
    return PermissionResultAllow()


async def one_session(cli_path):
    SESSIONS_STARTED[0] += 1
    options = ClaudeAgentOptions(cli_path=cli_path, can_use_tool=decide)
    results = []
    async with ClaudeSDKClient(options=options) as client:
        await client.query(PROMPT)
        async for message in client.receive_response():
            if isinstance(message, ResultMessage):
                results.append(message.subtype)
    return results


def test_tool_call(fake_claude):
    cli = fake_claude.scenario(SCENARIO)
    assert anyio.run(one_session, cli) == ["success"]


def test_two_sessions(fake_claude):
    cli = fake_claude.scenario(SCENARIO)
    assert anyio.run(one_session, cli) == ["success"]
    assert anyio.run(one_session, None) == ["success"]  # the SDK finds `claude` on PATH
