#include "process/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace claude::sdk::process {
namespace {

std::string errno_text(int err) {
  return std::strerror(err);
}

// posix_spawn's attribute and file-action objects, released on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

std::vector<char*> c_strings(const std::vector<std::string>& items) {
  std::vector<char*> out;
  out.reserve(items.size() + 1);
  for (const auto& s : items) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildProcess::~ChildProcess() {
  if (pidfd_ >= 0) ::close(pidfd_);
}

void ChildProcess::spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                         const std::string& cwd, bool own_process_group, const ChildPipes& pipes) {
  if (argv.empty()) throw ConnectionError("failed to start the CLI: empty argv");
  if (!cwd.empty()) {
    struct stat info {};
    if (::stat(cwd.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
      throw ConnectionError("failed to start the CLI: working directory does not exist: " + cwd);
  }
  SpawnSetup setup;
  posix_spawn_file_actions_adddup2(&setup.actions, pipes.stdin_fd, 0);
  posix_spawn_file_actions_adddup2(&setup.actions, pipes.stdout_fd, 1);
  posix_spawn_file_actions_adddup2(&setup.actions, pipes.stderr_fd, 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&setup.actions, cwd.c_str());

  // The host may ignore or block signals (SIGPIPE commonly); the CLI must start with defaults.
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int s : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&defaults, s);
  sigset_t empty_mask;
  sigemptyset(&empty_mask);
  posix_spawnattr_setsigdefault(&setup.attr, &defaults);
  posix_spawnattr_setsigmask(&setup.attr, &empty_mask);
  short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
  if (own_process_group) {
    flags |= POSIX_SPAWN_SETPGROUP;
    posix_spawnattr_setpgroup(&setup.attr, 0);
  }
  posix_spawnattr_setflags(&setup.attr, flags);

  auto args = c_strings(argv);
  auto envp = c_strings(env);
  pid_t pid = -1;
  // glibc's posix_spawn reports exec failures (ENOENT, EACCES, ENOEXEC) as its return value.
  int rc =
      posix_spawn(&pid, argv[0].c_str(), &setup.actions, &setup.attr, args.data(), envp.data());
  if (rc != 0)
    throw ConnectionError("failed to start the CLI: exec " + argv[0] + ": " + errno_text(rc));
  pid_ = pid;
  own_group_ = own_process_group;
  pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
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
