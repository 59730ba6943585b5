#include "case_view.hpp"

#include <algorithm>
#include <cctype>

namespace claude::report_html {
namespace {

using Json = nlohmann::json;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The lines `harness replay` prints for a failed fake-claude verdict, in the same order.
std::vector<std::string> fake_report_findings(const Json& report) {
  std::vector<std::string> out;
  if (const auto errors = report.find("errors"); errors != report.end() && errors->is_array()) {
    for (const auto& e : *errors) {
      if (!e.is_object()) continue;
      const auto line = e.find("line");
      out.push_back(string_member(e, "file") + ":" +
                    (line != e.end() && line->is_number_integer() ? line->dump() : "?") + ": " +
                    string_member(e, "reason"));
    }
  }
  const auto failure = report.find("failure");
  if (failure == report.end() || !failure->is_object()) return out;
  out.push_back(string_member(*failure, "location") + ": " + string_member(*failure, "kind") +
                ": " + string_member(*failure, "message"));
  if (const auto expected = failure->find("expected"); expected != failure->end()) {
    out.push_back("expected: " + expected->dump());
  }
  const auto closest = failure->find("closest");
  if (closest == failure->end() || !closest->is_object()) return out;
  out.push_back("closest:  " + string_member(*closest, "line"));
  if (const auto diffs = closest->find("differences");
      diffs != closest->end() && diffs->is_array()) {
    for (const auto& d : *diffs) {
      if (d.is_object()) {
        out.push_back("  at " + string_member(d, "pointer") + ": " + string_member(d, "reason"));
      }
    }
  }
  return out;
}

void collect_suite(const ReportSource& source, std::vector<CaseView>& cases) {
  for (const auto& c : source.document["cases"]) {
    if (!c.is_object()) continue;
    CaseView view;
    view.origin = source.origin;
    view.id = string_member(c, "id");
    view.group = string_member(c, "group");
    view.description = string_member(c, "description");
    view.verdict = lower(string_member(c, "verdict"));
    view.baselined = string_member(c, "baselined");
    view.stale = c.contains("stale") && c["stale"] == true;
    if (const auto s = c.find("seconds"); s != c.end() && s->is_number()) view.seconds = *s;
    if (const auto f = c.find("findings"); f != c.end() && f->is_array()) {
      for (const auto& finding : *f) {
        if (!finding.is_object()) continue;
        std::string text =
            string_member(finding, "where") + ": " + string_member(finding, "message");
        if (const auto e = finding.find("expected"); e != finding.end()) {
          text += "\n  expected: " + e->dump();
        }
        if (const auto cl = finding.find("closest"); cl != finding.end()) {
          text += "\n  closest:  " + (cl->is_string() ? cl->get<std::string>() : cl->dump());
        }
        if (const auto p = string_member(finding, "first_difference"); !p.empty()) {
          text += "\n  first difference at " + p;
        }
        if (const auto d = string_member(finding, "detail"); !d.empty()) text += "\n  " + d;
        view.findings.push_back(std::move(text));
      }
    }
    if (const auto r = c.find("fake_claude_report"); r != c.end() && r->is_object()) {
      view.fake_report = &*r;
    }
    cases.push_back(std::move(view));
  }
}

void collect_fake_report(const ReportSource& source, std::vector<CaseView>& cases) {
  const Json& report = source.document;
  CaseView view;
  view.origin = source.origin;
  view.id = string_member(report, "name");
  if (view.id.empty()) view.id = string_member(report, "scenario");
  if (view.id.empty()) view.id = source.origin;
  view.description = string_member(report, "scenario");
  view.verdict = lower(string_member(report, "verdict"));
  // One block, as `harness replay` prints it.
  std::string joined;
  for (const auto& line : fake_report_findings(report))
    joined += (joined.empty() ? "" : "\n") + line;
  if (!joined.empty()) view.findings.push_back(std::move(joined));
  view.fake_report = &report;
  cases.push_back(std::move(view));
}

}  // namespace

std::string string_member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return {};
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool CaseView::failing() const {
  if (stale) return true;
  return (verdict == "fail" || verdict == "error" || verdict.empty()) && baselined.empty();
}

DocumentKind document_kind(const nlohmann::json& document) {
  if (!document.is_object()) return DocumentKind::unknown;
  if (const auto c = document.find("conformance"); c != document.end() && *c == 1 &&
                                                   document.contains("cases") &&
                                                   document["cases"].is_array()) {
    return DocumentKind::suite;
  }
  if (const auto r = document.find("report"); r != document.end() && *r == 1) {
    return DocumentKind::fake_claude_report;
  }
  return DocumentKind::unknown;
}

void collect_cases(const ReportSource& source, std::vector<CaseView>& cases,
                   std::vector<std::string>& errors) {
  switch (document_kind(source.document)) {
    case DocumentKind::suite:
      collect_suite(source, cases);
      return;
    case DocumentKind::fake_claude_report:
      collect_fake_report(source, cases);
      return;
    case DocumentKind::unknown:
      errors.push_back(source.origin +
                       ": neither a suite report (\"conformance\":1 with \"cases\") nor a "
                       "fake-claude report (\"report\":1)");
      return;
  }
}

}  // namespace claude::report_html
