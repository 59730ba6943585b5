#!/usr/bin/env python3
"""Each man page says exactly what its executable's --help says, and is clean roff.

usage: check_man_pages.py MAN_DIR BIN_DIR NAME...   (exit 0 pass, 1 fail)
For NAME: MAN_DIR/NAME.1 must exist; its DESCRIPTION block must be `BIN_DIR/NAME --help` verbatim;
every subcommand section ("NAME SUB") must be `NAME SUB --help`; and `groff -k -man -ww -z` (UTF-8 through preconv) must not
warn.
"""
import os
import re
import shutil
import subprocess
import sys


def unescape(block):
    lines = []
    for line in block.split("\n"):
        if line.startswith("\\&"):
            line = line[2:]
        lines.append(line.replace("\\e", "\\"))
    return "\n".join(lines)


def sections(page):
    """SECTION title -> its preformatted text (between .nf and .fi), unescaped."""
    found = {}
    for match in re.finditer(r'^\.SH "?([^"\n]*)"?\n\.nf\n(.*?)\n\.fi$', page, re.S | re.M):
        found[match.group(1)] = unescape(match.group(2))
    return found


def help_of(argv):
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.rstrip("\n")


def check(man_dir, bin_dir, name):
    problems = []
    path = os.path.join(man_dir, f"{name}.1")
    if not os.path.isfile(path):
        return [f"{path}: missing"]
    page = open(path, encoding="utf-8").read()
    found = sections(page)
    exe = os.path.join(bin_dir, name)
    if found.get("DESCRIPTION") != help_of([exe, "--help"]):
        problems.append(f"{path}: DESCRIPTION differs from `{name} --help`")
    prefix = name.upper() + " "
    for title, text in found.items():
        if title.startswith(prefix):
            sub = title[len(prefix):]
            if text != help_of([exe, sub, "--help"]):
                problems.append(f"{path}: section {title} differs from `{name} {sub} --help`")
    if not page.startswith(".\\\"") or f"\n.SH NAME\n{name} \\- " not in page:
        problems.append(f"{path}: no NAME line")
    if shutil.which("groff"):
        result = subprocess.run(["groff", "-k", "-man", "-ww", "-z", path], capture_output=True, text=True)
        if result.returncode != 0 or result.stderr.strip():
            problems.append(f"{path}: groff warns: {result.stderr.strip()}")
    return problems


def main(man_dir, bin_dir, *names):
    problems = [p for name in names for p in check(man_dir, bin_dir, name)]
    for p in problems:
        print(p)
    print(f"{len(names)} man pages checked, {len(problems)} problems")
    return 1 if problems or not names else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
