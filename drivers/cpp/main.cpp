// claude-harness-driver-cpp: the conformance driver for the C++ SDK (docs/drivers.md).
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "claude/base/cli.hpp"
#include "claude/base/excerpt.hpp"
#include "claude/base/input_file.hpp"
#include "claude/sdk/options.hpp"
#include "driver_run.hpp"
#include "driver_spec.hpp"
#include "observation_log.hpp"

namespace {

using claude::driver::SpecError;
using nlohmann::json;

constexpr int kExitUsage = 2;
constexpr int kExitBroken = 3;
constexpr int kExitUnsupported = 4;

constexpr const char* kUsage =
    "usage: claude-harness-driver-cpp [--spec FILE] [--scenario FILE] [--fake-claude PATH]\n"
    "\n"
    "Runs one driver spec (docs/drivers.md) with the C++ SDK (claude::sdk) against fake-claude\n"
    "and writes what the SDK surfaced as NDJSON observations on stdout.\n"
    "\n"
    "  --spec FILE         driver spec (JSON). Default: $CLAUDE_HARNESS_DRIVER_SPEC, else the\n"
    "                      \"driver\" member of the scenario's header line.\n"
    "  --scenario FILE     scenario for fake-claude, passed as --scenario FILE on its argv.\n"
    "                      Default: $FAKE_CLAUDE_SCENARIO.\n"
    "  --fake-claude PATH  the executable the SDK starts instead of claude. Default: "
    "$FAKE_CLAUDE.\n"
    "  -h, --help          this text.\n"
    "\n"
    "FAKE_CLAUDE_REPORT and the rest of the environment are passed on to the CLI.\n"
    "\n"
    "Exit codes: 0 spec carried out (SDK errors are observations), 2 usage or bad spec,\n"
    "3 the session did not end within timeout_ms (or the driver broke), 4 the spec needs a\n"
    "feature the C++ SDK lacks (an \"unsupported\" observation names it).\n";

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

std::string read_file(const std::string& path, const char* what) {
  std::string error;
  auto text = claude::base::read_input_file(path, error, {claude::base::kMaxConfigFileBytes});
  if (!text) throw SpecError(path + ": cannot read " + what + ": " + error);
  return std::move(*text);
}

json spec_from_file(const std::string& path) {
  try {
    return json::parse(read_file(path, "driver spec"));
  } catch (const json::parse_error& e) {
    throw SpecError(path + ":1: driver spec is not valid JSON: " + claude::base::excerpt(e.what()));
  }
}

json spec_from_scenario(const std::string& path) {
  std::istringstream lines(read_file(path, "scenario"));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    json header;
    try {
      header = json::parse(line);
    } catch (const json::parse_error& e) {
      throw SpecError(path + ":" + std::to_string(number) +
                      ": scenario header is not valid JSON: " + claude::base::excerpt(e.what()));
    }
    if (!header.is_object() || !header.contains("driver"))
      throw SpecError(path + ":" + std::to_string(number) +
                      ": scenario header has no \"driver\" member and no --spec was given");
    return header["driver"];
  }
  throw SpecError(path + ": scenario is empty");
}

}  // namespace

int main(int argc, char** argv) {
  claude::driver::ObservationLog log(stdout);
  try {
    std::map<std::string, std::optional<std::string>> flags;
    CLI::App app;
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    for (const char* name : {"--spec", "--scenario", "--fake-claude"}) {
      app.add_option(name, flags[name]);
    }
    const claude::base::CommandLineText text{"claude-harness-driver-cpp", kUsage, "(see --help)\n",
                                             false, "unknown argument"};
    if (auto exit = claude::base::parse_command_line(app, claude::base::arguments(argc, argv), text,
                                                     std::cout, std::cerr)) {
      return *exit;
    }
    auto flag = [&](const char* name, const char* variable) {
      return flags[name] ? flags[name] : env(variable);
    };

    claude::driver::DriverInvocation invocation;
    auto fake = flag("--fake-claude", "FAKE_CLAUDE");
    if (!fake) throw SpecError("no fake-claude path: give --fake-claude PATH or set FAKE_CLAUDE");
    invocation.fake_claude = *fake;
    invocation.scenario = flag("--scenario", "FAKE_CLAUDE_SCENARIO");
    json spec;
    if (auto path = flag("--spec", "CLAUDE_HARNESS_DRIVER_SPEC"))
      spec = spec_from_file(*path);
    else if (invocation.scenario)
      spec = spec_from_scenario(*invocation.scenario);
    else
      throw SpecError(
          "no driver spec: give --spec FILE, set CLAUDE_HARNESS_DRIVER_SPEC, or give --scenario");
    try {
      invocation.spec = claude::driver::parse_driver_spec(spec);
      claude::driver::check_options(invocation.spec);
    } catch (const json::exception& e) {
      // The harness names the member; a driver run by hand only says that the spec is bad.
      throw SpecError("the driver spec does not match docs/driver-spec.schema.json (" +
                      std::string(e.what()) + "); `harness check` names the member");
    }

    log.write({{"obs", "start"},
               {"driver", "cpp"},
               {"sdk", "claude::sdk"},
               {"sdk_version", std::string(claude::sdk::kSdkVersion)}});
    return claude::driver::run_driver(invocation, log);
  } catch (const claude::driver::UnsupportedFeature& e) {
    log.write({{"obs", "unsupported"}, {"feature", e.what()}});
    std::cerr << "claude-harness-driver-cpp: unsupported by the C++ driver: " << e.what() << "\n";
    return kExitUnsupported;
  } catch (const SpecError& e) {
    std::cerr << "claude-harness-driver-cpp: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "claude-harness-driver-cpp: internal error: " << e.what() << "\n";
    return kExitBroken;
  }
}
