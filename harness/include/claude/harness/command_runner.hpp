// Running the user's command (CMD…) with a changed environment: execve through posix_spawnp,
// never a shell, stdin/stdout/stderr inherited. SIGINT, SIGTERM and SIGHUP received meanwhile
// are passed on to the command.
//
// How it fails: a command that cannot be started is reported as `started == false` with the
// reason; it never throws for that.
// What it costs: one process.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace claude::harness {

struct CommandResult {
  bool started = false;
  std::string error;  // why it did not start
  bool signaled = false;
  int value = 0;  // exit status, or signal number when `signaled`
  [[nodiscard]] bool succeeded() const { return started && !signaled && value == 0; }
  [[nodiscard]] std::string describe() const;  // "exit 3", "signal SIGSEGV", "not started: …"
};

// The current environment with `set` applied (a value replaces, std::nullopt removes).
[[nodiscard]] std::vector<std::string> environment_with(
    const std::map<std::string, std::optional<std::string>>& set);

// While alive, SIGINT, SIGTERM and SIGHUP sent to harness are passed on to `child`; the previous
// handlers come back on destruction. One at a time (the target is process-wide).
class SignalRelay {
 public:
  explicit SignalRelay(pid_t child);
  SignalRelay(const SignalRelay&) = delete;
  SignalRelay& operator=(const SignalRelay&) = delete;
  ~SignalRelay();

 private:
  struct sigaction old_[3]{};  // SIGINT, SIGTERM, SIGHUP
};

// Runs `command` (argv[0] looked up on the PATH of `environment`) and waits for it.
[[nodiscard]] CommandResult run_command(const std::vector<std::string>& command,
                                        const std::vector<std::string>& environment);

}  // namespace claude::harness
