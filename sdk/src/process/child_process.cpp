#include "process/child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <thread>

#include "claude/base/subprocess.hpp"

namespace claude::sdk::process {
ChildProcess::~ChildProcess() {
  if (pidfd_ >= 0) ::close(pidfd_);
}

void ChildProcess::spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         const std::string& cwd, bool own_process_group, const ChildPipes& pipes) {
  if (argv.empty()) throw ConnectionError("failed to start the CLI: empty argv");
  if (std::error_code ignored; !cwd.empty() && !std::filesystem::is_directory(cwd, ignored))
    throw ConnectionError("failed to start the CLI: working directory does not exist: " + cwd);
  // The host may ignore or block signals (SIGPIPE commonly); the CLI must start with defaults.
  // glibc's posix_spawn reports exec failures (ENOENT, EACCES, ENOEXEC) as its return value.
  const base::Spawned child = base::spawn(
      {.argv = argv,
       .env = env,
       .fds = {base::ChildFd::dup(pipes.stdin_fd, 0), base::ChildFd::dup(pipes.stdout_fd, 1),
               base::ChildFd::dup(pipes.stderr_fd, 2)},
       .cwd = cwd,
       .own_process_group = own_process_group,
       .default_signals = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD},
       .empty_signal_mask = true});
  if (!child.started()) {
    throw ConnectionError("failed to start the CLI: exec " + argv[0] + ": " +
                          std::strerror(child.error));
  }
  pid_ = child.pid;
  own_group_ = own_process_group;
  pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
}

std::optional<ExitStatus> ChildProcess::try_reap() {
  std::lock_guard lock(reap_mutex_);
  if (status_ || pid_ <= 0) return status_;
  int raw = 0;
  pid_t r;
  do {
    r = ::waitpid(pid_, &raw, WNOHANG);
  } while (r < 0 && errno == EINTR);
  if (r == pid_) {
    ExitStatus st;
    if (WIFEXITED(raw)) st.exit_code = WEXITSTATUS(raw);
    if (WIFSIGNALED(raw)) st.term_signal = WTERMSIG(raw);
    status_ = st;
  } else if (r < 0 && errno == ECHILD) {
    // Someone else reaped it (a host SIGCHLD handler with SIG_IGN or waitpid(-1)).
    status_ = ExitStatus{};
  }
  return status_;
}

std::optional<ExitStatus> ChildProcess::wait_for(std::chrono::milliseconds timeout) {
  using clock = std::chrono::steady_clock;
  const auto deadline = clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    if (auto st = try_reap()) return st;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (pidfd_ >= 0) {
      pollfd p{pidfd_, POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1 << 30)));
    } else {
      std::this_thread::sleep_for(std::min(pause, left));
      pause = std::min(pause * 2, std::chrono::milliseconds(20));
    }
  }
}

void ChildProcess::signal(int sig) {
  std::lock_guard lock(reap_mutex_);
  if (status_ || pid_ <= 0) return;
  // Before reaping, the pid (and the group it leads) cannot have been reused.
  if (own_group_)
    ::kill(-pid_, sig);
  else
    ::kill(pid_, sig);
}

}  // namespace claude::sdk::process
