// Starting a child process: the one place of the repository that runs a program in a child.
//
// What it is: spawn() starts argv with the descriptors, environment, working directory, process
// group and signal dispositions a caller asks for, without a shell; wait_exit()/try_wait_exit()
// reap it. Callers keep their own pipes and timeouts; this only replaces the posix_spawn
// boilerplate (attribute and file-action objects, C string arrays, error codes).
// How it fails: never throws for the child; a child that cannot start (no such program, not
// executable, a bad working directory) comes back as Spawned::error (an errno value; glibc's
// posix_spawn reports exec failures that way, the fork+exec path through a close-on-exec pipe),
// and the caller words the message.
// Cost: one vfork+exec (posix_spawn), or one fork+exec with `die_with_parent` (posix_spawn cannot
// set PR_SET_PDEATHSIG); the argv and environment are copied once into C arrays.
#pragma once

#include <fcntl.h>
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace claude::base {

// What one of the child's descriptors becomes before the program runs.
struct ChildFd {
  int target = -1;   // the child's descriptor (0, 1, 2, ...)
  int from = -1;     // dup2'ed from this descriptor of ours, or else
  std::string path;  // opened from this file
  int flags = O_RDONLY;
  mode_t mode = 0;

  static ChildFd dup(int from, int target) { return {target, from, {}, 0, 0}; }
  static ChildFd open(int target, std::string path, int flags, mode_t mode = 0) {
    return {target, -1, std::move(path), flags, mode};
  }
};

struct SpawnOptions {
  std::vector<std::string> argv{};                // argv[0] is the program unless `program` is set
  std::string program{};                          // the file to run, when it is not argv[0]
  bool search_path = false;                       // argv[0] without '/' is looked up on our PATH
  std::optional<std::vector<std::string>> env{};  // "NAME=value" entries; nullopt: ours
  std::vector<ChildFd> fds{};                     // applied in order; others are inherited
  std::string cwd{};                              // empty: ours
  bool own_process_group = false;                 // the child leads a new group (killpg ends all)
  std::vector<int> default_signals{};             // reset to SIG_DFL (a host may ignore SIGPIPE)
  bool empty_signal_mask = false;                 // the child blocks no signal
  // PR_SET_PDEATHSIG: the child gets SIGTERM when the thread that spawned it ends, however it
  // ends (SIGKILL of the process included), instead of running on unattended.
  bool die_with_parent = false;
};

struct Spawned {
  pid_t pid = -1;
  int error = 0;  // errno when the child did not start
  [[nodiscard]] bool started() const { return error == 0; }
};

[[nodiscard]] Spawned spawn(const SpawnOptions& options);

struct ExitStatus {
  bool signaled = false;
  int value = 0;  // the exit status, or the signal number when `signaled`
};

// A process as /proc/PID/stat shows it (Linux).
struct ProcessStat {
  pid_t pid = 0;
  char state = '?';  // 'Z' zombie, 'X' dead, else alive
  pid_t ppid = 0;
  pid_t pgrp = 0;
  [[nodiscard]] bool running() const { return state != 'Z' && state != 'X'; }
};

// Every process in /proc now; one that ends during the scan may be left out.
[[nodiscard]] std::vector<ProcessStat> list_processes();

// The whole of a /proc file (stat, environ, ...), or what could be read of it: empty when the
// process is gone or the file cannot be read. Never throws for a process that ends meanwhile.
[[nodiscard]] std::string read_proc_file(const std::filesystem::path& path);

// A regular file (symlinks followed) we may execute.
[[nodiscard]] bool is_executable_file(const std::filesystem::path& path);

// Waits for `pid` to end (EINTR retried) and reaps it.
ExitStatus wait_exit(pid_t pid);

// The status of `pid` if it has ended (reaped), nullopt while it runs.
std::optional<ExitStatus> try_wait_exit(pid_t pid);

}  // namespace claude::base
