// ChildProcess: one spawned executable, its pid, and waiting for its end with a timeout.
//
// Spawning goes through posix_spawn with an argv vector (no shell). Exit is observed through a
// pidfd (poll with a timeout); waitpid runs under a mutex so several threads may wait at once
// and all see the same cached status.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "claude/sdk/errors.hpp"

namespace claude::sdk::process {

struct ChildPipes {
  int stdin_fd = -1;  // child's ends, dup2'ed to 0, 1, 2
  int stdout_fd = -1;
  int stderr_fd = -1;
};

class ChildProcess {
 public:
  ChildProcess() = default;
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Throws ConnectionError naming the failed step.
  void spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
             const std::string& cwd, bool own_process_group, const ChildPipes& pipes);

  [[nodiscard]] pid_t pid() const noexcept { return pid_; }
  [[nodiscard]] bool spawned() const noexcept { return pid_ > 0; }

  // Waits up to `timeout` for the child to end; returns its status once known.
  std::optional<ExitStatus> wait_for(std::chrono::milliseconds timeout);
  // Sends `signal` to the child (to its group when it has its own). No-op once reaped.
  void signal(int signal);

 private:
  std::optional<ExitStatus> try_reap();

  pid_t pid_ = -1;
  int pidfd_ = -1;
  bool own_group_ = false;
  std::mutex reap_mutex_;
  std::optional<ExitStatus> status_;
};

}  // namespace claude::sdk::process
