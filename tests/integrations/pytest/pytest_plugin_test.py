#!/usr/bin/env python3
"""The pytest plugin (integrations/pytest) as a user meets it: pytest in a subprocess.

usage: pytest_plugin_test.py FAKE_CLAUDE CASE [CLAUDE_TEE]
CASE is one of: pass, denied, twice, misuse, record-in-ci, record, doc (need pytest and the official Python
SDK: an importable claude_agent_sdk, else ../shared/peers/python-sdk/site) or install (needs pytest,
pip and setuptools: an offline `pip install --target` of the package, loaded by its entry point).
Each runs `python3 -m pytest -p pytest_fake_claude.plugin examples/...` and checks its exit code
and output. Exit 0 pass, 1 fail, 77 skipped (what is missing is printed).
"""

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SKIP = 77
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PLUGIN = ROOT / "integrations" / "pytest"
EXAMPLES = HERE / "examples"
RECORDING = ROOT / "scenarios" / "recorded" / "cli-2.1.332" / "tool-allowed" / "ts.ndjson"
SHARED_SDK = ROOT.parent / "shared" / "peers" / "python-sdk" / "site"


def sdk_path():
    """Where the official Python SDK imports from: already importable, else the shared copy."""
    if importlib.util.find_spec("claude_agent_sdk") is not None:
        return ""
    if (SHARED_SDK / "claude_agent_sdk").is_dir():
        return str(SHARED_SDK)
    return None


def run_pytest(fake_claude, args, extra_path="", env_changes=None, use_source=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FAKE_CLAUDE", "CLAUDE_TEE"))}
    env.pop("CI", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ in the source tree
    paths = [str(PLUGIN / "src")] if use_source else []
    paths += [p for p in (extra_path, env.get("PYTHONPATH")) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["FAKE_CLAUDE_BIN"] = fake_claude
    env["FAKE_CLAUDE_EXAMPLE_SCENARIO"] = str(RECORDING)
    env.update(env_changes or {})
    plugin = ["-p", "pytest_fake_claude.plugin"] if use_source else []
    with tempfile.TemporaryDirectory(prefix="pytest-plugin-test-") as work:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", *plugin, "-p", "no:cacheprovider", "-q",
             "--rootdir", work, *args],
            cwd=work, env=env, capture_output=True, text=True, timeout=120,
        )
    output = run.stdout + run.stderr
    print(f"$ pytest {' '.join(args)}  -> exit {run.returncode}\n{output}")
    return run.returncode, output


def expect(failures, condition, what):
    if not condition:
        failures.append(what)


def case_pass(fake, sdk, failures):
    code, out = run_pytest(fake, [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_tool_call"],
                           sdk, {"TOOL_DECISION": "allow"})
    expect(failures, code == 0 and "1 passed" in out, "a client that allows as recorded passes")


def case_denied(fake, sdk, failures):
    code, out = run_pytest(fake, [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_tool_call"],
                           sdk, {"TOOL_DECISION": "deny"})
    expect(failures, code == 1 and "1 failed" in out, "a client that denies fails its test")
    expect(failures, f"{RECORDING}:11: unexpected" in out, "the failure names the recording's file:line")
    expect(failures, 'at /response/response/behavior: expected "allow", got "deny"' in out,
           "the failure names the field that differed, with both values")
    expect(failures, "expected: " in out and "closest:  " in out, "expected and closest lines shown")


def case_twice(fake, sdk, failures):
    test = [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_two_sessions"]
    code, out = run_pytest(fake, test, sdk, {"TOOL_DECISION": "allow"})
    expect(failures, code == 0 and "1 passed" in out, "two sessions that both match pass")
    code, out = run_pytest(fake, test, sdk, {"TOOL_DECISION": "deny-second"})
    expect(failures, code == 1, "a second session that differs fails the test")
    expect(failures, "run 1: verdict pass" in out and "run 2: verdict fail" in out,
           "both runs are graded, the second one failing")
    expect(failures, "2 run(s), 1 failed" in out, "the summary counts both runs")


def case_misuse(fake, sdk, failures):
    code, out = run_pytest(fake, [str(EXAMPLES / "test_fixture_misuse.py")], sdk)
    expect(failures, code == 1 and "2 failed" in out, "both misuses fail")
    expect(failures, "the test never started claude" in out, "a test with no run says so")
    expect(failures, "no such scenario file" in out, "a missing scenario is named")
    code, out = run_pytest(fake, [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_tool_call"],
                           sdk, {"FAKE_CLAUDE_BIN": "/nonexistent/fake-claude"})
    expect(failures, code == 1 and "FAKE_CLAUDE_BIN names '/nonexistent/fake-claude'" in out,
           "a wrong FAKE_CLAUDE_BIN is named")


def case_record_in_ci(fake, sdk, failures):
    code, out = run_pytest(fake, [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_tool_call",
                                  "--claude-record"], sdk, {"CI": "true"})
    expect(failures, code == 1 and "--claude-record: refused because CI='true' is set" in out,
           "--claude-record is refused under CI")
    expect(failures, RECORDING.stat().st_size > 0, "the recording is untouched")


def case_record(fake, sdk, failures, tee):
    """--claude-record through claude-tee, with fake-claude playing the recording as the "real"
    CLI (no network): the new file then replays, and a client that denies fails against it."""
    with tempfile.TemporaryDirectory(prefix="pytest-plugin-record-") as work:
        recorded = Path(work) / "recorded.ndjson"
        test = [str(EXAMPLES / "test_tool_permission.py"), "-k", "test_tool_call"]
        code, out = run_pytest(fake, [*test, "--claude-record", "--claude-tee", tee,
                                      "--claude-real-cli", fake], sdk,
                               {"FAKE_CLAUDE_EXAMPLE_SCENARIO": str(recorded),
                                "FAKE_CLAUDE_SCENARIO": str(RECORDING)})
        expect(failures, code == 0 and recorded.is_file(), "--claude-record writes the scenario path")
        code, out = run_pytest(fake, test, sdk, {"FAKE_CLAUDE_EXAMPLE_SCENARIO": str(recorded)})
        expect(failures, code == 0 and "1 passed" in out, "the new recording replays")
        code, out = run_pytest(fake, test, sdk, {"FAKE_CLAUDE_EXAMPLE_SCENARIO": str(recorded),
                                                 "TOOL_DECISION": "deny"})
        expect(failures, code == 1 and f"{recorded}:" in out and "got \"deny\"" in out,
               "a client that denies fails against the new recording")
        # A test that fails while recording leaves the scenario as it was.
        before = recorded.read_bytes()
        code, out = run_pytest(fake, [*test, "--claude-record", "--claude-tee", tee,
                                      "--claude-real-cli", fake], sdk,
                               {"FAKE_CLAUDE_EXAMPLE_SCENARIO": str(recorded),
                                "FAKE_CLAUDE_SCENARIO": str(RECORDING), "TOOL_DECISION": "deny"})
        incomplete = Path(f"{recorded}.incomplete")
        expect(failures, code == 1 and "the test failed while recording" in out,
               "a failing test says its recording was not kept")
        expect(failures, recorded.read_bytes() == before and incomplete.is_file(),
               "the scenario is unchanged and the recording kept as .incomplete")


def case_doc(fake, sdk, failures):
    """docs/pytest.md's example runs as printed (its scenario path taken from the source root)."""
    page = (ROOT / "docs" / "pytest.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```", page, re.S)
    expect(failures, found is not None, "docs/pytest.md has a ```python example")
    if found is None:
        return
    with tempfile.TemporaryDirectory(prefix="pytest-plugin-doc-") as work:
        test = Path(work) / "test_doc_example.py"
        test.write_text(found.group(1).replace('"scenarios/', f'"{ROOT}/scenarios/'), encoding="utf-8")
        code, out = run_pytest(fake, [str(test)], sdk)
    expect(failures, code == 0 and "1 passed" in out, "the example passes")


def case_install(fake, failures):
    for module in ("pip", "setuptools"):
        if importlib.util.find_spec(module) is None:
            print(f"SKIP: no {module} for {sys.executable} (scripts/bootstrap installs python3-{module})")
            sys.exit(SKIP)
    with tempfile.TemporaryDirectory(prefix="pytest-plugin-install-") as target:
        # A copy of the package folder, so the build's egg-info and build/ stay out of the tree.
        source = Path(target) / "source"
        subprocess.run(["cp", "-r", str(PLUGIN), str(source)], check=True)
        site = Path(target) / "site"
        install = subprocess.run(
            [sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation",
             "--disable-pip-version-check", "--no-deps", "--target", str(site), str(source)],
            capture_output=True, text=True, timeout=300,
        )
        print(install.stdout + install.stderr)
        expect(failures, install.returncode == 0, "pip installs the package offline")
        # Loaded by its pytest11 entry point: no -p, the source folder not on the path.
        code, out = run_pytest(fake, ["--help"], str(site), use_source=False)
        expect(failures, code == 0 and "--claude-record" in out and "--fake-claude=PATH" in out,
               "the installed plugin loads through its pytest11 entry point")


def main():
    fake, case = sys.argv[1], sys.argv[2]
    if importlib.util.find_spec("pytest") is None:
        print(f"SKIP: no pytest for {sys.executable} (scripts/bootstrap installs python3-pytest)")
        return SKIP
    failures = []
    if case == "install":
        case_install(fake, failures)
    else:
        sdk = sdk_path()
        if sdk is None:
            print(f"SKIP: no official Python SDK (claude_agent_sdk not importable, no {SHARED_SDK})")
            return SKIP
        {"pass": case_pass, "denied": case_denied, "twice": case_twice, "misuse": case_misuse,
         "record-in-ci": case_record_in_ci, "doc": case_doc,
         "record": lambda f, s, out: case_record(f, s, out, sys.argv[3])}[case](fake, sdk, failures)
    for failure in failures:
        print(f"FAILED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
