#include "run_verdicts.hpp"

#include <fstream>
#include <ostream>

#include "claude/base/excerpt.hpp"
#include "claude/conformance/run_files.hpp"

namespace claude::harness {
namespace {

namespace fs = std::filesystem;

// No "scenario" member, or the empty string. (nlohmann's empty() is false for every string.)
bool lacks_scenario(const nlohmann::json& report) {
  const auto it = report.find("scenario");
  return it == report.end() || (it->is_string() && it->get_ref<const std::string&>().empty());
}

nlohmann::json missing_report(const std::string& scenario, const RunRecord& run,
                              const std::string& why) {
  return {{"report", 1},
          {"scenario", scenario},
          {"run", run.number},
          {"verdict", "fail"},
          {"failure",
           {{"kind", "no_report"},
            {"location", scenario},
            {"message", "fake-claude (run " + std::to_string(run.number) + ", pid " +
                            std::to_string(run.pid) + ") ended without a report: " + why}}}};
}

void print_one(const nlohmann::json& report, const std::string& prefix, std::ostream& out) {
  if (report.contains("errors")) {
    for (const auto& e : report["errors"]) {
      out << prefix << e.value("file", "") << ":" << e.value("line", 0) << ": "
          << e.value("reason", "") << '\n';
    }
  }
  if (report.contains("notes") && report["notes"].is_array()) {
    for (const auto& note : report["notes"]) {
      if (note.is_string()) out << prefix << "note: " << note.get<std::string>() << '\n';
    }
  }
  if (report.contains("failure") && report["failure"].is_object()) {
    const auto& f = report["failure"];
    out << prefix << f.value("location", "") << ": " << f.value("kind", "") << ": "
        << f.value("message", "") << '\n';
    if (f.contains("expected")) out << prefix << "expected: " << f["expected"].dump() << '\n';
    if (f.contains("closest") && f["closest"].is_object()) {
      const auto& c = f["closest"];
      out << prefix << "closest:  " << c.value("line", "") << '\n';
      if (c.contains("differences")) {
        for (const auto& d : c["differences"]) {
          out << prefix << "  at " << d.value("pointer", "") << ": " << d.value("reason", "")
              << '\n';
        }
      }
    }
  }
  // SDK lines no step consumed: what the client said that the scenario did not expect.
  if (report.contains("leftover") && report["leftover"].is_array() && !report["leftover"].empty()) {
    out << prefix << "SDK lines no step consumed (" << report["leftover"].size() << "):\n";
    std::size_t shown = 0;
    for (const auto& entry : report["leftover"]) {
      if (++shown > 5) {
        out << prefix << "  … " << report["leftover"].size() - 5 << " more in the report\n";
        break;
      }
      out << prefix << "  " << base::excerpt(entry.value("line", ""), 160) << '\n';
    }
  }
}

}  // namespace

std::vector<RunRecord> read_runs(const fs::path& dir) {
  std::vector<RunRecord> runs;
  for (auto& file : conformance::read_run_files(dir)) {
    RunRecord run;
    run.number = file.number;
    run.pid = file.pid;
    run.report = file.report ? nlohmann::json(*file.report)
                             : missing_report("", run,
                                              file.report_exists
                                                  ? "its report does not parse"
                                                  : "it was killed or crashed before writing one");
    runs.push_back(std::move(run));
  }
  return runs;
}

// Reads only the claims (run_files.hpp): this runs every scan while harness waits.
bool run_unreported(const fs::path& dir, pid_t pid) {
  for (std::size_t number = 1;; ++number) {
    const std::string run = "run-" + std::to_string(number);
    std::ifstream claim(dir / (run + ".started"));
    if (!claim) return false;
    long claimed = 0;
    std::error_code ec;
    if (claim >> claimed && claimed == pid) return !fs::exists(dir / (run + ".json"), ec);
  }
}

nlohmann::json combine_runs(const std::string& scenario, const std::vector<std::size_t>& parts,
                            const std::vector<RunRecord>& runs) {
  if (runs.size() == 1 && parts.size() <= 1) {
    nlohmann::json only = runs.front().report;
    if (lacks_scenario(only)) only["scenario"] = scenario;
    return only;
  }
  nlohmann::json combined = {
      {"report", 1}, {"scenario", scenario}, {"runs", nlohmann::json::array()}};
  std::string verdict = "pass";
  for (const auto& run : runs) {
    nlohmann::json report = run.report;
    report["run"] = run.number;
    if (lacks_scenario(report)) report["scenario"] = scenario;
    const std::string v = report.value("verdict", "fail");
    if (v == "error") {
      verdict = "error";
    } else if (v != "pass" && verdict == "pass") {
      verdict = "fail";
    }
    if (v != "pass" && !combined.contains("failure") && report.contains("failure")) {
      nlohmann::json failure = report["failure"];
      failure["message"] =
          "run " + std::to_string(run.number) + ": " + failure.value("message", "");
      failure["run"] = run.number;
      combined["failure"] = std::move(failure);
    }
    combined["runs"].push_back(std::move(report));
  }
  // A multi-run scenario: every part must have been played by its run.
  if (parts.size() > 1 && runs.size() < parts.size()) {
    if (verdict == "pass") verdict = "fail";
    const std::size_t first = runs.size() + 1;
    nlohmann::json failure = {
        {"kind", "run_missing"},
        {"location", scenario + ":" + std::to_string(parts[first - 1])},
        {"line", parts[first - 1]},
        {"message", "the scenario describes " + std::to_string(parts.size()) +
                        " runs but the client started claude " + std::to_string(runs.size()) +
                        " time(s): part " + std::to_string(first) + " never ran"}};
    if (!combined.contains("failure")) combined["failure"] = failure;
    combined["missing_runs"] = parts.size() - runs.size();
  }
  combined["verdict"] = verdict;
  return combined;
}

void print_runs(const nlohmann::json& combined, std::ostream& out) {
  if (combined.contains("runs")) {
    std::size_t failed = 0;
    for (const auto& run : combined["runs"]) {
      const std::string v = run.value("verdict", "?");
      if (v != "pass") ++failed;
      out << "harness: run " << run.value("run", 0) << ": verdict " << v << " (argv "
          << (run.contains("argv") ? run["argv"].dump() : "[]") << ")\n";
      print_one(run, "    ", out);
    }
    out << "harness: verdict " << combined.value("verdict", "?") << " ("
        << combined.value("scenario", "") << "): " << combined["runs"].size() << " run(s), "
        << failed << " failed\n";
    if (combined.contains("missing_runs") && combined.contains("failure")) {
      out << "  " << combined["failure"].value("location", "") << ": "
          << combined["failure"].value("message", "") << '\n';
    }
    return;
  }
  out << "harness: verdict " << combined.value("verdict", "?") << " ("
      << combined.value("scenario", "") << ")\n";
  print_one(combined, "  ", out);
}

}  // namespace claude::harness
