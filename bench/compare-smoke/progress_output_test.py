#!/usr/bin/env python3
"""bench/compare's progress output: a live line on a terminal, plain lines on a pipe, none with --quiet.

usage: progress_output_test.py COMPARE BUILD_DIR OUT_JSON   (exit 0 pass, 1 fail)
Measures only row d in --quick mode, the cheapest row.
"""
import os
import pty
import subprocess
import sys


def on_terminal(argv):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm"
        os.execv(argv[0], argv)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the child side is closed
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace")


def main(compare, build_dir, out_json):
    base = [sys.executable, compare, "--quick", "--rows", "d", "--build-dir", build_dir,
            "--out", out_json]
    failures = []
    code, text = on_terminal(base)
    if code != 0 or "\r\x1b[Kbench/compare row 1/1 (d: " not in text:
        failures.append(f"terminal: exit {code}, no live line in {text!r}")
    piped = subprocess.run(base, capture_output=True, text=True)
    if piped.returncode != 0 or "\x1b[" in piped.stderr or "bench/compare row 1/1" not in piped.stderr:
        failures.append(f"pipe: exit {piped.returncode}, stderr {piped.stderr!r}")
    code, text = on_terminal(base + ["--quiet"])
    if code != 0 or "bench/compare row" in text:
        failures.append(f"--quiet: exit {code}, progress shown in {text!r}")
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
