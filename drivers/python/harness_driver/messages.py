"""The Python SDK's typed messages as JSON, laid out under the wire's member names.

What it is: the SDK hands its user dataclasses (`AssistantMessage(content=[TextBlock(...)])`),
not the frames the CLI wrote. Conformance cases select messages with SDK-neutral patterns written
in the wire's layout (`{"type": "assistant", "message": {"content": [...]}}`), so each typed
field is put back where the wire carries it: `AssistantMessage.content` under `message.content`,
`ResultMessage.model_usage` as `modelUsage`, a `TextBlock` as `{"type": "text", "text": ...}`.
Only what the typed object holds is reported: a block or member the SDK drops is absent here
too, which is exactly what a case should see. `sdk_class` names the class the user got.
How it fails: a class this module does not know is reported as its dataclass fields with
`sdk_class`, never dropped.
What it costs: one walk over the message.
"""

import dataclasses
from typing import Any

# Typed content block -> its wire `type`; the block's fields keep their names on the wire.
_BLOCK_TYPES = {
    "TextBlock": "text",
    "ThinkingBlock": "thinking",
    "ToolUseBlock": "tool_use",
    "ToolResultBlock": "tool_result",
    "ServerToolUseBlock": "server_tool_use",
    "ServerToolResultBlock": "advisor_tool_result",
}

# ResultMessage field -> wire member, where they differ.
_RESULT_NAMES = {"model_usage": "modelUsage"}


def _plain(value: Any) -> Any:
    """Dataclasses (nested ones too) as dicts; everything else as it is."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def _without_none(members: dict) -> dict:
    return {k: v for k, v in members.items() if v is not None}


def _block(block: Any) -> Any:
    name = type(block).__name__
    if name not in _BLOCK_TYPES:
        return {"sdk_class": name, **_plain(block)} if dataclasses.is_dataclass(block) else block
    fields = _without_none(dataclasses.asdict(block))
    return {"type": _BLOCK_TYPES[name], **fields}


def _content(content: Any) -> Any:
    return [_block(b) for b in content] if isinstance(content, list) else content


def _assistant(m) -> dict:
    inner = _without_none(
        {
            "id": m.message_id,
            "role": "assistant",
            "model": m.model,
            "content": _content(m.content),
            "stop_reason": m.stop_reason,
            "usage": m.usage,
        }
    )
    outer = _without_none({"error": m.error, "session_id": m.session_id, "uuid": m.uuid})
    return {"type": "assistant", "message": inner, "parent_tool_use_id": m.parent_tool_use_id, **outer}


def _user(m) -> dict:
    outer = _without_none({"uuid": m.uuid, "tool_use_result": m.tool_use_result, "origin": m.origin})
    return {
        "type": "user",
        "message": {"role": "user", "content": _content(m.content)},
        "parent_tool_use_id": m.parent_tool_use_id,
        **outer,
    }


def _result(m) -> dict:
    fields = {
        _RESULT_NAMES.get(f.name, f.name): _plain(getattr(m, f.name))
        for f in dataclasses.fields(m)
    }
    return {"type": "result", **_without_none(fields)}


def _rate_limit(m) -> dict:
    info = m.rate_limit_info
    wire = dict(info.raw) if info.raw else _without_none(
        {
            "status": info.status,
            "resetsAt": info.resets_at,
            "rateLimitType": info.rate_limit_type,
            "utilization": info.utilization,
            "overageStatus": info.overage_status,
            "overageResetsAt": info.overage_resets_at,
            "overageDisabledReason": info.overage_disabled_reason,
        }
    )
    return {"type": "rate_limit_event", "rate_limit_info": wire, "uuid": m.uuid, "session_id": m.session_id}


def message_json(sdk, message: Any) -> dict:
    """The observation's `message` member for one message the SDK yielded."""
    if isinstance(message, sdk.SystemMessage):
        # Every system class (task, hook event, plain) keeps the whole frame in `data`, which
        # is part of what its user reads; the typed fields are taken from it.
        out = {**message.data, "type": "system", "subtype": message.subtype}
    elif isinstance(message, sdk.AssistantMessage):
        out = _assistant(message)
    elif isinstance(message, sdk.UserMessage):
        out = _user(message)
    elif isinstance(message, sdk.ResultMessage):
        out = _result(message)
    elif isinstance(message, sdk.StreamEvent):
        out = {"type": "stream_event", **_plain(message)}
    elif isinstance(message, sdk.RateLimitEvent):
        out = _rate_limit(message)
    elif isinstance(message, sdk.ConversationResetMessage):
        out = {"type": "conversation_reset", **_plain(message)}
    else:
        out = _plain(message) if dataclasses.is_dataclass(message) else {"value": repr(message)}
    out["sdk_class"] = type(message).__name__
    return out
