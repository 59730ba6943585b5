#!/usr/bin/env python3
"""Fails when a source file cites a document that is not in the repository.

usage: check_citations.py SOURCE_ROOT

Looked at: sources, headers, scripts and build files (what a reader opens next to the code).
A citation is a `.md` path followed by a section (`docs/protocol.md §5.2`, `§3–§5`,
`§1.2, §1.3`) or an anchor (`docs/scenario.md#patterns`), or a `.md` path whose first folder
is `..` or a folder of the repository (`docs/sdk.md`, `../shared/<dir>/README.md`). Bare names
such as `summary.md` are file names the code writes or reads, not citations. Each citation must
name a file of the repository (relative to the citing file or to the root), each `§N` a numbered
heading of it (`## N.` or `### N`), each anchor a heading whose GitHub slug it is. A section sign
right after an upper-case word with no file (`EDGE_CASES`, then a space and `§3`) names a
document nobody can open, and is reported too. Documents outside the repository (design notes
beside a checkout) cannot be read by someone with only the repository, so they count as broken.

Exit 0: every citation resolves. Exit 1: one line per broken citation, `FILE:LINE: reason`.
Exit 2: usage error.
"""
import os
import re
import subprocess
import sys

SOURCE_EXTENSIONS = {".c", ".cc", ".cpp", ".h", ".hpp", ".in", ".py", ".rb", ".ts", ".js", ".mjs",
                     ".cjs", ".sh", ".cmake", ".go", ".ex", ".exs", ".dict"}
SOURCE_NAMES = {"CMakeLists.txt"}

# A path ending in .md that is not the tail of a longer word, path or URL.
CITATION = re.compile(r"(?<![\w/.@:~-])((?:\.\.?/)*(?:[\w.-]+/)*[\w-]+\.md)"
                      r"(#[\w-]+)?((?:[ ,;]*(?:and )?§[\d.]+(?:[–-]§?[\d.]+)?)*)")
SECTION = re.compile(r"§([\d.]+)")
# A section of a document named without its file.
NAMELESS = re.compile(r"\b([A-Z][A-Z_]{2,}) §")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for base, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".git", "build", "node_modules")]
            found += [os.path.relpath(os.path.join(base, f), root) for f in files]
        return found


def is_source(root, path):
    name = os.path.basename(path)
    if name in SOURCE_NAMES or os.path.splitext(name)[1] in SOURCE_EXTENSIONS:
        return True
    if "." in name:
        return False
    try:  # extensionless scripts: only those that start with a shebang
        with open(os.path.join(root, path), "rb") as f:
            return f.read(2) == b"#!"
    except OSError:
        return False


def github_slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(path, cache={}):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            cache[path] = [m.group(1) for m in re.finditer(r"^#+ +(.*)$", f.read(), re.M)]
    return cache[path]


def has_section(doc, number):
    number = number.rstrip(".")
    return any(re.match(re.escape(number) + r"(\.|\s)", h + " ") for h in headings(doc))


def problems(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines, 1):
        for m in CITATION.finditer(line):
            cited, anchor, sections = m.group(1), m.group(2), m.group(3)
            where = f"{path}:{number}"
            first = cited.split("/")[0]
            is_citation = anchor or sections or (
                "/" in cited and (first in (".", "..") or os.path.isdir(os.path.join(root, first))
                                  or os.path.isdir(os.path.join(root, os.path.dirname(path), first))))
            if not is_citation:
                continue
            candidates = [os.path.normpath(os.path.join(root, os.path.dirname(path), cited)),
                          os.path.normpath(os.path.join(root, cited))]
            doc = next((c for c in candidates
                        if os.path.isfile(c) and os.path.commonpath([c, root]) == root), None)
            if doc is None:
                yield f"{where}: cites {cited}, which is not a file of this repository"
                continue
            if anchor and github_slug(anchor[1:]) not in {github_slug(h) for h in headings(doc)}:
                yield f"{where}: {cited} has no heading for the anchor {anchor}"
            for section in SECTION.findall(sections or ""):
                if not has_section(doc, section):
                    yield f"{where}: {cited} has no section §{section.rstrip('.')}"
        for m in NAMELESS.finditer(line):
            yield f"{path}:{number}: cites {m.group(1)} §…, a document that is not in this repository"


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    root = os.path.realpath(argv[1])
    found = [p for f in tracked_files(root) if is_source(root, f) for p in problems(root, f)]
    for p in found:
        print(p)
    print(f"check_citations: {len(found)} broken citation(s)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
