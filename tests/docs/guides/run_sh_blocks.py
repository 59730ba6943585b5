#!/usr/bin/env python3
"""Runs the ```sh blocks of a guide, in order, as one bash script in a fresh $HOME.

usage: run_sh_blocks.py GUIDE.md BUILD_DIR [--skip REGEX]... [--replace REGEX=>TEXT]...

The commands come from the page itself, so the page and its test cannot drift apart. A guide
line that only makes sense on a reader's machine is mapped by the test's arguments: `--skip`
drops lines matching REGEX, `--replace` substitutes TEXT for the match (`{build}` in TEXT is
BUILD_DIR). Every rule must match at least one line: a rule left over means the page changed,
and the test says so instead of running something else. The script runs with `set -eu` in a
temporary directory, which is also $HOME. Exit 0 when every command succeeded.
"""

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    guide, build = Path(args[0]), Path(args[1]).resolve()
    rules = []  # (kind, pattern, replacement, used)
    rest = args[2:]
    while rest:
        flag, value = rest[0], rest[1]
        rest = rest[2:]
        if flag == "--skip":
            rules.append(["skip", re.compile(value), "", False])
        elif flag == "--replace":
            pattern, _, text = value.partition("=>")
            rules.append(["replace", re.compile(pattern), text.replace("{build}", str(build)), False])
        else:
            print(f"unknown flag {flag}", file=sys.stderr)
            return 2

    lines = []
    for block in sh_blocks(guide.read_text(encoding="utf-8")):
        for line in block.splitlines():
            for rule in rules:
                if rule[1].search(line):
                    rule[3] = True
                    line = "" if rule[0] == "skip" else rule[1].sub(rule[2], line)
            lines.append(line)
    unused = [r[1].pattern for r in rules if not r[3]]
    if unused:
        print(f"{guide}: no line matches {unused}: the guide changed, update its test", file=sys.stderr)
        return 1
    if not any(line.strip() for line in lines):
        print(f"{guide}: no sh block", file=sys.stderr)
        return 1
    script = "set -eu\n" + "\n".join(lines) + "\n"
    print(script)
    with tempfile.TemporaryDirectory(prefix="guide-") as home:
        env = dict(os.environ, HOME=home)
        run = subprocess.run(["bash", "-c", script], cwd=home, env=env)
    print(f"{guide}: {'every command passed' if run.returncode == 0 else f'exit {run.returncode}'}")
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
