// Transport: the byte-and-process layer under the control protocol.
//
//   class SshTransport : public claude::sdk::Transport { /* connect, write, read, … */ };
//   claude::sdk::Client client(options, std::make_unique<SshTransport>(host));
//
// What it is: whatever carries one session's NDJSON lines between the SDK and a CLI. The SDK
// ships `SubprocessTransport` (a local child process) and `InMemoryTransport` (a scripted peer
// for tests); a remote shell, a container or a sandbox can be another implementation.
//
// Contract (how to write one; docs/sdk.md has a worked example):
//  - `connect()` starts the session. Called once; throws `ConnectionError` (or
//    `CLINotFoundError`) when it cannot start. `close()` after a failed connect is safe.
//  - `write(frame)` sends one complete frame (already '\n'-terminated). It may be called from
//    any thread at once with other writes: implementations serialise them so frames never
//    interleave. Throws `ConnectionError` once the input side is closed or broken.
//  - `read()` blocks until the next stdout line or the end of the stream. It is called by one
//    thread at a time (the control protocol guarantees it). Lines are split with `LineBuffer`
//    rules; a line over the cap is reported as `oversized`. After the last line it returns a
//    `StreamEnd` (exit status, stderr tail) and keeps returning it.
//  - `has_buffered_line()` (optional) is true when the next `read()` returns a line already
//    received, without blocking. Called only by the thread that calls `read()`. The default,
//    false, is always correct; an accurate answer lets consumers batch their wake-ups per chunk.
//  - `end_input()` closes the CLI's stdin (EOF) and leaves stdout open. Idempotent.
//  - `close()` ends the session: EOF, a grace period, then stronger means (for a process:
//    SIGTERM, then SIGKILL); it unblocks a `read()` in progress and is idempotent. After it,
//    `read()` returns a `StreamEnd` with `ended_by_host` set.
//
// What it costs: defined by each implementation; the interface adds one virtual call per line.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "claude/sdk/errors.hpp"

namespace claude::sdk {

// One stdout line, without its '\n'.
struct InboundLine {
  // Spare capacity a transport leaves past the end of `text`: the message parser then reads the
  // line where it lies instead of copying it into a padded buffer first.
  static constexpr std::size_t kSpareCapacity = 64;

  std::string text;
  bool partial = false;    // the stream ended before this line's '\n'
  bool oversized = false;  // the line exceeded the cap and was dropped; `text` is empty
  std::size_t size = 0;    // bytes as received

  [[nodiscard]] std::string_view view() const noexcept { return text; }
};

// How the stream ended.
struct StreamEnd {
  ExitStatus status;
  std::string stderr_tail;  // last lines of stderr, for error messages
  std::string error;        // set when the transport itself failed (read error), else empty
};

using ReadResult = std::variant<InboundLine, StreamEnd>;

class Transport {
 public:
  virtual ~Transport() = default;

  virtual void connect() = 0;
  virtual void write(std::string_view frame) = 0;
  virtual ReadResult read() = 0;
  [[nodiscard]] virtual bool has_buffered_line() const { return false; }
  virtual void end_input() = 0;
  virtual void close() = 0;
  // False once `end_input()` or `close()` ran or the input side broke.
  [[nodiscard]] virtual bool input_open() const = 0;
};

}  // namespace claude::sdk
