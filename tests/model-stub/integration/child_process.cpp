#include "child_process.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <stdexcept>

namespace claude::model_stub::testing {

ChildProcess::ChildProcess(std::vector<std::string> argv) {
  // A child that exits early must fail the test's write, not kill the test with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  int in[2];
  int out[2];
  int err[2];
  if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    close(err[0]);
    close(err[1]);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];
}

ChildProcess::~ChildProcess() {
  close_stdin();
  stop(SIGTERM);
  close(stdout_fd_);
  close(stderr_fd_);
}

bool ChildProcess::write_stdin(const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(stdin_fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void ChildProcess::close_stdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

std::optional<std::string> ChildProcess::read_stdout_line(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto nl = stdout_pending_.find('\n'); nl != std::string::npos) {
      std::string line = stdout_pending_.substr(0, nl);
      stdout_pending_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd fd{stdout_fd_, POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(stdout_fd_, buffer, sizeof buffer);
    if (n <= 0) return std::nullopt;
    stdout_pending_.append(buffer, static_cast<std::size_t>(n));
  }
}

std::string ChildProcess::read_stderr() {
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(stderr_fd_, buffer, sizeof buffer)) > 0)
    text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

int ChildProcess::stop(int signal) {
  if (!status_) kill(pid_, signal);
  return wait();
}

int ChildProcess::wait() {
  if (!status_) {
    int raw = 0;
    while (waitpid(pid_, &raw, 0) < 0) {
      if (errno != EINTR) throw std::runtime_error("waitpid failed");
    }
    status_ = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  }
  return *status_;
}

}  // namespace claude::model_stub::testing
