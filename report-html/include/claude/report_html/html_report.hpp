// The HTML report: one self-contained page (inline CSS and script, no external resources) from
// `harness check --json` suite reports and fake-claude JSON reports (FAKE_CLAUDE_REPORT,
// `harness replay --report`).
//
// What it is: a case list with verdicts, then per case its findings and the session as a
// two-column sequence diagram (SDK on the left, CLI on the right, time flowing down), drawn from
// fake-claude's transcript: control_request/control_response pairs are linked by a bracket and
// highlight each other on hover, and the transcript entry fake-claude named as the closest to
// its first mismatch is drawn in red.
//
// How it fails: never throws on odd input. A document that is neither a suite report nor a
// fake-claude report is skipped and named in `errors`; members of the wrong type are treated as
// absent; transcript lines that are truncated previews (not whole JSON) are still drawn, labelled
// from their text.
//
// What it costs: linear in the number of transcript entries; each preview appears once in the
// page (at most kMaxDrawnEntries per case are drawn, the rest are counted).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace claude::report_html {

inline constexpr std::size_t kMaxDrawnEntries = 2000;

// One parsed input document; `origin` (usually its file path) names it in errors and the page.
struct ReportSource {
  std::string origin;
  nlohmann::json document;
};

struct RenderedReport {
  std::string html;
  std::vector<std::string> errors;  // "<origin>: <reason>" per skipped document
  int cases = 0;
  int failing_cases = 0;  // failed or errored, and not excused by a baseline
};

enum class DocumentKind { suite, fake_claude_report, unknown };

// A suite report has `"conformance": 1` and a `cases` array; a fake-claude report `"report": 1`.
DocumentKind document_kind(const nlohmann::json& document);

RenderedReport render_html_report(const std::vector<ReportSource>& sources, std::string_view title);

}  // namespace claude::report_html
