"""Runs one driver spec with the Python SDK and reports what the SDK surfaced.

What it is: the spec mapped onto the SDK's API. A `prompt` without control calls is the SDK's
one-shot `query(prompt=...)`; everything else is a `ClaudeSDKClient` connected with an input
stream (an async iterable) that yields the turns when their triggers fire, so that control
calls have a client to be made on. Callbacks (`can_use_tool`, hooks, stderr) look their answer
up in the spec and report each invocation.
How it fails: whatever the SDK raises while messages are consumed is an `error` observation and
makes `run_session` return False; it raises only for driver bugs.
What it costs: one CLI process; the driver adds a JSON encode per observation.
"""

from typing import Any

import anyio

from .messages import message_json
from .observations import observe
from .spec import OPTION_FIELDS, DriverSpec, Trigger, Turn, json_matches, user_frame
from .triggers import ResultCount, TriggerBoard

SETTLE_SECONDS = 2.0  # how long control calls still in flight may take to report at the end

# Wire names of hook output members that Python spells differently (keywords).
_HOOK_OUTPUT_NAMES = {"async": "async_", "continue": "continue_"}


def _error_members(err: BaseException) -> dict:
    """The error's text and class, plus what the SDK's error types carry for their user: the
    CLI's exit code, and the raw frame (ResultError: the error result; MessageParseError: the
    message it could not parse)."""
    members = {"message": str(err) or type(err).__name__, "name": type(err).__name__}
    if getattr(err, "exit_code", None) is not None:
        members["exit_code"] = err.exit_code
    if isinstance(getattr(err, "data", None), dict):
        members["data"] = err.data
    return members


def _aborted(seen: dict, callback: str) -> None:
    observe("callback_aborted", callback=callback, **seen)


def permission_callback(sdk, rules: list):
    async def can_use_tool(tool_name: str, tool_input: dict, context) -> Any:
        rule = next(
            (
                r
                for r in rules
                if (r.tool is None or r.tool == tool_name)
                and (not r.has_input or json_matches(r.input, tool_input))
            ),
            None,
        )
        seen = {
            "tool": tool_name,
            "input": tool_input,
            "tool_use_id": context.tool_use_id,
            "suggestions": [s.to_dict() for s in context.suggestions],
        }
        if rule is not None and rule.delay_ms:
            try:
                await anyio.sleep(rule.delay_ms / 1000)
            except anyio.get_cancelled_exc_class():
                _aborted(seen, "can_use_tool")
                raise
        if rule is not None and rule.throw is not None:
            observe("can_use_tool", **seen, threw=rule.throw)
            raise RuntimeError(rule.throw)
        if rule is None:
            why = f"driver: no can_use_tool rule matches tool '{tool_name}'"
            result = sdk.PermissionResultDeny(message=why)
            returned = {"behavior": "deny", "message": why}
        elif rule.allow:
            permissions = rule.updated_permissions
            result = sdk.PermissionResultAllow(
                updated_input=rule.updated_input if rule.has_updated_input else None,
                updated_permissions=(
                    [sdk.PermissionUpdate.from_dict(p) for p in permissions]
                    if permissions is not None
                    else None
                ),
            )
            returned = {"behavior": "allow"}
            if rule.has_updated_input:
                returned["updatedInput"] = rule.updated_input
            if permissions is not None:
                returned["updatedPermissions"] = permissions
        else:
            result = sdk.PermissionResultDeny(message=rule.message, interrupt=bool(rule.interrupt))
            returned = {"behavior": "deny", "message": rule.message}
            if rule.interrupt is not None:
                returned["interrupt"] = rule.interrupt
        observe("can_use_tool", **seen, returned=returned)
        return result

    return can_use_tool


def hook_callback(hook):
    async def callback(hook_input: Any, tool_use_id: str | None, context: Any) -> dict:
        seen = {"event": hook.event, "input": hook_input, "tool_use_id": tool_use_id}
        if hook.matcher is not None:
            seen["matcher"] = hook.matcher
        if hook.delay_ms:
            try:
                await anyio.sleep(hook.delay_ms / 1000)
            except anyio.get_cancelled_exc_class():
                _aborted(seen, "hook")
                raise
        if hook.throw is not None:
            observe("hook", **seen, threw=hook.throw)
            raise RuntimeError(hook.throw)
        observe("hook", **seen, returned=hook.returns)
        return {_HOOK_OUTPUT_NAMES.get(k, k): v for k, v in hook.returns.items()}

    return callback


def build_options(sdk, spec: DriverSpec, fake_claude: str):
    fields: dict[str, Any] = {"cli_path": fake_claude}
    for key, value in spec.options.items():
        if key == "system_prompt":
            fields["system_prompt"] = value
        elif key == "append_system_prompt":
            fields["system_prompt"] = {"type": "preset", "preset": "claude_code", "append": value}
        else:
            fields[OPTION_FIELDS[key]] = value
    if spec.can_use_tool is not None:
        fields["can_use_tool"] = permission_callback(sdk, spec.can_use_tool)
    if spec.hooks:
        hooks: dict[str, list] = {}
        for hook in spec.hooks:
            hooks.setdefault(hook.event, []).append(
                sdk.HookMatcher(matcher=hook.matcher, hooks=[hook_callback(hook)], timeout=hook.timeout)
            )
        fields["hooks"] = hooks
    if spec.capture_stderr:
        fields["stderr"] = lambda line: observe("stderr", data=line)
    return sdk.ClaudeAgentOptions(**fields)


async def _server_info(client, member: str | None = None) -> Any:
    info = await client.get_server_info()
    return info if member is None or info is None else info.get(member)


# Spec control call -> the ClaudeSDKClient method that makes it; `a` is the call's args.
_CONTROL = {
    "interrupt": lambda c, a: c.interrupt(),
    "set_model": lambda c, a: c.set_model(a.get("model")),
    "set_permission_mode": lambda c, a: c.set_permission_mode(a["mode"]),
    "mcp_status": lambda c, a: c.get_mcp_status(),
    "get_context_usage": lambda c, a: c.get_context_usage(),
    "rewind_files": lambda c, a: c.rewind_files(a["user_message_id"]),
    "stop_task": lambda c, a: c.stop_task(a["task_id"]),
    "reconnect_mcp_server": lambda c, a: c.reconnect_mcp_server(a["server_name"]),
    "toggle_mcp_server": lambda c, a: c.toggle_mcp_server(a["server_name"], a["enabled"]),
    "initialization_result": lambda c, a: _server_info(c),
    "supported_commands": lambda c, a: _server_info(c, "commands"),
    "supported_models": lambda c, a: _server_info(c, "models"),
    "close": lambda c, a: c.disconnect(),
}


class _Calls:
    """Counts control-call tasks that have not finished (waiting, or in flight)."""

    def __init__(self, count: int):
        self.pending = count
        self._idle = anyio.Event()
        if count == 0:
            self._idle.set()

    def done(self) -> None:
        self.pending -= 1
        if self.pending == 0:
            self._idle.set()

    async def idle(self) -> None:
        await self._idle.wait()


class Session:
    def __init__(self, sdk, spec: DriverSpec, options):
        self.sdk = sdk
        self.spec = spec
        self.options = options
        self.board = TriggerBoard()
        self.results = ResultCount()

    def _on_message(self, message: Any) -> None:
        as_json = message_json(self.sdk, message)
        observe("message", message=as_json)
        self.board.on_message(as_json)
        if isinstance(message, self.sdk.ResultMessage):
            self.results.add()

    async def run(self) -> bool:
        """Carries the spec out; True when the SDK raised nothing."""
        if self.spec.prompt is not None and not self.spec.control:
            return await self._run_query()
        return await self._run_client()

    async def _run_query(self) -> bool:
        stream = self.sdk.query(prompt=self.spec.prompt, options=self.options)
        try:
            async for message in stream:
                self._on_message(message)
        except Exception as err:
            observe("error", **_error_members(err))
            return False
        finally:
            await stream.aclose()
        return True

    async def _input(self, turns: list, armed_turns: list, armed_end):
        """The input stream: each turn when its trigger fires, then the end of input."""
        sent = 0
        for turn, armed in zip(turns, armed_turns):
            if not await armed.wait():
                return
            yield turn.frame
            sent += 1
        if armed_end is not None and not await armed_end.wait():
            return
        # With control calls to make, the input stays open until the CLI answered every turn
        # (a one-shot query's input lasts until its result): a call written after the end of
        # input would have nowhere to go.
        if self.spec.control:
            await self.results.wait_for(sent)

    async def _make_call(self, client, call, armed, calls: _Calls) -> None:
        try:
            if not await armed.wait():
                return
            try:
                result = await _CONTROL[call.call](client, call.args)
            except Exception as err:
                observe("control", call=call.call, ok=False, error=str(err) or type(err).__name__)
            else:
                observe("control", call=call.call, ok=True, result=result)
        finally:
            calls.done()

    async def _run_client(self) -> bool:
        spec = self.spec
        # A prompt is written as the SDK's query() writes a string prompt.
        turns = spec.turns or [Turn(frame=user_frame(spec.prompt), when=Trigger())]
        # Everything is armed at once, so message triggers count from the session's start.
        armed_turns = [self.board.arm(turn.when) for turn in turns]
        armed_end = self.board.arm(spec.end_input) if spec.end_input is not None else None
        armed_calls = [(call, self.board.arm(call.when)) for call in spec.control]
        client = self.sdk.ClaudeSDKClient(self.options)
        ok = True
        try:
            await client.connect(prompt=self._input(turns, armed_turns, armed_end))
        except Exception as err:
            observe("error", **_error_members(err))
            return False
        try:
            calls = _Calls(len(armed_calls))
            async with anyio.create_task_group() as tasks:
                for call, armed in armed_calls:
                    tasks.start_soon(self._make_call, client, call, armed, calls)
                try:
                    async for message in client.receive_messages():
                        self._on_message(message)
                except Exception as err:
                    ok = False
                    observe("error", **_error_members(err))
                # Calls whose trigger has not fired are not made; those in flight (or due)
                # get a bounded time to report.
                self.board.abandon_all()
                with anyio.move_on_after(SETTLE_SECONDS):
                    await calls.idle()
                tasks.cancel_scope.cancel()
        finally:
            await client.disconnect()
        return ok
