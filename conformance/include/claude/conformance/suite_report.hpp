// Suite reports: the results of a `harness check` run for people (text), CI (JUnit XML) and
// tools (JSON).
//
// What it is: `CaseResult` holds one case's grade, run and baseline status; the functions here
// render them. A failing case's text names, without needing our code: what was expected (the
// pattern), what the SDK did (the closest line or observation), and where they first differ
// (a JSON Pointer), plus fake-claude's and the driver's own words.
//
// How it fails: it does not.
//
// What it costs: rendering is proportional to the findings; transcripts are not repeated.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "claude/conformance/baseline.hpp"
#include "claude/conformance/conformance_case.hpp"
#include "claude/conformance/grade.hpp"

namespace claude::conformance {

struct CaseResult {
  ConformanceCase conformance_case;
  Grade grade;
  RunOutcome run;
  std::optional<BaselineEntry> baselined;  // listed in the baseline
  [[nodiscard]] bool stale() const;        // baselined, yet it passed
  [[nodiscard]] bool counts_as_failure() const;
};

struct SuiteResult {
  std::string sdk;
  std::string suite;
  int jobs = 1;
  double wall_seconds = 0;
  std::vector<CaseResult> cases;  // in id order
  [[nodiscard]] bool ok() const;
};

// One line (and, for failures, the findings indented under it).
std::string case_text(const CaseResult& result, bool colour, bool verbose);
// Counts per group and in total, and the wall time.
std::string summary_text(const SuiteResult& suite);
std::string junit_xml(const SuiteResult& suite);
Json suite_json(const SuiteResult& suite);

}  // namespace claude::conformance
