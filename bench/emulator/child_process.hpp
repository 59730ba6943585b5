// A child process with three pipes, for the measuring tools in this folder.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

namespace claude::emulator::bench {

struct ChildProcess {
  pid_t pid = -1;
  int in = -1;   // its stdin
  int out = -1;  // its stdout
  int err = -1;  // its stderr

  static ChildProcess spawn(const std::vector<std::string>& args) {
    std::signal(SIGPIPE, SIG_IGN);
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (::pipe(in_pipe) != 0 || ::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) {
      throw std::runtime_error("pipe failed");
    }
    std::vector<std::string> copy = args;
    std::vector<char*> argv;
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    ChildProcess child;
    child.pid = ::fork();
    if (child.pid == 0) {
      ::dup2(in_pipe[0], 0);
      ::dup2(out_pipe[1], 1);
      ::dup2(err_pipe[1], 2);
      for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
        ::close(fd);
      }
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    child.in = in_pipe[1];
    child.out = out_pipe[0];
    child.err = err_pipe[0];
    return child;
  }

  void close_in() {
    if (in >= 0) ::close(in);
    in = -1;
  }

  // Exit status and peak resident set size (KiB) of the child.
  std::pair<int, long> wait_with_peak_rss() {
    close_in();
    int status = 0;
    rusage usage{};
    ::wait4(pid, &status, 0, &usage);
    if (out >= 0) ::close(out);
    if (err >= 0) ::close(err);
    out = err = -1;
    return {status, usage.ru_maxrss};
  }
};

inline bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace claude::emulator::bench
