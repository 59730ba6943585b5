// Command: what a test runs (program, arguments, environment changes, working directory), and
// start(), which starts it on claude::base::spawn with the descriptors the caller hands over.
// run.hpp (run to the end, output collected) and child_process.hpp (a running child a test talks
// to) are built on it; a test that needs its own pipes (sizes, read pace) calls start() itself.
//
// How it fails: start() throws std::runtime_error naming the program and the errno text when the
// child cannot start (no such file, not executable, a bad working directory).
// What it costs: one posix_spawn; the environment is copied once when it changes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "claude/base/subprocess.hpp"

namespace claude::test_support {

struct Command {
  std::filesystem::path program;
  std::vector<std::string> args;           // argv[1..]
  std::map<std::string, std::string> env;  // set over the test's environment
  // Removed from the test's environment; a name ending in '*' removes every name it prefixes.
  std::vector<std::string> unset_env;
  std::filesystem::path cwd;  // empty: the test's
};

// The child's environment ("NAME=value"), or nullopt when the command changes nothing.
[[nodiscard]] std::optional<std::vector<std::string>> child_environment(const Command& command);

// Starts `command` with `fds` applied (e.g. base::ChildFd::dup(pipe, 0)); returns its pid.
[[nodiscard]] pid_t start(const Command& command, std::vector<base::ChildFd> fds,
                          std::vector<int> default_signals = {});

// How `pid` ended (reaped) if it ends within `limit`; nullopt while it still runs then.
[[nodiscard]] std::optional<base::ExitStatus> wait_exit_within(pid_t pid,
                                                               std::chrono::milliseconds limit);

// A shell's view of an exit: the exit code, or 128 + the signal number.
[[nodiscard]] inline int status_code(const base::ExitStatus& status) {
  return status.signaled ? 128 + status.value : status.value;
}

}  // namespace claude::test_support
