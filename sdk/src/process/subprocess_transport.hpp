// SubprocessTransport: runs the CLI as a local child process with three pipes.
//
// What it is: the `Transport` for a local executable, started with an argv vector (posix_spawn,
// never a shell), a complete environment, an optional working directory and optionally its own
// process group (so a terminal Ctrl-C reaches only the host). stdout is split into lines on the
// thread that calls `read()` (no thread hop per line, most of a control round trip's cost);
// stderr is read on a private thread into a callback, and its last lines are kept for errors.
//
// Teardown (`close()`, also run by the destructor): close stdin → wait `grace` → SIGTERM (to the
// group when the child has its own) → wait `term_wait` → SIGKILL → reap; no zombie is left. A
// blocked `read()` then returns the `StreamEnd`, even when a grandchild holds stdout open.
//
// How it fails: `connect()` throws `ConnectionError` naming the step (pipe, working directory,
// exec) and errno text. `write()` throws `ConnectionError` after EOF or when the child has gone
// (EPIPE; SIGPIPE is never delivered to the host). An exception from the stderr callback shows in
// the stderr tail as "[stderr callback failed: …]" and the callback is not called again.
//
// Threading: `write`, `end_input`, `close`, `pid`, `stderr_tail` are thread-safe; `read` is for
// one thread at a time.
//
// What it costs: one epoll_wait (stdout and a wake-up pipe for close()) and one read(2) per
// stdout chunk of up to 1 MiB (one read empties a full pipe and wakes a blocked CLI once), one
// copy per line, a 1 MiB read buffer, one stderr thread, and a 1 MiB kernel pipe.
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
