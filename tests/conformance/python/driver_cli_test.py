#!/usr/bin/env python3
"""The Python driver's command-line contract (docs/drivers.md): usage, bad specs, unsupported
features and a hung session are told apart by exit code and observations.

usage: driver_cli_test.py FAKE_CLAUDE   (run through with_sdk.py: the last cases start the SDK)
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRIVER = HERE.parents[2] / "drivers" / "python" / "driver.py"
FAKE_CLAUDE = sys.argv[1] if len(sys.argv) > 1 else None


class DriverCommandLine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="python-driver-cli-")
        # Never started: every case that uses it ends before the SDK would spawn a CLI.
        cls.unused_cli = os.path.join(cls.work.name, "not-spawned")

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def run_driver(self, args, env=None, timeout=60):
        clean = {
            k: v
            for k, v in os.environ.items()
            if k not in ("FAKE_CLAUDE", "FAKE_CLAUDE_SCENARIO", "CLAUDE_HARNESS_DRIVER_SPEC",
                         "FAKE_CLAUDE_REPORT")
        }
        return subprocess.run(
            [sys.executable, str(DRIVER), *args],
            env={**clean, **(env or {})},
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def spec_file(self, name, spec):
        path = os.path.join(self.work.name, name)
        with open(path, "w", encoding="utf-8") as out:
            out.write(spec if isinstance(spec, str) else json.dumps(spec))
        return path

    def run_spec(self, name, spec):
        return self.run_driver(["--spec", self.spec_file(name, spec), "--fake-claude", self.unused_cli])

    @staticmethod
    def observations(stdout):
        return [json.loads(line) for line in stdout.splitlines() if line]

    def assert_unsupported(self, run, feature_start):
        self.assertEqual(run.returncode, 4, run.stderr)
        seen = self.observations(run.stdout)
        self.assertEqual([o["obs"] for o in seen], ["unsupported"])
        self.assertTrue(seen[0]["feature"].startswith(feature_start), seen[0]["feature"])

    def test_help_prints_usage_with_the_exit_codes(self):
        run = self.run_driver(["--help"])
        self.assertEqual(run.returncode, 0)
        self.assertIn("usage: driver.py", run.stdout)
        self.assertIn("4 the spec needs a feature", run.stdout)

    def test_an_unknown_argument_is_a_usage_error(self):
        run = self.run_driver(["--frobnicate"])
        self.assertEqual(run.returncode, 2)
        self.assertIn("unknown argument '--frobnicate'", run.stderr)

    def test_without_a_fake_claude_path_the_driver_says_how_to_give_one(self):
        run = self.run_driver(["--spec", self.spec_file("plain.json", {"prompt": "hi"})])
        self.assertEqual(run.returncode, 2)
        self.assertIn("FAKE_CLAUDE", run.stderr)

    def test_a_spec_that_is_not_json_is_reported_with_file_and_line(self):
        path = self.spec_file("broken.json", '{"prompt": ')
        run = self.run_driver(["--spec", path, "--fake-claude", self.unused_cli])
        self.assertEqual(run.returncode, 2)
        self.assertIn(f"{path}:1: driver spec is not valid JSON", run.stderr)

    def test_the_spec_is_taken_from_claude_harness_driver_spec(self):
        path = self.spec_file("env.json", {"prompt": "hi", "options": {"warp_speed": 9}})
        run = self.run_driver([], {"CLAUDE_HARNESS_DRIVER_SPEC": path, "FAKE_CLAUDE": self.unused_cli})
        self.assert_unsupported(run, "options.warp_speed")

    def test_a_scenario_header_without_driver_is_a_usage_error_naming_the_line(self):
        path = self.spec_file("no-driver.ndjson", '# comment\n\n{"scenario":1,"name":"x"}\n{"exit":0}\n')
        run = self.run_driver(["--scenario", path, "--fake-claude", self.unused_cli])
        self.assertEqual(run.returncode, 2)
        self.assertIn(f'{path}:3: scenario header has no "driver" member', run.stderr)

    def test_a_control_call_the_sdk_lacks_is_unsupported(self):
        spec = {"prompt": "hi", "control": [{"call": "set_max_thinking_tokens",
                                             "args": {"max_thinking_tokens": 10}}]}
        self.assert_unsupported(self.run_spec("thinking.json", spec), "control.set_max_thinking_tokens")

    def test_a_dry_run_rewind_is_unsupported(self):
        spec = {"prompt": "hi", "control": [{"call": "rewind_files",
                                             "args": {"user_message_id": "u1", "dry_run": True}}]}
        self.assert_unsupported(self.run_spec("rewind.json", spec), "control.rewind_files.dry_run")

    def test_an_unknown_option_is_unsupported(self):
        run = self.run_spec("option.json", {"prompt": "hi", "options": {"warp_speed": 9}})
        self.assert_unsupported(run, "options.warp_speed")

    def test_an_sdk_hosted_mcp_server_is_unsupported_and_says_why(self):
        spec = {"prompt": "hi", "mcp_servers": [{"name": "calc", "tools": []}]}
        run = self.run_spec("mcp.json", spec)
        self.assert_unsupported(run, "mcp_servers")
        self.assertIn("stand-in", self.observations(run.stdout)[0]["feature"])

    def test_sdk_info_names_the_sdk_and_its_version(self):
        run = self.run_driver(["--sdk-info"])
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertRegex(run.stdout, r"^claude-agent-sdk \d+\.\d+\.\d+ from /")

    @unittest.skipUnless(FAKE_CLAUDE, "needs the fake-claude path as the first argument")
    def test_the_spec_comes_from_the_scenario_header_and_the_scenario_reaches_fake_claude(self):
        report = os.path.join(self.work.name, "header.report.json")
        run = self.run_driver(
            ["--scenario", str(HERE / "data" / "one-turn.ndjson"), "--fake-claude", FAKE_CLAUDE],
            {"FAKE_CLAUDE_REPORT": report},
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        seen = self.observations(run.stdout)
        self.assertEqual(seen[0]["obs"], "start")
        self.assertEqual(seen[0]["driver"], "python")
        messages = [o["message"] for o in seen if o["obs"] == "message"]
        self.assertEqual([m["sdk_class"] for m in messages],
                         ["SystemMessage", "AssistantMessage", "ResultMessage"])
        self.assertEqual(messages[1]["message"]["content"], [{"type": "text", "text": "one turn"}])
        self.assertEqual(seen[-1]["obs"], "end")
        self.assertTrue(seen[-1]["ok"])
        with open(report, encoding="utf-8") as verdict:
            self.assertEqual(json.load(verdict)["verdict"], "pass")

    @unittest.skipUnless(FAKE_CLAUDE, "needs the fake-claude path as the first argument")
    def test_a_session_that_outlives_timeout_ms_exits_3_and_leaves_no_cli_behind(self):
        scenario = str(HERE / "data" / "hangs.ndjson")
        started = time.monotonic()
        run = self.run_driver(["--scenario", scenario, "--fake-claude", FAKE_CLAUDE])
        self.assertEqual(run.returncode, 3, run.stderr)
        self.assertLess(time.monotonic() - started, 30)
        seen = self.observations(run.stdout)
        self.assertEqual(seen[-2]["name"], "Timeout")
        self.assertEqual(seen[-1], {**seen[-1], "obs": "end", "ok": False, "timeout": True})
        left = subprocess.run(["pgrep", "-f", scenario], capture_output=True, text=True)
        self.assertEqual(left.stdout, "", "a fake-claude outlived the driver")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
