#include "check/script_driver.hpp"

#include <chrono>

#include "claude/conformance/driver_run.hpp"

namespace claude::conformance {
namespace {

// The last non-empty line of the driver's stderr: its one-line reason.
std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  auto begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end + 1 - begin);
}

}  // namespace

std::vector<std::string> script_driver_command(const ScriptDriver& driver,
                                               const std::filesystem::path& driver_script) {
  return {driver.interpreter, driver_script.string()};
}

std::optional<std::string> script_driver_problem(const ScriptDriver& driver,
                                                 const std::vector<std::string>& command) {
  DriverRunRequest probe;
  probe.argv = command;
  probe.argv.emplace_back("--sdk-info");
  probe.deadline = std::chrono::seconds(60);
  const RunOutcome outcome = run_driver(probe);
  if (outcome.driver_exit == 0) return std::nullopt;
  if (outcome.driver_exit == 127) {
    return "--sdk " + driver.sdk + " needs " + driver.interpreter +
           " on PATH (Debian: apt-get install " + driver.debian +
           "): " + last_line(outcome.driver_stderr);
  }
  std::string reason = last_line(outcome.driver_stderr);
  if (reason.empty()) reason = "`" + command.back() + " --sdk-info` failed without a reason";
  return "--sdk " + driver.sdk + " cannot run: " + reason;
}

}  // namespace claude::conformance
