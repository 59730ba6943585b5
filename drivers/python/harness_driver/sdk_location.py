"""Finds and imports the official Python Agent SDK (`claude_agent_sdk`).

Where it looks, in this order:
  1. an importable `claude_agent_sdk` (pip-installed, or on the PYTHONPATH the caller set);
  2. the folder named by $CLAUDE_HARNESS_PYTHON_SDK_PATH when that is set, else
     `<source root>/../shared/peers/python-sdk/site` (the offline copy beside a checkout).
How it fails: `SdkMissing` says what was tried and how to get the SDK; nothing is installed.
What it costs: one import of the SDK (about half a second).
"""

import importlib
import os
import sys
from pathlib import Path

SDK_PATH_VARIABLE = "CLAUDE_HARNESS_PYTHON_SDK_PATH"
SDK_DISTRIBUTION = "claude-agent-sdk"

# drivers/python/harness_driver/sdk_location.py -> the source root is three folders up.
_SOURCE_ROOT = Path(__file__).resolve().parents[3]


class SdkMissing(Exception):
    """The SDK cannot be imported; the message says what was tried and what to do."""


def sdk_folder() -> Path:
    """The folder searched when the SDK is not importable as installed."""
    override = os.environ.get(SDK_PATH_VARIABLE)
    if override:
        return Path(override)
    return _SOURCE_ROOT.parent / "shared" / "peers" / "python-sdk" / "site"


def import_sdk():
    """Returns the imported `claude_agent_sdk` module, or raises SdkMissing."""
    try:
        return importlib.import_module("claude_agent_sdk")
    except ModuleNotFoundError as err:
        if err.name != "claude_agent_sdk":
            raise SdkMissing(f"claude_agent_sdk is installed but cannot be imported: {err}") from err
    folder = sdk_folder()
    if not (folder / "claude_agent_sdk" / "__init__.py").is_file():
        how = (
            f"${SDK_PATH_VARIABLE} names {folder}"
            if os.environ.get(SDK_PATH_VARIABLE)
            else f"{folder} does not exist (set ${SDK_PATH_VARIABLE} to a folder holding it)"
        )
        raise SdkMissing(
            f"the Python Agent SDK is not importable: `import claude_agent_sdk` fails and {how}, "
            f"which has no claude_agent_sdk/. Install it with `pip install {SDK_DISTRIBUTION}` "
            f"or point ${SDK_PATH_VARIABLE} at a folder that holds claude_agent_sdk/"
        )
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module("claude_agent_sdk")
    except ImportError as err:
        raise SdkMissing(
            f"claude_agent_sdk in {folder} cannot be imported: {err} (Debian: apt-get install "
            "python3-jsonschema python3-sniffio python3-idna python3-typing-extensions)"
        ) from err


def describe(sdk) -> str:
    """One line naming the SDK version and where it was imported from."""
    return f"{SDK_DISTRIBUTION} {sdk.__version__} from {Path(sdk.__file__).parent}"
