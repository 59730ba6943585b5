// ChildProcess: a test's own handle on an executable it starts (fork + execv, no shell), with
// stdin, stdout and stderr on pipes. The destructor sends SIGTERM and reaps the child.
// Shared by tests/model-stub/integration and tests/peers/real-cli/model_stub.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace claude::model_stub::testing {

class ChildProcess {
 public:
  explicit ChildProcess(std::vector<std::string> argv);
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  // Writes all of `bytes` to the child's stdin; false when the child closed it.
  bool write_stdin(const std::string& bytes);
  void close_stdin();
  // The next line on stdout (without '\n'), or nullopt at EOF or after `timeout`.
  std::optional<std::string> read_stdout_line(std::chrono::milliseconds timeout);
  // Everything left on stderr until EOF.
  std::string read_stderr();
  // Sends `signal` (if still running) and waits; returns the exit code, or 128+signal.
  int stop(int signal);
  // Waits for the child to exit by itself; returns the exit code, or 128+signal.
  int wait();

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  int stdout_fd_ = -1;
  int stderr_fd_ = -1;
  std::string stdout_pending_;
  std::optional<int> status_;
};

}  // namespace claude::model_stub::testing
