// The driver commands behind `harness check --sdk python` and `--sdk ruby`: a bundled driver
// script (drivers/python/driver.py, drivers/ruby/driver.rb) run by its interpreter from PATH,
// once the SDK it drives has been found.
//
// How it fails: `script_driver_problem` returns why the suite cannot run (no interpreter on
// PATH, no loadable SDK) in words a usage error can print: what is missing and how to get it.
// The driver does the finding itself (`<script> --sdk-info`), so the harness and the driver
// cannot disagree on where the SDK is.
// What it costs: one short interpreter process (it loads the SDK, about a second).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace claude::conformance {

struct ScriptDriver {
  std::string sdk;          // the --sdk name: "python", "ruby"
  std::string interpreter;  // looked up on PATH: "python3", "ruby"
  std::string debian;       // the Debian packages that provide the interpreter
};

std::vector<std::string> script_driver_command(const ScriptDriver& driver,
                                               const std::filesystem::path& driver_script);

std::optional<std::string> script_driver_problem(const ScriptDriver& driver,
                                                 const std::vector<std::string>& command);

}  // namespace claude::conformance
