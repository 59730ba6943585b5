// ChildProcess: a running executable a test talks to — stdin, stdout and stderr on pipes, the
// output collected by two background threads, so the test can write, watch the output as it
// arrives (whole, or line by line), signal and wait.
//
// How it fails: the constructor throws std::runtime_error when the child cannot start. The
// destructor of a child not yet waited for sends SIGTERM, then SIGKILL after 5 s, and reaps it.
// The test ignores SIGPIPE from the first ChildProcess on, so a child that stops reading makes
// write_stdin() return false instead of killing the test; the child inherits that.
//
// What it costs: one posix_spawn (claude::base::spawn) and two threads; output is held in memory.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "claude/test_support/command.hpp"

namespace claude::test_support {

struct ProcessEnd {
  bool signaled = false;
  int value = 0;  // exit code, or signal number
  // A shell's view: the exit code, or 128 + the signal number.
  [[nodiscard]] int status_code() const { return signaled ? 128 + value : value; }
};

class ChildProcess {
 public:
  explicit ChildProcess(const Command& command);
  // argv[0] is the program; the environment is the test's.
  explicit ChildProcess(const std::vector<std::string>& argv);
  // The test's environment with `overrides` set ("NAME", "VALUE").
  ChildProcess(const std::filesystem::path& program, const std::vector<std::string>& args,
               const std::vector<std::pair<std::string, std::string>>& overrides,
               const std::filesystem::path& cwd = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  [[nodiscard]] pid_t pid() const { return pid_; }
  // Returns false when the child no longer reads its stdin.
  bool write_stdin(std::string_view bytes);
  void close_stdin();
  void send_signal(int signal_number) const;

  // Waits until stdout satisfies `predicate`, is closed, or `timeout` passes; returns whether it
  // satisfies `predicate`.
  bool wait_for_stdout(const std::function<bool(const std::string&)>& predicate,
                       std::chrono::milliseconds timeout);
  // The next stdout line not yet taken (without '\n'); nullopt at EOF or after `timeout`.
  std::optional<std::string> read_stdout_line(std::chrono::milliseconds timeout);
  // Closes stdin, waits for the child to end and for its output to reach EOF. Idempotent.
  ProcessEnd wait();
  // Sends `signal_number` unless the child was already waited for, then wait().
  ProcessEnd stop(int signal_number);

  [[nodiscard]] std::string out() const;  // all of stdout so far
  [[nodiscard]] std::string err() const;  // all of stderr so far
  // All of stderr, once the child closed it (blocks until then).
  [[nodiscard]] std::string read_stderr();

 private:
  void collect(int fd, std::string& into, bool& done);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string out_;
  std::string err_;
  std::size_t lines_taken_ = 0;  // bytes of out_ read_stdout_line() has returned
  bool out_done_ = false;
  bool err_done_ = false;
  std::thread out_reader_;
  std::thread err_reader_;
  std::optional<base::ExitStatus> reaped_;
  std::optional<ProcessEnd> end_;
};

}  // namespace claude::test_support
