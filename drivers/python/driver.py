#!/usr/bin/env python3
"""Conformance driver for the official Python Agent SDK (claude-agent-sdk), docs/drivers.md.

Reads a driver spec, makes the SDK do what it says against fake-claude and prints what the SDK
surfaced as NDJSON observations on stdout. The SDK's own failures are observations: the driver
exits 0 whenever it could carry the spec out.
"""

import os
import sys

# The driver's own modules sit beside it; keep the (possibly read-only) install tree free of
# __pycache__ folders.
sys.dont_write_bytecode = True

import json  # noqa: E402
import threading  # noqa: E402
from pathlib import Path  # noqa: E402

from harness_driver import sdk_location  # noqa: E402
from harness_driver.observations import end, observe  # noqa: E402
from harness_driver.spec import SpecError, UnsupportedFeature, parse_spec  # noqa: E402

USAGE = """usage: driver.py [--spec FILE] [--scenario FILE] [--fake-claude PATH]
       driver.py --sdk-info

Runs one driver spec (docs/drivers.md) with the official Python Agent SDK (claude-agent-sdk)
against fake-claude and writes what the SDK surfaced as NDJSON observations to stdout.

  --spec FILE         driver spec (JSON). Default: $CLAUDE_HARNESS_DRIVER_SPEC, else the "driver"
                      member of the scenario's header line.
  --scenario FILE     scenario for fake-claude, handed over in FAKE_CLAUDE_SCENARIO.
                      Default: $FAKE_CLAUDE_SCENARIO.
  --fake-claude PATH  the executable the SDK starts instead of claude. Default: $FAKE_CLAUDE.
  --sdk-info          print which SDK would be used and exit (0 found, 2 not found).
  -h, --help          this text.

The SDK is `import claude_agent_sdk` when that works, else the one in
$CLAUDE_HARNESS_PYTHON_SDK_PATH, else <source root>/../shared/peers/python-sdk/site.
FAKE_CLAUDE_REPORT and the rest of the environment are passed on to the CLI.

Exit codes: 0 spec carried out (SDK errors are observations), 2 usage, bad spec or no SDK,
3 the session did not end within timeout_ms (or the driver broke), 4 the spec needs a feature
this driver lacks (an "unsupported" observation names it)."""

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BROKEN = 3
EXIT_UNSUPPORTED = 4
NAME = "driver.py"


def parse_args(argv: list) -> dict:
    args = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--help", "-h", "--sdk-info"):
            args["sdk-info" if arg == "--sdk-info" else "help"] = True
            i += 1
            continue
        name, eq, value = arg.partition("=")
        if name not in ("--spec", "--scenario", "--fake-claude"):
            raise SpecError(f"unknown argument '{arg}' (see --help)")
        if not eq:
            if i + 1 >= len(argv):
                raise SpecError(f"{name} needs a value")
            i += 1
            value = argv[i]
        args[name[2:]] = value
        i += 1
    return args


def read_text(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise SpecError(f"{path}: cannot read {what}: {err}") from err


def spec_from_file(path: str):
    text = read_text(path, "driver spec")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise SpecError(f"{path}:{err.lineno}: driver spec is not valid JSON: {err.msg}") from err


def spec_from_scenario(path: str):
    for number, line in enumerate(read_text(path, "scenario").split("\n"), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            header = json.loads(stripped)
        except json.JSONDecodeError as err:
            raise SpecError(f"{path}:{number}: scenario header is not valid JSON: {err.msg}") from err
        if not isinstance(header, dict) or "driver" not in header:
            raise SpecError(
                f'{path}:{number}: scenario header has no "driver" member and no --spec was given'
            )
        return header["driver"]
    raise SpecError(f"{path}: scenario is empty")


def setting(args: dict, flag: str, variable: str):
    return args.get(flag) or os.environ.get(variable) or None


def kill_children() -> None:
    """Kills the driver's own children (the CLI), so a timed-out run leaves nothing behind.
    They are found by parent pid: the driver's process group may be the grader's."""
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # Field 4 (ppid) follows the parenthesised command name, which may hold spaces.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1] == str(me):
            try:
                os.kill(int(entry), 9)
            except OSError:
                pass


def arm_watchdog(timeout_ms: int) -> threading.Timer:
    def expire() -> None:
        timed_out = {"message": f"driver: the session did not end within {timeout_ms} ms",
                     "name": "Timeout"}
        if end(("error", timed_out), ("end", {"ok": False, "timeout": True})):
            kill_children()
            os._exit(EXIT_BROKEN)

    timer = threading.Timer(timeout_ms / 1000, expire)
    timer.daemon = True
    timer.start()
    return timer


def run(args: dict) -> int:
    fake_claude = setting(args, "fake-claude", "FAKE_CLAUDE")
    if not fake_claude:
        raise SpecError("no fake-claude path: give --fake-claude PATH or set FAKE_CLAUDE")
    scenario = setting(args, "scenario", "FAKE_CLAUDE_SCENARIO")
    spec_path = setting(args, "spec", "CLAUDE_HARNESS_DRIVER_SPEC")
    if spec_path:
        raw = spec_from_file(spec_path)
    elif scenario:
        raw = spec_from_scenario(scenario)
    else:
        raise SpecError(
            "no driver spec: give --spec FILE, set CLAUDE_HARNESS_DRIVER_SPEC, or give --scenario"
        )
    if not isinstance(raw, dict):
        raise SpecError("the driver spec must be a JSON object (docs/driver-spec.schema.json)")
    spec = parse_spec(raw)
    try:
        sdk = sdk_location.import_sdk()
    except sdk_location.SdkMissing as err:
        raise SpecError(str(err)) from err
    # The SDK builds the CLI's argv itself; fake-claude also reads its scenario from here, and
    # the SDK passes the driver's environment on to the CLI.
    if scenario:
        os.environ["FAKE_CLAUDE_SCENARIO"] = scenario

    import anyio

    from harness_driver.session import Session, build_options

    observe("start", driver="python", sdk=sdk_location.SDK_DISTRIBUTION, sdk_version=sdk.__version__)
    options = build_options(sdk, spec, fake_claude)
    watchdog = arm_watchdog(spec.timeout_ms)
    ok = anyio.run(Session(sdk, spec, options).run)
    watchdog.cancel()
    if not end(("end", {"ok": ok})):
        # The watchdog fired first and the session ended of its kill: it exits 3 in a moment.
        threading.Event().wait()
    return EXIT_OK


def sdk_info() -> int:
    try:
        sdk = sdk_location.import_sdk()
    except sdk_location.SdkMissing as err:
        sys.stderr.write(f"{NAME}: {err}\n")
        return EXIT_USAGE
    print(sdk_location.describe(sdk))
    return EXIT_OK


def main() -> int:
    try:
        args = parse_args(sys.argv[1:])
        if args.get("help"):
            print(USAGE)
            return EXIT_OK
        if args.get("sdk-info"):
            return sdk_info()
        return run(args)
    except UnsupportedFeature as err:
        observe("unsupported", feature=str(err))
        sys.stderr.write(f"{NAME}: unsupported by the Python driver: {err}\n")
        return EXIT_UNSUPPORTED
    except SpecError as err:
        sys.stderr.write(f"{NAME}: {err}\n")
        return EXIT_USAGE
    except Exception as err:  # a driver bug: say so, as the protocol's "driver broke"
        import traceback

        sys.stderr.write(f"{NAME}: internal error: {err}\n{traceback.format_exc()}")
        return EXIT_BROKEN


if __name__ == "__main__":
    sys.exit(main())
