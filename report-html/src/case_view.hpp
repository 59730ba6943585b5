// A case as the page shows it, read from either kind of input document.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "claude/report_html/html_report.hpp"

namespace claude::report_html {

struct CaseView {
  std::string id;
  std::string group;
  std::string description;
  std::string verdict;  // lower case: pass, fail, error, non-strict, skipped, …
  std::string origin;
  std::string baselined;  // the baseline's reason, when the case is listed there
  bool stale = false;     // baselined, yet it passed
  double seconds = -1;    // < 0: unknown
  std::vector<std::string> findings;
  const nlohmann::json* fake_report = nullptr;  // into the source document; may be null

  [[nodiscard]] bool failing() const;
};

// Appends the cases of `source` to `cases`; a document of neither kind adds to `errors`.
void collect_cases(const ReportSource& source, std::vector<CaseView>& cases,
                   std::vector<std::string>& errors);

// The text a member has when it is a string, else "".
std::string string_member(const nlohmann::json& object, const char* key);

}  // namespace claude::report_html
