// RunFiles: the per-session files fake-claude leaves in a FAKE_CLAUDE_RUNS directory.
//
// What it is: every fake-claude session started with FAKE_CLAUDE_RUNS=DIR claims DIR/run-N.started
// (holding its pid) and writes its JSON report to DIR/run-N.json (docs/fake-claude.md).
// read_run_files() lists them in run order, for `harness replay`/`run` and `harness check`, which
// grade every run.
//
// How it fails: a report that is missing or does not parse is reported as absent; never throws.
// What it costs: each report is read and parsed once.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace claude::conformance {

struct RunFile {
  std::size_t number = 0;                        // 1-based, in the order the sessions started
  pid_t pid = 0;                                 // 0 while the claim holds none yet
  std::optional<nlohmann::ordered_json> report;  // nullopt: not written (yet), or not a JSON object
  bool report_exists = false;                    // the file exists (it may still not parse)
};

std::vector<RunFile> read_run_files(const std::filesystem::path& dir);

// The report that decides a set of runs: the first run's that did not pass, else the last's;
// nullopt when there is no run or the deciding one wrote no report. Adds "runs_graded": how many
// runs there were.
std::optional<nlohmann::ordered_json> deciding_report(const std::vector<RunFile>& runs);

}  // namespace claude::conformance
