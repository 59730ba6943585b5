"""The driver spec (docs/drivers.md section 2), checked whole before any session starts.

`parse_spec` returns a `DriverSpec` of plain values. How it fails: `SpecError` for a malformed
spec (exit 2; the message names the member, e.g. `hooks[1]: "event" must be a string`) and
`UnsupportedFeature` for a well-formed request the Python SDK cannot carry out (exit 4; the
message is the feature, e.g. `control.set_max_thinking_tokens`).
What it costs: a walk over the spec.
"""

from dataclasses import dataclass, field
from typing import Any

DEFAULT_TIMEOUT_MS = 20000
_MAX_MS = 86400000


class SpecError(Exception):
    """A malformed spec or command line: exit 2."""


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

# The JSON type each option takes: what ClaudeAgentOptions expects for it.
_OPTION_TYPES = {
    "model": str,
    "fallback_model": str,
    "permission_mode": str,
    "max_turns": int,
    "max_budget_usd": (int, float),
    "max_thinking_tokens": int,
    "include_partial_messages": bool,
    "include_hook_events": bool,
    "allowed_tools": list,
    "disallowed_tools": list,
    "tools": list,
    "permission_prompt_tool_name": str,
    "setting_sources": list,
    "strict_mcp_config": bool,
    "resume": str,
    "continue": bool,
    "fork_session": bool,
    "session_id": str,
    "add_dirs": list,
    "cwd": str,
    "extra_args": dict,
    "env": dict,
    "system_prompt": (str, dict),
    "append_system_prompt": str,
}
_STRING_LISTS = {"allowed_tools", "disallowed_tools", "tools", "setting_sources", "add_dirs"}

# Control calls ClaudeSDKClient offers (session.py maps each onto its method). The SDK has no
# call for set_max_thinking_tokens: such a spec is unsupported.
CONTROL_CALLS = {
    "interrupt",
    "set_model",
    "set_permission_mode",
    "mcp_status",
    "get_context_usage",
    "rewind_files",
    "stop_task",
    "reconnect_mcp_server",
    "toggle_mcp_server",
    "initialization_result",
    "supported_commands",
    "supported_models",
    "close",
}
KNOWN_CONTROL_CALLS = CONTROL_CALLS | {"set_max_thinking_tokens"}

# Arguments each control call needs, and their JSON types.
_CONTROL_ARGS = {
    "set_model": {"model": (str, type(None))},
    "set_permission_mode": {"mode": str},
    "rewind_files": {"user_message_id": str},
    "stop_task": {"task_id": str},
    "reconnect_mcp_server": {"server_name": str},
    "toggle_mcp_server": {"server_name": str, "enabled": bool},
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


def _require_object(value: Any, where: str) -> None:
    if not isinstance(value, dict):
        raise SpecError(f"{where}: must be a JSON object")


def _check_members(obj: dict, name: str, known: set) -> None:
    for key in obj:
        if key not in known:
            raise UnsupportedFeature(f"{name}.{key}" if name else key)


def _string(obj: dict, key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise SpecError(f'{where}: "{key}" must be a string')
    return value


def _optional_string(obj: dict, key: str, where: str) -> str | None:
    if key not in obj:
        return None
    return _string(obj, key, where)


def _non_negative_int(obj: dict, key: str, where: str, fallback: int) -> int:
    if key not in obj:
        return fallback
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_MS:
        raise SpecError(f'{where}: "{key}" must be an integer >= 0')
    return value


def _entries(value: Any, member: str, known: set, non_empty: bool = False):
    """Yields (index, object, where) for a spec array whose items must be objects with only
    `known` members."""
    if not isinstance(value, list) or (non_empty and not value):
        raise SpecError(f'driver spec: "{member}" must be a {"non-empty " * non_empty}array')
    for i, item in enumerate(value):
        name = f"{member}[{i}]"
        where = f"driver spec: {name}"
        _require_object(item, where)
        _check_members(item, name, known)
        yield i, item, where


def parse_trigger(value: Any, where: str) -> Trigger:
    if value == "start":
        return Trigger()
    if value == "never":
        return Trigger(kind="never")
    if not isinstance(value, dict):
        raise SpecError(f'{where}: a trigger is "start", "never" or an object')
    for key in value:
        if key not in ("message", "nth", "delay_ms"):
            raise SpecError(f"{where}: unknown trigger member '{key}'")
    delay = _non_negative_int(value, "delay_ms", where, 0)
    if "message" in value:
        nth = _non_negative_int(value, "nth", where, 1)
        if nth < 1:
            raise SpecError(f'{where}: "nth" must be an integer >= 1')
        return Trigger(kind="message", pattern=value["message"], nth=nth, delay_ms=delay)
    if "nth" in value:
        raise SpecError(f'{where}: "nth" needs "message"')
    return Trigger(kind="delay", delay_ms=delay)


def user_frame(content: Any) -> dict:
    """A user message as the SDK writes one for a string prompt, with this content."""
    return {
        "type": "user",
        "session_id": "",
        "message": {"role": "user", "content": content},
        "parent_tool_use_id": None,
    }


def text_frame(text: str) -> dict:
    """The user message a text turn becomes: one text block (docs/drivers.md, "Turn")."""
    return user_frame([{"type": "text", "text": text}])


def _parse_turns(turns: Any) -> list:
    out = []
    for i, turn, where in _entries(turns, "turns", {"text", "message", "when"}, non_empty=True):
        if ("text" in turn) == ("message" in turn):
            raise SpecError(f'{where}: needs exactly one of "text" or "message"')
        if "text" in turn:
            frame = text_frame(_string(turn, "text", where))
        else:
            _require_object(turn["message"], f"{where}.message")
            frame = turn["message"]
        if "when" in turn:
            when = parse_trigger(turn["when"], f"{where}.when")
        elif i == 0:
            when = Trigger()
        else:
            when = Trigger(kind="message", pattern={"type": "result"}, nth=i)
        out.append(Turn(frame=frame, when=when))
    return out


def _check_options(options: Any) -> dict:
    _require_object(options, "driver spec: options")
    for key, value in options.items():
        if key not in _OPTION_TYPES:
            raise UnsupportedFeature(f"options.{key}")
        expected = _OPTION_TYPES[key]
        wrong = not isinstance(value, expected) or (
            isinstance(value, bool) and expected in (int, (int, float))
        )
        if wrong:
            raise SpecError(f"driver spec: options.{key} has the wrong type")
        if key in _STRING_LISTS and not all(isinstance(v, str) for v in value):
            raise SpecError(f"driver spec: options.{key} must be an array of strings")
    for flag, value in options.get("extra_args", {}).items():
        if value is not None and not isinstance(value, str):
            raise SpecError(f"driver spec: options.extra_args.{flag} must be a string or null")
    for name, value in options.get("env", {}).items():
        if not isinstance(value, str):
            raise SpecError(f"driver spec: options.env.{name} must be a string")
    prompt = options.get("system_prompt")
    if isinstance(prompt, dict) and prompt.get("type") != "preset":
        raise SpecError("driver spec: options.system_prompt must be a string or a preset object")
    if "system_prompt" in options and "append_system_prompt" in options:
        raise SpecError(
            "driver spec: options.system_prompt and options.append_system_prompt both set "
            "ClaudeAgentOptions.system_prompt; give one (a preset object can carry \"append\")"
        )
    return options


_RULE_MEMBERS = {"tool", "input", "behavior", "updated_input", "updated_permissions", "message",
                 "interrupt", "delay_ms", "throw"}


def _parse_rules(rules: Any) -> list:
    out = []
    for _, r, where in _entries(rules, "can_use_tool", _RULE_MEMBERS):
        throw = _optional_string(r, "throw", where)
        allow = True
        message = ""
        if throw is None:
            behavior = r.get("behavior")
            if behavior not in ("allow", "deny"):
                raise SpecError(f'{where}: "behavior" must be "allow" or "deny" (or give "throw")')
            allow = behavior == "allow"
            if not allow:
                message = _string(r, "message", f"{where} (a deny)")
        permissions = r.get("updated_permissions")
        if permissions is not None and (
            not isinstance(permissions, list) or not all(isinstance(p, dict) for p in permissions)
        ):
            raise SpecError(f'{where}: "updated_permissions" must be an array of objects')
        for j, p in enumerate(permissions or []):
            if not isinstance(p.get("type"), str):
                raise SpecError(f'{where}.updated_permissions[{j}]: "type" must be a string')
            for k, rule in enumerate(p.get("rules") or []):
                if not isinstance(rule, dict) or not isinstance(rule.get("toolName"), str):
                    raise SpecError(
                        f'{where}.updated_permissions[{j}].rules[{k}]: "toolName" must be a string'
                    )
        interrupt = r.get("interrupt")
        if interrupt is not None and not isinstance(interrupt, bool):
            raise SpecError(f'{where}: "interrupt" must be a bool')
        if "updated_input" in r and not isinstance(r["updated_input"], dict):
            raise SpecError(f'{where}: "updated_input" must be an object')
        out.append(
            PermissionRule(
                tool=_optional_string(r, "tool", where),
                input=r.get("input"),
                has_input="input" in r,
                throw=throw,
                allow=allow,
                updated_input=r.get("updated_input"),
                has_updated_input="updated_input" in r,
                updated_permissions=permissions,
                message=message,
                interrupt=interrupt,
                delay_ms=_non_negative_int(r, "delay_ms", where, 0),
            )
        )
    return out


_HOOK_MEMBERS = {"event", "matcher", "timeout", "returns", "throw", "delay_ms"}


def _parse_hooks(hooks: Any) -> list:
    out = []
    for _, h, where in _entries(hooks, "hooks", _HOOK_MEMBERS):
        throw = _optional_string(h, "throw", where)
        returns = h.get("returns")
        if throw is None and not isinstance(returns, dict):
            raise SpecError(f'{where}: give "returns" (hook JSON output, an object) or "throw"')
        out.append(
            HookSpec(
                event=_string(h, "event", where),
                matcher=_optional_string(h, "matcher", where),
                timeout=_non_negative_int(h, "timeout", where, 0) if "timeout" in h else None,
                returns=returns,
                throw=throw,
                delay_ms=_non_negative_int(h, "delay_ms", where, 0),
            )
        )
    return out


def _check_mcp_servers(servers: Any) -> None:
    list(_entries(servers, "mcp_servers", {"name", "version", "tools"}))
    # Well-formed or not in its details, an SDK-hosted server is beyond this driver.
    raise UnsupportedFeature(
        "mcp_servers (an SDK-hosted MCP server: the `mcp` package this driver runs the SDK with "
        "is a stand-in that cannot host one)"
    )


def _parse_control(calls: Any) -> list:
    out = []
    for _, c, where in _entries(calls, "control", {"call", "args", "when"}):
        call = _string(c, "call", where)
        if call not in KNOWN_CONTROL_CALLS:
            raise UnsupportedFeature(f"control.{call}")
        args = c.get("args", {})
        _require_object(args, f"{where}.args")
        if call not in CONTROL_CALLS:
            raise UnsupportedFeature(
                f"control.{call} (ClaudeSDKClient has no method for it)"
            )
        for arg, kind in _CONTROL_ARGS.get(call, {}).items():
            if arg not in args and kind != (str, type(None)):
                raise SpecError(f'{where}.args: "{arg}" is required')
            if arg in args and (not isinstance(args[arg], kind)):
                raise SpecError(f'{where}.args: "{arg}" has the wrong type')
        if call == "rewind_files" and args.get("dry_run") is True:
            raise UnsupportedFeature(
                "control.rewind_files.dry_run (ClaudeSDKClient.rewind_files has no dry run)"
            )
        when = parse_trigger(c["when"], f"{where}.when") if "when" in c else Trigger()
        out.append(ControlCall(call=call, args=args, when=when))
    return out


def parse_spec(spec: Any) -> DriverSpec:
    _require_object(spec, "driver spec")
    _check_members(
        spec,
        "",
        {"prompt", "turns", "end_input", "options", "can_use_tool", "hooks", "mcp_servers",
         "control", "capture_stderr", "timeout_ms"},
    )
    out = DriverSpec()
    if ("prompt" in spec) == ("turns" in spec):
        raise SpecError(
            'driver spec: exactly one of "prompt" (one-shot) or "turns" (streaming input) is '
            "required"
        )
    if "prompt" in spec:
        out.prompt = _string(spec, "prompt", "driver spec")
        if "end_input" in spec:
            raise SpecError('driver spec: "end_input" only applies to "turns"')
    else:
        out.turns = _parse_turns(spec["turns"])
        if "end_input" in spec:
            out.end_input = parse_trigger(spec["end_input"], "driver spec: end_input")
    if "options" in spec:
        out.options = _check_options(spec["options"])
    if "can_use_tool" in spec:
        out.can_use_tool = _parse_rules(spec["can_use_tool"])
    if "hooks" in spec:
        out.hooks = _parse_hooks(spec["hooks"])
    if "control" in spec:
        out.control = _parse_control(spec["control"])
    if "capture_stderr" in spec:
        if not isinstance(spec["capture_stderr"], bool):
            raise SpecError('driver spec: "capture_stderr" must be a bool')
        out.capture_stderr = spec["capture_stderr"]
    out.timeout_ms = _non_negative_int(spec, "timeout_ms", "driver spec", DEFAULT_TIMEOUT_MS)
    if out.timeout_ms == 0:
        raise SpecError('driver spec: "timeout_ms" must be positive')
    # Last, so that a malformed spec is reported as such even when it also has a server.
    if "mcp_servers" in spec:
        _check_mcp_servers(spec["mcp_servers"])
    return out
