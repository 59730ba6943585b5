#include "claude/conformance/driver_command.hpp"

#include <cstdlib>
#include <sstream>

#include "check/script_driver.hpp"
#include "claude/base/subprocess.hpp"

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
    auto command = script_driver_command(driver, data_directory("drivers") / sdk / script);
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
