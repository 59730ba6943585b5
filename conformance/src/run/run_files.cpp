#include "claude/conformance/run_files.hpp"

#include <algorithm>
#include <fstream>
#include <string>

#include "claude/base/input_file.hpp"

namespace claude::conformance {

std::vector<RunFile> read_run_files(const std::filesystem::path& dir) {
  std::vector<RunFile> runs;
  for (std::size_t number = 1;; ++number) {
    const std::string base = "run-" + std::to_string(number);
    std::ifstream claim(dir / (base + ".started"));
    if (!claim) break;
    RunFile run;
    run.number = number;
    long pid = 0;
    if (claim >> pid) run.pid = static_cast<pid_t>(pid);
    std::string error;
    const auto text = base::read_input_file(dir / (base + ".json"), error);
    run.report_exists = text.has_value();
    if (text) {
      auto report = nlohmann::ordered_json::parse(*text, nullptr, /*allow_exceptions=*/false);
      if (report.is_object()) run.report = std::move(report);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

std::optional<nlohmann::ordered_json> deciding_report(const std::vector<RunFile>& runs) {
  if (runs.empty()) return std::nullopt;
  const auto failing = std::find_if(runs.begin(), runs.end(), [](const RunFile& run) {
    return !run.report || run.report->value("verdict", "") != "pass";
  });
  const RunFile& deciding = failing == runs.end() ? runs.back() : *failing;
  if (!deciding.report) return std::nullopt;
  nlohmann::ordered_json report = *deciding.report;
  report["runs_graded"] = runs.size();
  return report;
}

}  // namespace claude::conformance
