// RunVerdicts: every fake-claude session of one `harness replay` (or `run`), graded together.
//
// What it is: fake-claude, started with FAKE_CLAUDE_RUNS=DIR, claims DIR/run-N.started and writes
// DIR/run-N.json (emulator/src/process/run_slot.hpp). read_runs() collects them in run order;
// combine_runs() makes the one verdict: pass only when every run passed and every part of a
// multi-run scenario was played; error when a run's scenario did not load. print_runs() writes
// the summary (each run's verdict, failure, closest line, and the SDK lines no step consumed).
//
// How it fails: a run whose report is missing or unreadable is a failed run with the reason.
// What it costs: every report is read and held in memory once.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace claude::harness {

struct RunRecord {
  std::size_t number = 0;  // 1-based, in the order the sessions started
  pid_t pid = 0;           // 0 while the claim holds none yet
  nlohmann::json report;   // the run's report; a synthesized failed one when it wrote none
};

std::vector<RunRecord> read_runs(const std::filesystem::path& dir);

// Whether `pid` is a run of DIR that has not written its report yet (harness waits for those).
bool run_unreported(const std::filesystem::path& dir, pid_t pid);

// One JSON report for all runs (`parts`: the line of each part's header, several for a multi-run
// scenario). With one run of a one-part scenario it is that run's report unchanged; otherwise
// {"report":1,"scenario":…,"verdict":…,"runs":[…],"failure":…} where `failure` is the first
// failing run's, its message prefixed with "run N: ".
nlohmann::json combine_runs(const std::string& scenario, const std::vector<std::size_t>& parts,
                            const std::vector<RunRecord>& runs);

void print_runs(const nlohmann::json& combined, std::ostream& out);

}  // namespace claude::harness
