#!/usr/bin/env python3
"""The smallest Python stand-in for the Claude Code CLI that an SDK can initialize against.

Row (a) of bench/compare times spawn -> `initialize` reply for it: the floor any fake CLI written
in Python pays (interpreter start-up and stdin/stdout setup), next to fake-claude.
Reads NDJSON from stdin; answers each `initialize` control request with a success response and
ignores every other line. Exit codes: 0 at stdin EOF, 2 on any argument other than --help.
"""
import json
import sys


def main() -> int:
    if len(sys.argv) > 1:
        if sys.argv[1] in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        print(f"fake-cli.py: unexpected argument {sys.argv[1]}", file=sys.stderr)
        return 2
    for line in sys.stdin:
        try:
            frame = json.loads(line)
        except ValueError:
            continue
        request = frame.get("request") if isinstance(frame, dict) else None
        if frame.get("type") == "control_request" and isinstance(request, dict) \
                and request.get("subtype") == "initialize":
            reply = {"type": "control_response",
                     "response": {"subtype": "success", "request_id": frame.get("request_id"),
                                  "response": {"commands": [], "models": []}}}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
