#include "claude/conformance/driver_command.hpp"

#include <chrono>
#include <cstdlib>
#include <sstream>

#include "claude/base/subprocess.hpp"
#include "claude/conformance/driver_run.hpp"

namespace claude::conformance {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

using base::is_executable_file;

// A command word without a slash is looked up on PATH, as execvp will.
bool can_execute(const std::string& word) {
  if (word.find('/') != std::string::npos) return is_executable_file(word);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (is_executable_file(fs::path(dir.empty() ? "." : dir) / word)) return true;
  }
  return false;
}

// `--sdk python` and `--sdk ruby`: a bundled driver script run by its interpreter from PATH.
struct ScriptDriver {
  std::string sdk;          // the --sdk name: "python", "ruby"
  std::string interpreter;  // looked up on PATH: "python3", "ruby"
  std::string debian;       // the Debian packages that provide the interpreter
};

// The last non-empty line of the driver's stderr: its one-line reason.
std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  auto begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end + 1 - begin);
}

// Why the suite cannot run with a script driver (no interpreter, no loadable SDK), in words a
// usage error can print. The driver finds its SDK itself (`<script> --sdk-info`), so the
// harness and the driver cannot disagree on where the SDK is; that costs about a second.
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

}  // namespace

fs::path self_directory() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : self.parent_path();
}

// Installed layout first (<prefix>/bin + <prefix>/share/claude-harness), then the source tree
// this build came from.
fs::path data_directory(std::string_view what) {
  const fs::path installed = self_directory() / ".." / "share" / "claude-harness" / what;
  std::error_code ec;
  if (fs::exists(installed, ec)) return installed.lexically_normal();
  return fs::path(CLAUDE_HARNESS_SOURCE_DIR) / what;
}

std::vector<std::string> driver_command(const std::string& sdk) {
  if (sdk == "cpp") return {(self_directory() / "claude-harness-driver-cpp").string()};
  if (sdk == "ts") {
    const fs::path driver = data_directory("drivers") / "ts" / "driver.mjs";
    const fs::path modules = driver.parent_path() / "node_modules" / "@anthropic-ai";
    std::error_code ec;
    if (!fs::exists(modules, ec)) {
      throw DriverCommandError("the TypeScript SDK is not installed next to " + driver.string() +
                               ": run tests/peers/ts-sdk/install-sdk first");
    }
    return {"node", driver.string()};
  }
  if (sdk == "python" || sdk == "ruby") {
    const ScriptDriver driver = sdk == "python" ? ScriptDriver{"python", "python3", "python3"}
                                                : ScriptDriver{"ruby", "ruby", "ruby ruby-async"};
    const char* script = sdk == "python" ? "driver.py" : "driver.rb";
    std::vector<std::string> command{driver.interpreter,
                                     (data_directory("drivers") / sdk / script).string()};
    if (auto problem = script_driver_problem(driver, command)) throw DriverCommandError(*problem);
    return command;
  }
  auto words = split_words(sdk);
  if (words.empty()) throw DriverCommandError("--sdk names no command");
  // Caught here, a typo is one usage error instead of a failure (or a finding) per case.
  if (!can_execute(words.front())) {
    throw DriverCommandError("--sdk " + sdk + ": not cpp, ts, python or ruby, and '" +
                             words.front() + "' is no executable file (on PATH or as a path)");
  }
  return words;
}

}  // namespace claude::conformance
