// bench-fuzz-execs [SECONDS] [JOBS]: how many mutated sessions per second harness fuzz's loop
// plays against the C++ SDK, in process (fuzz_sdk_session's path) and through a driver process
// plus fake-claude per execution (harness fuzz --sdk cpp's path), from the same seeds and
// mutations (--seed 1; the cases both paths support, hang mutations left out). Prints one line
// per mode: execs, seconds, execs/s, findings.
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "claude/conformance/driver_run.hpp"
#include "claude/fuzzing/campaign.hpp"
#include "claude/fuzzing/in_process_run.hpp"

namespace {

using namespace claude::fuzzing;
namespace fs = std::filesystem;

void report(const char* mode, const CampaignResult& r) {
  std::printf("%-12s %8zu execs %8.1f s %8.1f execs/s %3zu findings\n", mode, r.execs, r.seconds,
              r.seconds > 0 ? static_cast<double>(r.execs) / r.seconds : 0.0, r.findings.size());
  for (const auto& f : r.findings)
    std::printf("  %s: %s\n%s", f.violation.signature().c_str(), f.violation.message.c_str(),
                f.text.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 20;
  const std::size_t jobs = argc > 2 ? static_cast<std::size_t>(std::atoi(argv[2])) : 2;
  // In process with fuzz_sdk_session's short waits; processes with harness fuzz's defaults.
  const LenientBounds in_process_bounds{200, 1500, 3000};
  std::vector<Seed> in_process;
  for (auto& s : load_seeds({fs::path(SCENARIOS_DIR) / "conformance"}, {}, in_process_bounds).seeds)
    if (runs_in_process(s.doc)) in_process.push_back(std::move(s));
  std::vector<Seed> processes;
  for (auto& s : load_seeds({fs::path(SCENARIOS_DIR) / "conformance"}, {}, {}).seeds)
    if (runs_in_process(s.doc)) processes.push_back(std::move(s));

  CampaignOptions options;
  options.sdk = "cpp";
  options.duration = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
  options.jobs = jobs;
  options.mutate.allow_hang = false;
  options.minimize.max_runs = 0;  // measure the loop, not minimizing

  options.bounds = in_process_bounds;
  const auto in_process_result = run_campaign(in_process, options, [](const ScenarioDoc& doc) {
    auto run = run_in_process(doc);
    return run ? *run : claude::conformance::RunOutcome{};
  });
  report("in-process", in_process_result);

  const fs::path work = fs::temp_directory_path() / ("bench-fuzz-" + std::to_string(::getpid()));
  fs::create_directories(work);
  std::atomic<std::uint64_t> counter{0};
  options.bounds = {};
  const auto process_result = run_campaign(processes, options, [&](const ScenarioDoc& doc) {
    const std::string n = std::to_string(counter++);
    const fs::path scenario = work / (n + ".ndjson");
    std::ofstream(scenario) << render(doc);
    claude::conformance::DriverRunRequest request;
    request.argv = {DRIVER_CPP_PATH};
    request.env = {{"FAKE_CLAUDE", FAKE_CLAUDE_PATH},
                   {"FAKE_CLAUDE_SCENARIO", scenario.string()},
                   {"FAKE_CLAUDE_REPORT", (work / (n + ".json")).string()}};
    request.deadline = std::chrono::milliseconds(15000);
    request.report_path = work / (n + ".json");
    return claude::conformance::run_driver(request);
  });
  report("processes", process_result);
  fs::remove_all(work);
  return 0;
}
