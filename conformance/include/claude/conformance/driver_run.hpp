// DriverRun: runs one driver process for one case and collects what it produced.
//
// What it is: spawns the driver command (posix_spawnp, an argv vector, never a shell) in a
// process group of its own, with stdin from /dev/null and the case's variables added to the
// environment (FAKE_CLAUDE, FAKE_CLAUDE_SCENARIO, FAKE_CLAUDE_REPORT); reads its stdout as
// observations (NDJSON) and keeps a tail of its stderr; at the deadline, or shortly after the
// driver exits, kills whatever is left of the group (the SDK's CLI, a hanging fake-claude), and
// every process that left the group (`setsid`, daemons) but carries the case's marker variable
// (CLAUDE_HARNESS_CASE, inherited by everything the driver starts unless a process clears its
// environment), so nothing outlives the case.
//
// How it fails: a command that cannot be started is reported as exit 127 with the reason in
// `driver_stderr`; it never throws for what the driver does.
//
// What it costs: one process group per case; observations are held in memory.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "claude/conformance/grade.hpp"

namespace claude::conformance {

struct DriverRunRequest {
  std::vector<std::string> argv;                         // the driver command
  std::vector<std::pair<std::string, std::string>> env;  // added to (over) the host's
  std::chrono::milliseconds deadline{60000};
  std::filesystem::path report_path;  // read after the run, if written
  // When set: FAKE_CLAUDE_RUNS, every fake-claude session's report is there (run_files.hpp), and
  // the report that decides is the first failing run's, else the last's (report_path unused).
  std::filesystem::path runs_dir;
};

RunOutcome run_driver(const DriverRunRequest& request);

}  // namespace claude::conformance
