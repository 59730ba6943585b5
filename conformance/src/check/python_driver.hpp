// The driver command behind `harness check --sdk python`: the bundled Python driver
// (drivers/python/driver.py) run by `python3` from PATH, once the official Python Agent SDK it
// drives has been found.
//
// How it fails: `python_driver_problem` returns why the suite cannot run (no python3 on PATH,
// no importable claude_agent_sdk) in words a usage error can print: what is missing and how to
// get it. The driver does the finding itself (`driver.py --sdk-info`), so the harness and the
// driver cannot disagree on where the SDK is.
// What it costs: one short Python process (it imports the SDK, about a second).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace claude::conformance {

std::vector<std::string> python_driver_command(const std::filesystem::path& driver_script);

std::optional<std::string> python_driver_problem(const std::vector<std::string>& command);

}  // namespace claude::conformance
