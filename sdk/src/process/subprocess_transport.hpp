// SubprocessTransport: runs the CLI as a local child process with three pipes.
//
// What it is: the `Transport` for a local executable. It starts the child with an argv vector
// (execve through posix_spawn, never a shell), a complete environment and an optional working
// directory, optionally in its own process group (so a terminal Ctrl-C reaches only the host).
// stdout is split into lines with `LineBuffer` on the thread that calls `read()`; stderr is read
// line by line on a private thread into a callback, and its last lines are kept for errors.
//
// Why not Boost.Process v2: the pieces this needs are each one POSIX call (process group through
// POSIX_SPAWN_SETPGROUP, EOF on stdin while stdout stays open, a pidfd to wait for exit with a
// timeout), and reading stdout on the caller's thread saves a thread hop per line, which is most
// of a control round trip's cost.
//
// Teardown (`close()`, also run by the destructor): close stdin → wait `grace` → SIGTERM (to the
// group when the child has its own) → wait `term_wait` → SIGKILL → reap. The child is always
// reaped; no zombie is left. A `read()` blocked at that moment returns the `StreamEnd`, also
// when a grandchild of the CLI still holds its stdout open.
//
// How it fails: `connect()` throws `ConnectionError` naming the step (pipe, working directory,
// exec) and errno text. `write()` throws `ConnectionError` after EOF or when the child has gone
// (EPIPE; SIGPIPE is blocked on the writing thread, never delivered to the host). Exceptions
// thrown by the stderr callback are caught on the stderr thread and appear in the stderr tail as
// "[stderr callback failed: …]"; the callback is not called again.
//
// Threading: `write`, `end_input`, `close`, `pid`, `stderr_tail` are thread-safe. `read` is for
// one thread at a time. The stderr callback runs on the private stderr thread.
//
// What it costs: one epoll_wait (on stdout and a private wake-up pipe, so close() can end a read
// even while a grandchild of the CLI holds stdout open) and one read(2) per stdout chunk (up to
// 1 MiB, the pipe's size, so that one read empties a full pipe and wakes a CLI blocked on it
// once), one copy per line, one thread for stderr; a 1 MiB read buffer; the CLI's stdout pipe holds
// `stdout_pipe_bytes` (1 MiB) of kernel buffer where the system allows.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/transport.hpp"

namespace claude::sdk {

struct ProcessLaunch {
  std::vector<std::string> argv;  // argv[0] is the executable's path (no PATH search here)
  std::vector<std::string> env;   // the complete environment, "NAME=value" each
  std::string cwd;                // empty: inherit the host's
  bool own_process_group = false;
};

struct SubprocessOptions {
  std::size_t max_line_bytes = 32u << 20;
  std::function<void(std::string_view line)> on_stderr_line;
  std::size_t stderr_tail_lines = 20;
  std::chrono::milliseconds grace{5000};      // after EOF, before SIGTERM
  std::chrono::milliseconds term_wait{5000};  // after SIGTERM, before SIGKILL
  // Kernel buffer of the CLI's stdout pipe, so it can write ahead while lines are parsed; 0 keeps
  // the system's default (64 KiB). An unprivileged user's pipes share a budget
  // (/proc/sys/fs/pipe-user-pages-soft, 64 MiB by default): when it is spent the raise is
  // refused and the default stays.
  std::size_t stdout_pipe_bytes = 1u << 20;
};

class SubprocessTransport final : public Transport {
 public:
  SubprocessTransport(ProcessLaunch launch, SubprocessOptions options = {});
  ~SubprocessTransport() override;
  SubprocessTransport(const SubprocessTransport&) = delete;
  SubprocessTransport& operator=(const SubprocessTransport&) = delete;

  void connect() override;
  void write(std::string_view frame) override;
  ReadResult read() override;
  // True while lines of the last chunk read are still waiting; for the reading thread only.
  [[nodiscard]] bool has_buffered_line() const override;
  void end_input() override;
  void close() override;
  [[nodiscard]] bool input_open() const override;

  // The child's pid, 0 before connect.
  [[nodiscard]] int pid() const;
  [[nodiscard]] std::string stderr_tail() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace claude::sdk
