#!/usr/bin/env python3
"""The tests' layout rules (tests/README.md), checked over tests/ of a source tree.

Usage: check_test_layout.py SOURCE_DIR

A test folder compiles only its own sources and reaches the rest of the repository through
targets: a library's public headers, its declared internal target (claude::sdk_internals,
claude::emulator_internals, claude::model_stub_internals) for the headers under its src/, and
claude::test_support (tests/support) for child processes, temporary folders and recordings.
So under tests/, outside tests/support:
  - a CMakeLists.txt adds no include folder outside its own (no `../`, no path from the top:
    that is how another folder's or library's src/ headers were reached);
  - a CMakeLists.txt compiles no source file from outside its own folder (examples/ excepted:
    tests/install builds the public example programs as their readers would);
  - a C or C++ file includes nothing through `../` and calls no posix_spawn: children start
    through claude::test_support, which stands on claude::base's spawn.
Prints one line per violation (file:line: rule) and exits 1 when there is any, 0 otherwise.
"""
import pathlib
import re
import sys

SOURCE_SUFFIXES = {".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp"}
FILE_ARG = re.compile(r"\.(c|cc|cpp|cxx|h|hh|hpp)$")
COMPILING_CALLS = ("add_executable", "add_library", "claude_harness_add_gtest", "target_sources")
INCLUDE_CALLS = ("target_include_directories", "include_directories")
OWN_FOLDER = ("${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_BINARY_DIR}")
ALLOWED_FROM_TOP = ("${PROJECT_SOURCE_DIR}/examples/", "${PROJECT_SOURCE_DIR}/tests/support/")


def strip_cmake_comments(text):
    return "\n".join(re.sub(r"(^|\s)#.*$", "", line) for line in text.split("\n"))


def calls(text, names):
    """(name, line, arguments) for each call of one of `names` (arguments split on whitespace)."""
    pattern = re.compile(r"\b(" + "|".join(names) + r")\s*\(")
    for match in pattern.finditer(text):
        depth, end = 1, match.end()
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        line = text.count("\n", 0, match.start()) + 1
        yield match.group(1), line, text[match.end():end - 1].split()


def outside_own_folder(argument):
    if argument.startswith(OWN_FOLDER):
        return ".." in argument
    if argument.startswith(ALLOWED_FROM_TOP):
        return False
    # A path from a folder variable (${PROJECT_SOURCE_DIR}/…, ${SOME_DIR}/…) or from the root;
    # other variables (${test}_test.cpp) name a file here.
    from_a_folder = re.match(r"\$\{\w*DIR\}", argument)
    return bool(".." in argument or argument.startswith("/") or from_a_folder)


def check_cmake(path, rel, problems):
    text = strip_cmake_comments(path.read_text())
    for name, line, args in calls(text, INCLUDE_CALLS):
        for arg in args:
            if arg in ("PRIVATE", "PUBLIC", "INTERFACE", "BEFORE", "AFTER", "SYSTEM"):
                continue
            if arg.startswith("$<") or (arg == args[0] and name.startswith("target_")):
                continue
            if outside_own_folder(arg.strip('"')):
                problems.append(f"{rel}:{line}: {name} reaches outside the folder ({arg}); "
                                "link the library's declared internal target instead")
    for name, line, args in calls(text, COMPILING_CALLS):
        for arg in args:
            arg = arg.strip('"')
            if FILE_ARG.search(arg) and outside_own_folder(arg):
                problems.append(f"{rel}:{line}: {name} compiles {arg} from another folder; "
                                "move what is shared into tests/support (claude::test_support)")


INCLUDE_UP = re.compile(r'^\s*#\s*include\s*"[^"]*\.\./')
SPAWN_CALL = re.compile(r"\bposix_spawnp?\s*\(")


def check_source(path, rel, problems):
    for number, line in enumerate(path.read_text(errors="replace").split("\n"), 1):
        if INCLUDE_UP.search(line):
            problems.append(f"{rel}:{number}: includes through ../; link the target that "
                            "provides the header instead")
        code = re.sub(r"//.*$", "", line)
        if SPAWN_CALL.search(code):
            problems.append(f"{rel}:{number}: calls posix_spawn directly; use "
                            "claude/test_support/{run,child_process,command}.hpp")


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1]).resolve()
    tests = root / "tests"
    problems = []
    for path in sorted(tests.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith("tests/support/") or "/node_modules/" in rel:
            continue
        if path.name == "CMakeLists.txt" and path.parent != tests:
            check_cmake(path, rel, problems)
        elif path.suffix in SOURCE_SUFFIXES:
            check_source(path, rel, problems)
    for problem in sorted(problems, key=lambda p: (p.split(":")[0], int(p.split(":")[1]))):
        print(problem)
    if not problems:
        print(f"tests/ layout: ok ({tests})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
