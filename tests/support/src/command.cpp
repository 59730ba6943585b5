#include "claude/test_support/command.hpp"

#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace claude::test_support {
namespace {

bool unset(const Command& command, const std::string& name) {
  for (const auto& pattern : command.unset_env) {
    if (!pattern.empty() && pattern.back() == '*') {
      if (name.starts_with(std::string_view(pattern).substr(0, pattern.size() - 1))) return true;
    } else if (name == pattern) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::vector<std::string>> child_environment(const Command& command) {
  if (command.env.empty() && command.unset_env.empty()) return std::nullopt;
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    std::string name = entry.substr(0, eq);
    if (!unset(command, name)) env[std::move(name)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : command.env) env[name] = value;
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

pid_t start(const Command& command, std::vector<base::ChildFd> fds,
            std::vector<int> default_signals) {
  base::SpawnOptions options;
  options.argv.push_back(command.program.string());
  options.argv.insert(options.argv.end(), command.args.begin(), command.args.end());
  options.env = child_environment(command);
  options.fds = std::move(fds);
  options.cwd = command.cwd.string();
  options.default_signals = std::move(default_signals);
  const auto spawned = base::spawn(options);
  if (!spawned.started()) {
    throw std::runtime_error(command.program.string() + ": " + std::strerror(spawned.error));
  }
  return spawned.pid;
}

std::optional<base::ExitStatus> wait_exit_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (auto status = base::try_wait_exit(pid)) return status;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace claude::test_support
