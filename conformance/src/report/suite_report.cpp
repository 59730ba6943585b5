#include "claude/conformance/suite_report.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "claude/base/excerpt.hpp"
#include "claude/base/json.hpp"
#include "claude/report_html/html_text.hpp"

namespace claude::conformance {
namespace {

std::string seconds_text(double seconds) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2fs", seconds);
  return buffer;
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += prefix + text.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string verdict_label(const CaseResult& r) {
  if (r.stale()) return "STALE";
  if (r.baselined && r.grade.verdict == Verdict::fail) return "FAIL (baselined)";
  return std::string(to_string(r.grade.verdict));
}

std::string colour_of(const CaseResult& r) {
  // Green PASS, red FAIL, yellow NON-STRICT, cyan SKIPPED (in Verdict order).
  static constexpr const char* kByVerdict[] = {"\033[32m", "\033[31m", "\033[33m", "\033[36m"};
  if (r.stale()) return "\033[31m";
  if (r.baselined && r.grade.verdict == Verdict::fail) return "\033[33m";
  return kByVerdict[static_cast<std::size_t>(r.grade.verdict)];
}

// XML 1.0 forbids most control characters even escaped; they become '?' before HTML escaping,
// whose entities XML shares.
std::string xml_escape(std::string_view text) {
  std::string printable(text);
  for (char& c : printable) {
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') c = '?';
  }
  return report_html::escape_html(printable);
}

std::string findings_text(const CaseResult& r) {
  std::string out;
  for (const auto& f : r.grade.findings) {
    out += "  " + f.where + ": " + f.message + "\n";
    if (f.expected)
      out += "    expected: " + base::excerpt(base::dump_json(*f.expected), 600) + "\n";
    if (f.closest) {
      out += "    closest:  " + base::excerpt(base::dump_json(*f.closest), 600) + "\n";
      out += "    first difference at " +
             (f.pointer.empty() ? std::string("(the whole value)") : f.pointer) + "\n";
    }
    if (!f.detail.empty()) out += indent(base::excerpt(f.detail, 2000), "    | ");
  }
  if (r.stale()) {
    out += "  baseline: listed as an expected failure (" + r.baselined->reason +
           "), but it passes now: remove it from the baseline\n";
  } else if (r.baselined && r.grade.verdict == Verdict::fail) {
    out += "  baseline: expected failure — " + r.baselined->reason + "\n";
  }
  return out;
}

}  // namespace

bool CaseResult::stale() const {
  return baselined && (grade.verdict == Verdict::pass || grade.verdict == Verdict::non_strict);
}

bool CaseResult::counts_as_failure() const {
  if (stale()) return true;
  return grade.verdict == Verdict::fail && !baselined;
}

bool SuiteResult::ok() const {
  return std::ranges::none_of(cases, &CaseResult::counts_as_failure);
}

std::string case_text(const CaseResult& r, bool colour, bool verbose) {
  std::string label = verdict_label(r);
  std::string padded = label;
  padded.resize(std::max<std::size_t>(label.size(), 10), ' ');
  std::string out = colour ? colour_of(r) + padded + "\033[0m" : padded;
  out += " " + r.conformance_case.id + "  " + seconds_text(r.run.seconds) + "\n";
  const bool explain = verbose || r.grade.verdict != Verdict::pass || r.baselined;
  if (explain) {
    if (r.grade.verdict == Verdict::fail || r.stale() || verbose) {
      out += "  case: " + r.conformance_case.file.string() + "\n";
      out += "  what it checks: " + r.conformance_case.description + "\n";
    }
    out += findings_text(r);
  }
  return out;
}

std::string summary_text(const SuiteResult& suite) {
  // PASS, FAIL, NON-STRICT, SKIPPED (in Verdict order), BASELINED, STALE.
  using Counts = std::array<int, 6>;
  std::map<std::string, Counts> groups;
  Counts total{};
  for (const auto& r : suite.cases) {
    const bool baselined_failure = r.baselined && r.grade.verdict == Verdict::fail;
    for (Counts* c : {&groups[r.conformance_case.group], &total}) {
      if (r.stale()) ++(*c)[5];
      ++(*c)[baselined_failure ? 4 : static_cast<std::size_t>(r.grade.verdict)];
    }
  }
  char line[160];
  std::string out;
  std::snprintf(line, sizeof line, "%-12s %6s %6s %10s %8s %10s %6s\n", "group", "PASS", "FAIL",
                "NON-STRICT", "SKIPPED", "BASELINED", "STALE");
  out += line;
  auto row = [&](const std::string& name, const Counts& c) {
    std::snprintf(line, sizeof line, "%-12s %6d %6d %10d %8d %10d %6d\n", name.c_str(), c[0], c[1],
                  c[2], c[3], c[4], c[5]);
    out += line;
  };
  for (const auto& [name, counts] : groups) row(name, counts);
  row("total", total);
  out += std::to_string(suite.cases.size()) + " cases, sdk " + suite.sdk + ", -j" +
         std::to_string(suite.jobs) + ", wall " + seconds_text(suite.wall_seconds) + ": " +
         (suite.ok() ? "OK" : "FAILED") + "\n";
  return out;
}

std::string junit_xml(const SuiteResult& suite) {
  std::map<std::string, std::vector<const CaseResult*>> groups;
  for (const auto& r : suite.cases) groups[r.conformance_case.group].push_back(&r);
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"claude-harness conformance (" + xml_escape(suite.sdk) + ")\" time=\"" +
         std::to_string(suite.wall_seconds) + "\">\n";
  for (const auto& [group, results] : groups) {
    int failures = 0, skipped = 0;
    for (const auto* r : results) {
      if (r->counts_as_failure()) ++failures;
      if (r->grade.verdict == Verdict::skipped || (r->baselined && !r->stale())) ++skipped;
    }
    out += "  <testsuite name=\"" + xml_escape(group) + "\" tests=\"" +
           std::to_string(results.size()) + "\" failures=\"" + std::to_string(failures) +
           "\" skipped=\"" + std::to_string(skipped) + "\">\n";
    for (const auto* r : results) {
      // file and line (of the case's header) let CI annotate the scenario that failed.
      out += "    <testcase classname=\"" + xml_escape(group) + "\" name=\"" +
             xml_escape(r->conformance_case.id) + "\" file=\"" +
             xml_escape(r->conformance_case.file.string()) + "\" line=\"" +
             std::to_string(r->conformance_case.line) + "\" time=\"" +
             std::to_string(r->run.seconds) + "\">\n";
      const std::string text = findings_text(*r);
      if (r->counts_as_failure()) {
        const std::string message =
            r->grade.findings.empty() ? verdict_label(*r) : r->grade.findings.front().message;
        out += "      <failure message=\"" + xml_escape(message) + "\">" + xml_escape(text) +
               "</failure>\n";
      } else if (r->grade.verdict == Verdict::skipped || r->baselined) {
        out += "      <skipped message=\"" + xml_escape(verdict_label(*r)) + "\"/>\n";
      }
      if (!text.empty()) out += "      <system-out>" + xml_escape(text) + "</system-out>\n";
      out += "    </testcase>\n";
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

Json suite_json(const SuiteResult& suite) {
  Json cases = Json::array();
  for (const auto& r : suite.cases) {
    Json c = {{"id", r.conformance_case.id},
              {"group", r.conformance_case.group},
              {"file", r.conformance_case.file.string()},
              {"description", r.conformance_case.description},
              {"verdict", to_string(r.grade.verdict)},
              {"seconds", r.run.seconds}};
    if (r.baselined) c["baselined"] = r.baselined->reason;
    if (r.stale()) c["stale"] = true;
    Json findings = Json::array();
    for (const auto& f : r.grade.findings) {
      Json finding = {{"where", f.where}, {"message", f.message}};
      if (f.expected) finding["expected"] = *f.expected;
      if (f.closest) finding["closest"] = *f.closest;
      if (!f.pointer.empty()) finding["first_difference"] = f.pointer;
      if (!f.detail.empty()) finding["detail"] = f.detail;
      findings.push_back(std::move(finding));
    }
    c["findings"] = std::move(findings);
    c["driver_exit"] = r.run.driver_exit ? Json(*r.run.driver_exit) : Json(nullptr);
    if (r.run.fake_report) c["fake_claude_report"] = *r.run.fake_report;
    c["observations"] = r.run.observations;
    cases.push_back(std::move(c));
  }
  return {{"conformance", 1},
          {"sdk", suite.sdk},
          {"suite", suite.suite},
          {"jobs", suite.jobs},
          {"wall_seconds", suite.wall_seconds},
          {"ok", suite.ok()},
          {"cases", std::move(cases)}};
}

}  // namespace claude::conformance
