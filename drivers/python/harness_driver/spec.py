"""The driver spec (docs/drivers.md section 2) as plain values for session.py.

The harness checks every spec against docs/driver-spec.schema.json before any driver starts, so
`parse_spec` does not check it again: it fills in the defaults the spec leaves out and refuses
what the Python SDK cannot express. How it fails: `UnsupportedFeature` (exit 4; the message is
the feature, e.g. `control.set_max_thinking_tokens`); `SpecError` is the driver's usage error
(exit 2: a bad command line, an unreadable spec file). A spec that skipped the harness and does
not match the schema fails wherever session.py first trips over it.
What it costs: a walk over the spec.
"""

from dataclasses import dataclass, field
from typing import Any

DEFAULT_TIMEOUT_MS = 20000


class SpecError(Exception):
    """A bad command line or an unreadable spec: exit 2."""


class UnsupportedFeature(Exception):
    """Something the Python SDK cannot express: exit 4 with an `unsupported` observation."""


# Spec option -> ClaudeAgentOptions field, for the options that pass through unchanged.
# `system_prompt` and `append_system_prompt` share one field and are mapped in session.py.
OPTION_FIELDS = {
    "model": "model",
    "fallback_model": "fallback_model",
    "permission_mode": "permission_mode",
    "max_turns": "max_turns",
    "max_budget_usd": "max_budget_usd",
    "max_thinking_tokens": "max_thinking_tokens",
    "include_partial_messages": "include_partial_messages",
    "include_hook_events": "include_hook_events",
    "allowed_tools": "allowed_tools",
    "disallowed_tools": "disallowed_tools",
    "tools": "tools",
    "permission_prompt_tool_name": "permission_prompt_tool_name",
    "setting_sources": "setting_sources",
    "strict_mcp_config": "strict_mcp_config",
    "resume": "resume",
    "continue": "continue_conversation",
    "fork_session": "fork_session",
    "session_id": "session_id",
    "add_dirs": "add_dirs",
    "cwd": "cwd",
    "extra_args": "extra_args",
    "env": "env",
}


@dataclass
class Trigger:
    kind: str = "start"  # start | never | delay | message
    pattern: Any = None
    nth: int = 1
    delay_ms: int = 0


@dataclass
class Turn:
    frame: dict
    when: Trigger


@dataclass
class PermissionRule:
    tool: str | None
    input: Any
    has_input: bool
    throw: str | None
    allow: bool
    updated_input: Any
    has_updated_input: bool
    updated_permissions: list | None
    message: str
    interrupt: bool | None
    delay_ms: int


@dataclass
class HookSpec:
    event: str
    matcher: str | None
    timeout: int | None
    returns: dict | None
    throw: str | None
    delay_ms: int


@dataclass
class ControlCall:
    call: str
    args: dict
    when: Trigger


@dataclass
class DriverSpec:
    prompt: str | None = None
    turns: list = field(default_factory=list)
    end_input: Trigger | None = None
    options: dict = field(default_factory=dict)
    can_use_tool: list | None = None
    hooks: list = field(default_factory=list)
    control: list = field(default_factory=list)
    capture_stderr: bool = False
    timeout_ms: int = DEFAULT_TIMEOUT_MS


def json_matches(pattern: Any, value: Any) -> bool:
    """Plain-JSON superset match: objects by every key of the pattern, arrays element-wise
    with equal length, scalars by equality (a bool never equals a number)."""
    if isinstance(pattern, dict):
        return isinstance(value, dict) and all(
            key in value and json_matches(p, value[key]) for key, p in pattern.items()
        )
    if isinstance(pattern, list):
        return (
            isinstance(value, list)
            and len(value) == len(pattern)
            and all(json_matches(p, v) for p, v in zip(pattern, value))
        )
    if isinstance(pattern, bool) or isinstance(value, bool):
        return isinstance(pattern, bool) and isinstance(value, bool) and pattern == value
    return pattern == value


def parse_trigger(value: Any) -> Trigger:
    if value == "start":
        return Trigger()
    if value == "never":
        return Trigger(kind="never")
    delay = value.get("delay_ms", 0)
    if "message" in value:
        return Trigger(kind="message", pattern=value["message"], nth=value.get("nth", 1), delay_ms=delay)
    return Trigger(kind="delay", delay_ms=delay)


def user_frame(content: Any) -> dict:
    """A user message as the SDK writes one for a string prompt, with this content."""
    return {
        "type": "user",
        "session_id": "",
        "message": {"role": "user", "content": content},
        "parent_tool_use_id": None,
    }


def _turn(i: int, turn: dict) -> Turn:
    frame = user_frame([{"type": "text", "text": turn["text"]}]) if "text" in turn else turn["message"]
    if "when" in turn:
        when = parse_trigger(turn["when"])
    elif i == 0:
        when = Trigger()
    else:  # turn n (0-based) after the n-th result (docs/drivers.md, "Turn")
        when = Trigger(kind="message", pattern={"type": "result"}, nth=i)
    return Turn(frame=frame, when=when)


def _rule(r: dict) -> PermissionRule:
    return PermissionRule(
        tool=r.get("tool"),
        input=r.get("input"),
        has_input="input" in r,
        throw=r.get("throw"),
        allow=r.get("behavior") == "allow",
        updated_input=r.get("updated_input"),
        has_updated_input="updated_input" in r,
        updated_permissions=r.get("updated_permissions"),
        message=r.get("message", ""),
        interrupt=r.get("interrupt"),
        delay_ms=r.get("delay_ms", 0),
    )


def _hook(h: dict) -> HookSpec:
    return HookSpec(
        event=h["event"],
        matcher=h.get("matcher"),
        timeout=h.get("timeout"),
        returns=h.get("returns"),
        throw=h.get("throw"),
        delay_ms=h.get("delay_ms", 0),
    )


def _control(c: dict) -> ControlCall:
    call = c["call"]
    args = c.get("args", {})
    if call == "set_max_thinking_tokens":
        raise UnsupportedFeature(f"control.{call} (ClaudeSDKClient has no method for it)")
    if call == "rewind_files" and args.get("dry_run") is True:
        raise UnsupportedFeature(
            "control.rewind_files.dry_run (ClaudeSDKClient.rewind_files has no dry run)"
        )
    return ControlCall(call=call, args=args, when=parse_trigger(c.get("when", "start")))


def parse_spec(spec: dict) -> DriverSpec:
    if "mcp_servers" in spec:
        raise UnsupportedFeature(
            "mcp_servers (an SDK-hosted MCP server: the `mcp` package this driver runs the SDK with "
            "is a stand-in that cannot host one)"
        )
    for key in spec.get("options", {}):
        if key not in OPTION_FIELDS and key not in ("system_prompt", "append_system_prompt"):
            raise UnsupportedFeature(f"options.{key}")
    return DriverSpec(
        prompt=spec.get("prompt"),
        turns=[_turn(i, t) for i, t in enumerate(spec.get("turns", []))],
        end_input=parse_trigger(spec["end_input"]) if "end_input" in spec else None,
        options=spec.get("options", {}),
        can_use_tool=[_rule(r) for r in spec["can_use_tool"]] if "can_use_tool" in spec else None,
        hooks=[_hook(h) for h in spec.get("hooks", [])],
        control=[_control(c) for c in spec.get("control", [])],
        capture_stderr=spec.get("capture_stderr", False),
        timeout_ms=spec.get("timeout_ms", DEFAULT_TIMEOUT_MS),
    )
