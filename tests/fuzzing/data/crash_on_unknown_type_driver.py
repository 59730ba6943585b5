#!/usr/bin/env python3
"""A deliberately broken driver (docs/drivers.md) for the harness fuzz tests: it speaks
stream-json to fake-claude itself and looks every message type up in a table, so a type it
does not know raises an uncaught KeyError (exit 1 with a traceback), as a careless SDK would."""
import json
import os
import subprocess
import sys
import time

START = time.monotonic()


def observe(**members):
    members["t_ms"] = int((time.monotonic() - START) * 1000)
    print(json.dumps(members), flush=True)


def prompt_of(scenario):
    with open(scenario, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.lstrip().startswith("#"):
                return json.loads(line)["driver"]["prompt"]
    raise SystemExit(2)


KIND = {"system": "system", "assistant": "assistant", "user": "user", "result": "result",
        "stream_event": "stream_event", "control_request": "control", "control_response": "control",
        "control_cancel_request": "control", "keep_alive": "keep_alive"}


def main():
    scenario = os.environ["FAKE_CLAUDE_SCENARIO"]
    observe(obs="start", driver="crash-on-unknown-type", sdk="none", sdk_version="0")
    cli = subprocess.Popen([os.environ["FAKE_CLAUDE"], "--output-format", "stream-json",
                            "--input-format", "stream-json", "--verbose"],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    user = {"type": "user", "session_id": "", "parent_tool_use_id": None,
            "message": {"role": "user", "content": [{"type": "text", "text": prompt_of(scenario)}]}}
    cli.stdin.write(json.dumps(user) + "\n")
    cli.stdin.flush()
    for line in cli.stdout:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = KIND[message["type"]]  # the bug: an unknown type raises KeyError
        if kind == "control" and message["type"] == "control_request":
            answer = {"type": "control_response", "response": {
                "subtype": "error", "request_id": message["request_id"], "error": "unsupported"}}
            cli.stdin.write(json.dumps(answer) + "\n")
            cli.stdin.flush()
            continue
        observe(obs="message", message=message)
        if kind == "result":
            break
    cli.stdin.close()
    cli.wait()
    observe(obs="end", ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
