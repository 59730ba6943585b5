// ChildProcess: runs an executable with three pipes for a test, collecting stdout and stderr in
// background threads so a test can write stdin, watch the output, signal and wait.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace claude::recorder::testing {

struct ProcessEnd {
  bool signaled = false;
  int value = 0;  // exit code, or signal number
};

class ChildProcess {
 public:
  // Environment: this process's, with `overrides` set ("NAME", "VALUE") or removed (value
  // std::nullopt is not needed by the tests, so an override always sets).
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

  // Waits until stdout satisfies `predicate`, up to `timeout`; returns whether it did.
  bool wait_for_stdout(const std::function<bool(const std::string&)>& predicate,
                       std::chrono::milliseconds timeout);
  ProcessEnd wait();

  [[nodiscard]] std::string out() const;
  [[nodiscard]] std::string err() const;

 private:
  void collect(int fd, std::string& into);

  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::string out_;
  std::string err_;
  std::thread out_reader_;
  std::thread err_reader_;
  bool waited_ = false;
};

}  // namespace claude::recorder::testing
