#include "claude/report_html/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <numeric>
#include <vector>

#include "case_view.hpp"
#include "claude/report_html/html_text.hpp"
#include "page_assets.hpp"
#include "sequence_diagram.hpp"

namespace claude::report_html {
namespace {

using Json = nlohmann::json;

std::string verdict_class(const std::string& verdict) {
  if (verdict == "pass" || verdict == "fail" || verdict == "error") return verdict;
  return "other";
}

std::string verdict_badge(const CaseView& c) {
  std::string text = c.verdict.empty() ? std::string("no verdict") : c.verdict;
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  return "<span class=\"verdict " + verdict_class(c.verdict) + "\">" + escape_html(text) +
         "</span>";
}

std::string seconds_text(double seconds) {
  if (seconds < 0) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", seconds);
  return buffer;
}

std::string suite_summary(const Json& suite) {
  std::string out = "<p class=\"meta\">suite report";
  if (const auto sdk = string_member(suite, "sdk"); !sdk.empty()) {
    out += " · SDK command: <code>" + escape_html(sdk) + "</code>";
  }
  if (const auto dir = string_member(suite, "suite"); !dir.empty()) {
    out += " · suite: <code>" + escape_html(dir) + "</code>";
  }
  if (const auto wall = suite.find("wall_seconds"); wall != suite.end() && wall->is_number()) {
    out += " · wall time " + seconds_text(wall->get<double>()) + " s";
  }
  if (const auto jobs = suite.find("jobs"); jobs != suite.end() && jobs->is_number_integer()) {
    out += " · " + jobs->dump() + " jobs";
  }
  return out + "</p>\n";
}

std::string fake_claude_summary(const Json& report) {
  std::string out =
      "<p class=\"meta\">fake-claude: verdict " + escape_html(string_member(report, "verdict"));
  if (const auto ending = report.find("ending"); ending != report.end() && ending->is_object()) {
    out += " · ending <code>" + escape_html(ending->dump()) + "</code>";
  }
  if (const auto scenario = string_member(report, "scenario"); !scenario.empty()) {
    out += " · scenario <code>" + escape_html(scenario) + "</code>";
  }
  return out + "</p>\n";
}

std::string case_section(const CaseView& c, std::size_t number) {
  const std::string anchor = "case-" + std::to_string(number);
  std::string out = "<section class=\"case" + std::string(c.failing() ? " failing" : "") +
                    "\" id=\"" + anchor + "\">\n<h2>" + verdict_badge(c) + " " + escape_html(c.id) +
                    "</h2>\n";
  if (!c.description.empty()) {
    out += "<p class=\"description\">" + escape_html(c.description) + "</p>\n";
  }
  out += "<p class=\"origin\">from " + escape_html(c.origin) +
         (c.group.empty() ? "" : " · group " + escape_html(c.group)) + "</p>\n";
  if (!c.baselined.empty()) {
    out += "<p class=\"meta\">in the baseline: " + escape_html(c.baselined) +
           (c.stale ? " — but it passed: the baseline entry is stale" : "") + "</p>\n";
  }
  for (const auto& finding : c.findings) {
    out += "<pre class=\"finding\">" + escape_html(finding) + "</pre>\n";
  }
  if (c.fake_report != nullptr) {
    out += fake_claude_summary(*c.fake_report);
    out += sequence_diagram_svg(*c.fake_report, anchor);
  } else {
    out += "<p class=\"empty\">No fake-claude report: the SDK never started the CLI.</p>\n";
  }
  return out + "</section>\n";
}

}  // namespace

RenderedReport render_html_report(const std::vector<ReportSource>& sources,
                                  std::string_view title) {
  RenderedReport rendered;
  std::vector<CaseView> cases;
  for (const auto& source : sources) collect_cases(source, cases, rendered.errors);
  rendered.cases = static_cast<int>(cases.size());
  rendered.failing_cases = static_cast<int>(
      std::count_if(cases.begin(), cases.end(), [](const CaseView& c) { return c.failing(); }));

  std::string& html = rendered.html;
  const std::string escaped_title = escape_html(title);
  html += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Self-contained by policy as well as by construction: the page may load nothing.
  html +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  html += "<title>" + escaped_title + "</title>\n<style>" + std::string(kPageStyle) +
          "</style>\n<script>" + std::string(kErrorRecorderScript) + "</script>\n</head>\n<body" +
          (rendered.failing_cases > 0 ? " class=\"only-failures\"" : "") + ">\n";
  html += "<h1>" + escaped_title + "</h1>\n";
  html += "<p class=\"meta\">" + std::to_string(rendered.cases) + " cases, " +
          std::to_string(rendered.failing_cases) + " failing</p>\n";
  for (const auto& source : sources) {
    if (document_kind(source.document) == DocumentKind::suite) {
      html += suite_summary(source.document);
    }
  }
  if (!rendered.errors.empty()) {
    html += "<ul class=\"errors\">\n";
    for (const auto& e : rendered.errors) html += "<li>skipped " + escape_html(e) + "</li>\n";
    html += "</ul>\n";
  }
  // Failing cases first, and only they at first when there are any: that is what the reader
  // opened the page for. Anchors keep the input order (case-N is the N-th case read).
  std::vector<std::size_t> order(cases.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t i) { return cases[i].failing(); });
  const bool any_failing = rendered.failing_cases > 0;
  html += "<label><input type=\"checkbox\" id=\"only-failures\"" +
          std::string(any_failing ? " checked" : "") + "> only failing cases</label>\n";
  html +=
      "<table class=\"cases\">\n<tr><th>verdict</th><th>case</th><th>group</th>"
      "<th>seconds</th><th>first finding</th></tr>\n";
  for (const std::size_t i : order) {
    const CaseView& c = cases[i];
    const std::string first = c.findings.empty() ? "" : shorten(c.findings.front(), 120);
    html += "<tr class=\"case-row" + std::string(c.failing() ? " failing" : "") + "\"><td>" +
            verdict_badge(c) + "</td><td><a href=\"#case-" + std::to_string(i) + "\">" +
            escape_html(c.id) + "</a></td><td>" + escape_html(c.group) + "</td><td>" +
            seconds_text(c.seconds) + "</td><td>" + escape_html(first) + "</td></tr>\n";
  }
  html += "</table>\n";
  for (const std::size_t i : order) html += case_section(cases[i], i);
  html += "<script>" + std::string(kPageScript) + "</script>\n</body>\n</html>\n";
  return rendered;
}

}  // namespace claude::report_html
