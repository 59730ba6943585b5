// The HTML report: one self-contained page (inline CSS and script, nothing loaded) from
// `harness check --json` suite reports and fake-claude JSON reports (FAKE_CLAUDE_REPORT,
// `harness replay --report`).
//
// What it is: a case list with verdicts, then per case its findings and fake-claude's transcript
// as a sequence diagram (SDK left, CLI right, time flowing down): control request/response pairs
// are bracketed and highlight each other on hover; the entry closest to the first mismatch is red.
//
// How it fails: never throws on odd input. A document of neither kind is skipped and named in
// `errors`; members of the wrong type count as absent; cut previews (not whole JSON) are still
// drawn, labelled from their text.
//
// What it costs: linear in the transcript entries; at most kMaxDrawnEntries are drawn per case.
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
