// TeeSession: claude-tee's process shell — runs the real CLI on three pipes, forwards the
// streams byte for byte, hands copies to the recorder and passes the CLI's end through.
//
// What it is: per stream, a thread doing read(2) → queue a copy (RecordingQueue) → write(2) on
// the tee's own blocking descriptors, and one recorder thread under SCHED_IDLE that encodes and
// writes the copies, so forwarding never waits for the recording while the queue has room; the
// main thread records what is left once the CLI is gone. SIGINT, SIGTERM, SIGHUP, SIGQUIT,
// SIGUSR1 and SIGUSR2 go to the CLI; SIGPIPE is ignored, so a reader that went away stops the
// forwarding of its stream, not the recording.
//
// How it fails: `run_tee_session` throws TeeError when the CLI cannot be started (the caller then
// removes the recording). Everything after the start is reported in the outcome, never thrown.
//
// What it costs: four threads, a 256 KiB buffer per stream, up to 16 MiB of queued copies (then
// the spill file), and a `<cli> --version` probe beside the session (unless the version is given).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "claude/recorder/recording_header.hpp"
#include "claude/recorder/recording_writer.hpp"
#include "claude/recorder/redactor.hpp"

namespace claude::recorder {

class TeeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct TeeConfig {
  std::filesystem::path real_cli;
  std::vector<std::string> args;           // forwarded verbatim, after argv[0]
  std::vector<std::string> environment;    // "NAME=VALUE", passed to the CLI unchanged
  std::optional<std::string> cli_version;  // when set, no version probe is run
  std::chrono::milliseconds probe_timeout{2000};
  // After the CLI exits, how long its stdout/stderr may stay silent without reaching EOF (a
  // grandchild may hold them open) before the exit event is written anyway. Bytes still being
  // forwarded to a slow SDK are always waited for.
  std::chrono::milliseconds drain_timeout{2000};
};

struct ChildOutcome {
  bool signaled = false;
  int value = 0;  // exit code, or signal number when `signaled`
};

// Runs the session to its end, waits until everything read is recorded, and writes the
// recording's last event. It blocks the handled signals and leaves them blocked (a late SIGTERM
// must not end the tee differently from the CLI), and pump threads still stuck in read(2) keep
// using `writer`: end the process right after, with end_like(). Call it from the main thread before
// any other thread exists.
[[nodiscard]] ChildOutcome run_tee_session(const TeeConfig& config, RecordingHeader header,
                                           const Redactor& redactor, RecordingWriter& writer);

// "SIGTERM" for 15; "SIG42" when the number has no name.
[[nodiscard]] std::string signal_name(int signal_number);

// Ends the current process the way the CLI ended: same exit code, or the same signal (with the
// default action and no core file). Does not return.
[[noreturn]] void end_like(const ChildOutcome& outcome);

}  // namespace claude::recorder
