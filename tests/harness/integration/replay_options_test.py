#!/usr/bin/env python3
"""harness replay --relaxed / --ignore, and the notes of a lenient replay, end to end.

A scripted client (this file with --client) starts `claude` from PATH, writes the SDK lines of a
recording plus extra lines, waits for the `result`, then closes stdin as SDKs do.

Usage: replay_options_test.py HARNESS RECORDING
"""
import json
import subprocess
import sys

ARGV = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"]
EXTRA = '{"type":"x_unknown_extra"}'
INTERRUPT = '{"type":"control_request","request_id":"stop-1","request":{"subtype":"interrupt"}}'


def client(recording, extras):
    lines = []
    with open(recording, encoding="utf-8") as f:
        next(f)
        for text in f:
            event = json.loads(text)
            if event.get("dir") == "in" and "line" in event:
                lines.append(event["line"])
    cli = subprocess.Popen(["claude", *ARGV], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           text=True)
    cli.stdin.write("\n".join(lines + extras) + "\n")
    cli.stdin.flush()
    for line in cli.stdout:
        if '"type":"result"' in line.replace(" ", ""):
            break
    cli.stdin.close()
    cli.stdout.read()
    return cli.wait()


def replay(harness, recording, options, extras):
    command = [harness, "replay", recording, *options, "--", sys.executable, __file__,
               "--client", recording, *extras]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout + done.stderr


def main():
    if sys.argv[1] == "--client":
        return client(sys.argv[2], sys.argv[3:])
    harness, recording = sys.argv[1], sys.argv[2]
    failures = []

    def check(name, got, want, output):
        if got != want:
            failures.append(f"{name}: exit {got}, expected {want}\n{output}")

    code, output = replay(harness, recording, [], [EXTRA])
    check("a leftover line fails a strict replay", code, 1, output)
    code, output = replay(harness, recording, ["--relaxed"], [EXTRA])
    check("--relaxed lets a leftover line pass", code, 0, output)
    code, output = replay(harness, recording, ["--ignore", '{"type":"x_unknown_extra"}'], [EXTRA])
    check("--ignore drops the line", code, 0, output)
    code, output = replay(harness, recording, ["--ignore", "{not json"], [])
    check("--ignore with no JSON is a usage error", code, 2, output)
    code, output = replay(harness, recording, [], [INTERRUPT])
    check("an idle interrupt passes", code, 0, output)
    if "note:" not in output or "interrupt" not in output:
        failures.append("the idle interrupt is not reported as a note:\n" + output)
    for failure in failures:
        print("FAIL", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
