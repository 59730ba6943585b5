#include "claude/harness/command_runner.hpp"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "claude/base/subprocess.hpp"

extern char** environ;

namespace claude::harness {
namespace {

volatile sig_atomic_t g_relay_target = 0;
constexpr int kRelayed[] = {SIGINT, SIGTERM, SIGHUP};

void pass_on(int sig) {
  if (g_relay_target > 0) ::kill(static_cast<pid_t>(g_relay_target), sig);
}

std::string lookup_in_path(const std::string& program, const std::vector<std::string>& env) {
  if (program.find('/') != std::string::npos) return program;
  std::string path = "/usr/bin:/bin";
  for (const auto& e : env) {
    if (e.rfind("PATH=", 0) == 0) path = e.substr(5);
  }
  // The ':' appended keeps a trailing empty entry (the current directory) that getline would drop.
  std::istringstream dirs(path + ":");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / program;
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate)) {
      return candidate.string();
    }
  }
  return {};
}

}  // namespace

std::string CommandResult::describe() const {
  if (!started) return "not started: " + error;
  if (signaled) {
    const char* abbrev = ::sigabbrev_np(value);
    return std::string("killed by SIG") + (abbrev != nullptr ? abbrev : std::to_string(value));
  }
  return "exit " + std::to_string(value);
}

std::vector<std::string> environment_with(
    const std::map<std::string, std::optional<std::string>>& set) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const auto name = entry.substr(0, entry.find('='));
    if (set.count(name) == 0) out.push_back(entry);
  }
  for (const auto& [name, value] : set) {
    if (value) out.push_back(name + "=" + *value);
  }
  return out;
}

SignalRelay::SignalRelay(pid_t child) {
  g_relay_target = child;
  struct sigaction sa {};
  sa.sa_handler = pass_on;
  for (std::size_t i = 0; i < std::size(kRelayed); ++i) ::sigaction(kRelayed[i], &sa, &old_[i]);
}

SignalRelay::~SignalRelay() {
  g_relay_target = 0;
  for (std::size_t i = 0; i < std::size(kRelayed); ++i) ::sigaction(kRelayed[i], &old_[i], nullptr);
}

CommandResult run_command(const std::vector<std::string>& command,
                          const std::vector<std::string>& environment) {
  CommandResult result;
  if (command.empty()) {
    result.error = "no command given";
    return result;
  }
  // Resolved with the command's own PATH, so a `claude` placed first on it is what runs.
  const std::string program = lookup_in_path(command[0], environment);
  if (program.empty()) {
    result.error = command[0] + ": not found on PATH";
    return result;
  }
  const base::Spawned child =
      base::spawn({.argv = command, .program = program, .env = environment});
  if (!child.started()) {
    result.error = program + ": " + std::strerror(child.error);
    return result;
  }
  result.started = true;
  base::ExitStatus status;
  {
    const SignalRelay relay(child.pid);
    status = base::wait_exit(child.pid);
  }
  result.signaled = status.signaled;
  result.value = status.value;
  return result;
}

}  // namespace claude::harness
