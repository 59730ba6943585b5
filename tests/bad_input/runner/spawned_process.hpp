// SpawnedProcess: runs one executable to completion for a test — argv without a shell, a chosen
// environment, bytes on stdin, stdout and stderr collected — and says how it ended.
//
// How it fails: a child still running at the deadline is SIGKILLed and reported as timed out, so
// a hang is a test failure rather than a stuck suite. An exec failure is exit code 127.
//
// What it costs: one fork/exec and a poll loop over three pipes; output is held in memory.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace claude::testing {

struct SpawnRequest {
  std::filesystem::path program;
  std::vector<std::string> args;           // argv[1..]
  std::map<std::string, std::string> env;  // set over the parent's environment
  std::vector<std::string> unset_env;      // removed from the parent's environment
  std::string stdin_bytes;                 // written, then stdin is closed
  std::filesystem::path cwd;               // empty: the parent's
  std::chrono::milliseconds timeout{30000};
};

struct SpawnResult {
  bool timed_out = false;
  bool signaled = false;
  int exit_code = -1;   // when !signaled
  int term_signal = 0;  // when signaled
  std::string out;
  std::string err;
  // "exit code 2", "signal 11", "timed out"
  [[nodiscard]] std::string describe() const;
};

SpawnResult run_to_completion(const SpawnRequest& request);

}  // namespace claude::testing
