#include "claude/test_support/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace claude::test_support {
namespace {

Command from_argv(const std::vector<std::string>& argv) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: empty argv");
  Command command;
  command.program = argv.front();
  command.args.assign(argv.begin() + 1, argv.end());
  return command;
}

Command with_overrides(const std::filesystem::path& program, const std::vector<std::string>& args,
                       const std::vector<std::pair<std::string, std::string>>& overrides,
                       const std::filesystem::path& cwd) {
  Command command;
  command.program = program;
  command.args = args;
  for (const auto& [name, value] : overrides) command.env[name] = value;
  command.cwd = cwd;
  return command;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv) : ChildProcess(from_argv(argv)) {}

ChildProcess::ChildProcess(const std::filesystem::path& program,
                           const std::vector<std::string>& args,
                           const std::vector<std::pair<std::string, std::string>>& overrides,
                           const std::filesystem::path& cwd)
    : ChildProcess(with_overrides(program, args, overrides, cwd)) {}

ChildProcess::ChildProcess(const Command& command) {
  ::signal(SIGPIPE, SIG_IGN);
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
  }
  try {
    pid_ = start(command, {base::ChildFd::dup(in[0], 0), base::ChildFd::dup(out[1], 1),
                           base::ChildFd::dup(err[1], 2)});
  } catch (...) {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) ::close(fd);
    throw;
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  stdin_fd_ = in[1];
  out_reader_ = std::thread([this, fd = out[0]] { collect(fd, out_, out_done_); });
  err_reader_ = std::thread([this, fd = err[0]] { collect(fd, err_, err_done_); });
}

ChildProcess::~ChildProcess() {
  if (end_) return;
  send_signal(SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!(reaped_ = base::try_wait_exit(pid_)) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!reaped_) send_signal(SIGKILL);
  wait();
}

void ChildProcess::collect(int fd, std::string& into, bool& done) {
  std::string buf(1 << 16, '\0');
  while (true) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::lock_guard lock(mutex_);
    into.append(buf.data(), static_cast<std::size_t>(n));
    changed_.notify_all();
  }
  ::close(fd);
  std::lock_guard lock(mutex_);
  done = true;
  changed_.notify_all();
}

bool ChildProcess::write_stdin(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(stdin_fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

void ChildProcess::close_stdin() {
  if (stdin_fd_ >= 0) ::close(stdin_fd_);
  stdin_fd_ = -1;
}

void ChildProcess::send_signal(int signal_number) const {
  if (!end_) ::kill(pid_, signal_number);
}

bool ChildProcess::wait_for_stdout(const std::function<bool(const std::string&)>& predicate,
                                   std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  // Once stdout is closed no more output can come: waiting out the timeout would only slow a
  // test whose child exited early (a usage error) by the whole timeout.
  changed_.wait_for(lock, timeout, [&] { return out_done_ || predicate(out_); });
  return predicate(out_);
}

std::optional<std::string> ChildProcess::read_stdout_line(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  std::size_t nl = std::string::npos;
  changed_.wait_for(lock, timeout, [&] {
    nl = out_.find('\n', lines_taken_);
    return nl != std::string::npos || out_done_;
  });
  if (nl == std::string::npos) return std::nullopt;
  std::string line = out_.substr(lines_taken_, nl - lines_taken_);
  lines_taken_ = nl + 1;
  return line;
}

ProcessEnd ChildProcess::wait() {
  if (end_) return *end_;
  close_stdin();
  const base::ExitStatus status = reaped_ ? *reaped_ : base::wait_exit(pid_);
  out_reader_.join();
  err_reader_.join();
  end_ = ProcessEnd{status.signaled, status.value};
  return *end_;
}

ProcessEnd ChildProcess::stop(int signal_number) {
  send_signal(signal_number);
  return wait();
}

std::string ChildProcess::out() const {
  std::lock_guard lock(mutex_);
  return out_;
}

std::string ChildProcess::err() const {
  std::lock_guard lock(mutex_);
  return err_;
}

std::string ChildProcess::read_stderr() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return err_done_; });
  return err_;
}

}  // namespace claude::test_support
