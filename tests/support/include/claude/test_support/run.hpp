// run_to_completion: runs one executable to its end for a test — argv without a shell, a chosen
// environment, bytes on stdin, stdout and stderr collected — and says how it ended.
//
// How it fails: a child still running at the deadline is SIGKILLed and reported as timed out, so
// a hang is a test failure rather than a stuck suite. A child that cannot start is exit code 127
// with the reason on `err`.
//
// What it costs: one posix_spawn (claude::base::spawn) and a poll loop over three pipes; output
// is held in memory.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>

#include "claude/test_support/command.hpp"

namespace claude::test_support {

struct SpawnRequest : Command {
  std::string stdin_bytes;  // written, then stdin is closed
  std::chrono::milliseconds timeout{30000};
  // Non-empty: stdout and stderr go to the files `stdout` and `stderr` in this folder instead of
  // pipes, for a child whose own children may keep a pipe open after it exits.
  std::filesystem::path output_dir;
};

struct SpawnResult {
  bool timed_out = false;
  bool signaled = false;
  int exit_code = -1;   // when !signaled
  int term_signal = 0;  // when signaled
  std::string out;
  std::string err;
  // "exit code 2", "signal 11 (Segmentation fault)", "timed out"
  [[nodiscard]] std::string describe() const;
  // The exit code, or 128 + the signal number (-1 when timed out).
  [[nodiscard]] int status_code() const;
};

SpawnResult run_to_completion(const SpawnRequest& request);

}  // namespace claude::test_support
