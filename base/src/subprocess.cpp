#include "claude/base/subprocess.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>

extern char** environ;

namespace claude::base {
namespace {

std::vector<char*> c_strings(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  out.reserve(strings.size() + 1);
  for (const auto& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

// posix_spawn's attribute and file-action objects, released on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions{};
  posix_spawnattr_t attr{};
  SpawnSetup() {
    ::posix_spawn_file_actions_init(&actions);
    ::posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    ::posix_spawn_file_actions_destroy(&actions);
    ::posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

ExitStatus decode(int status) {
  if (WIFSIGNALED(status)) return {true, WTERMSIG(status)};
  return {false, WEXITSTATUS(status)};
}

}  // namespace

Spawned spawn(const SpawnOptions& options) {
  if (options.argv.empty()) return {-1, EINVAL};
  SpawnSetup setup;
  for (const auto& fd : options.fds) {
    if (fd.from >= 0) {
      ::posix_spawn_file_actions_adddup2(&setup.actions, fd.from, fd.target);
    } else {
      ::posix_spawn_file_actions_addopen(&setup.actions, fd.target, fd.path.c_str(), fd.flags,
                                         fd.mode);
    }
  }
  if (!options.cwd.empty()) {
    ::posix_spawn_file_actions_addchdir_np(&setup.actions, options.cwd.c_str());
  }
  short flags = 0;
  if (!options.default_signals.empty()) {
    sigset_t defaults;
    sigemptyset(&defaults);
    for (int s : options.default_signals) sigaddset(&defaults, s);
    ::posix_spawnattr_setsigdefault(&setup.attr, &defaults);
    flags |= POSIX_SPAWN_SETSIGDEF;
  }
  if (options.empty_signal_mask) {
    sigset_t none;
    sigemptyset(&none);
    ::posix_spawnattr_setsigmask(&setup.attr, &none);
    flags |= POSIX_SPAWN_SETSIGMASK;
  }
  if (options.own_process_group) {
    ::posix_spawnattr_setpgroup(&setup.attr, 0);
    flags |= POSIX_SPAWN_SETPGROUP;
  }
  ::posix_spawnattr_setflags(&setup.attr, flags);

  const auto argv = c_strings(options.argv);
  const auto envp = options.env ? c_strings(*options.env) : std::vector<char*>{};
  char* const* env = options.env ? envp.data() : environ;
  const char* program = options.program.empty() ? argv[0] : options.program.c_str();
  Spawned result;
  result.error =
      options.search_path
          ? ::posix_spawnp(&result.pid, program, &setup.actions, &setup.attr, argv.data(), env)
          : ::posix_spawn(&result.pid, program, &setup.actions, &setup.attr, argv.data(), env);
  if (result.error != 0) result.pid = -1;
  return result;
}

ExitStatus wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return decode(status);
}

std::optional<ExitStatus> try_wait_exit(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, WNOHANG) != pid) return std::nullopt;
  return decode(status);
}

}  // namespace claude::base
