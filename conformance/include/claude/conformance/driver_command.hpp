// The driver command for `--sdk NAME|CMD` (docs/drivers.md), shared by `harness check` and
// `harness fuzz`, and where the bundled data (scenarios/, drivers/) lives.
//
// What it is: `cpp` → claude-harness-driver-cpp beside the running executable; `ts` → node on the
// bundled drivers/ts/driver.mjs; `python` → python3 on drivers/python/driver.py once the official
// Python SDK is found; anything else is a command split on spaces (never run through a shell).
//
// How it fails: `driver_command` throws DriverCommandError with a message a usage error can print
// (the TypeScript SDK is not installed, python3 or the Python SDK is missing, an empty command).
//
// What it costs: `python` starts one short Python process to locate the SDK; the rest is string
// work and a few stat calls.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace claude::conformance {

struct DriverCommandError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::vector<std::string> driver_command(const std::string& sdk);

// The directory of the running executable (/proc/self/exe), else the current directory.
std::filesystem::path self_directory();

// Bundled data `what` ("scenarios", "drivers"): the installed <prefix>/share/claude-harness/what
// when it exists, else the source tree this build came from.
std::filesystem::path data_directory(std::string_view what);

}  // namespace claude::conformance
