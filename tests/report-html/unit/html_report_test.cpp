#include "claude/report_html/html_report.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace claude::report_html {
namespace {

using Json = nlohmann::json;

Json load(const std::string& name) {
  std::ifstream in(std::string(REPORT_HTML_TEST_DATA_DIR) + "/" + name);
  return Json::parse(in);
}

// The opening tag of the element with this id, or "" when absent.
std::string tag_with_id(const std::string& html, const std::string& id) {
  const auto at = html.find("id=\"" + id + "\"");
  if (at == std::string::npos) return {};
  const auto start = html.rfind('<', at);
  return html.substr(start, html.find('>', at) - start + 1);
}

// The y of the arrow drawn for transcript entry `id`.
int arrow_y(const std::string& html, const std::string& id) {
  const auto at = html.find("id=\"" + id + "\"");
  std::smatch m;
  const std::string rest = html.substr(at, 600);
  EXPECT_TRUE(std::regex_search(rest, m, std::regex("<line [^>]*y1=\"([0-9]+)\"")));
  return std::stoi(m[1]);
}

TEST(HtmlReport, RecognisesSuiteAndFakeClaudeReportsAndNothingElse) {
  EXPECT_EQ(document_kind(load("suite.json")), DocumentKind::suite);
  EXPECT_EQ(document_kind(load("fake-claude-fail.json")), DocumentKind::fake_claude_report);
  EXPECT_EQ(document_kind(load("not-a-report.json")), DocumentKind::unknown);
  EXPECT_EQ(document_kind(Json::array()), DocumentKind::unknown);
  EXPECT_EQ(document_kind(Json{{"conformance", 1}, {"cases", "x"}}), DocumentKind::unknown);
}

TEST(HtmlReport, CountsCasesAndFailuresButNotBaselinedOnes) {
  const auto r = render_html_report(
      {{"suite.json", load("suite.json")}, {"fake.json", load("fake-claude-fail.json")}}, "t");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.cases, 4);
  // perm.deny-message and permission-allow; mcp.tools-list fails but is in the baseline.
  EXPECT_EQ(r.failing_cases, 2);
  EXPECT_NE(r.html.find("4 cases, 2 failing"), std::string::npos);
  EXPECT_NE(r.html.find("in the baseline: tracked upstream"), std::string::npos);
}

TEST(HtmlReport, IsSelfContainedWithNoExternalReferences) {
  const auto r = render_html_report({{"suite.json", load("suite.json")}}, "t");
  EXPECT_EQ(r.html.find("src="), std::string::npos);
  EXPECT_EQ(r.html.find("<link"), std::string::npos);
  EXPECT_NE(r.html.find("default-src 'none'"), std::string::npos);
  EXPECT_NE(r.html.find("data-report-ready"), std::string::npos);
}

TEST(HtmlReport, EscapesTranscriptTextAndTitle) {
  const auto r =
      render_html_report({{"fake.json", load("fake-claude-fail.json")}}, "<b>report</b>");
  EXPECT_EQ(r.html.find("<tmp>"), std::string::npos);
  EXPECT_NE(r.html.find("&lt;tmp&gt; &amp; report"), std::string::npos);
  EXPECT_NE(r.html.find("<title>&lt;b&gt;report&lt;/b&gt;</title>"), std::string::npos);
}

TEST(HtmlReport, LinksControlRequestsToTheirResponses) {
  const auto r = render_html_report({{"fake.json", load("fake-claude-fail.json")}}, "t");
  // initialize (SDK -> CLI, entry 0) answered by entry 1; can_use_tool (CLI -> SDK, entry 4)
  // answered by entry 5.
  EXPECT_NE(tag_with_id(r.html, "case-0-t0").find("data-pair=\"case-0-p0\""), std::string::npos);
  EXPECT_NE(tag_with_id(r.html, "case-0-t1").find("data-pair=\"case-0-p0\""), std::string::npos);
  EXPECT_NE(tag_with_id(r.html, "case-0-t4").find("data-pair=\"case-0-p4\""), std::string::npos);
  EXPECT_NE(tag_with_id(r.html, "case-0-t5").find("data-pair=\"case-0-p4\""), std::string::npos);
  EXPECT_NE(r.html.find("<path class=\"pair\" data-pair=\"case-0-p0\""), std::string::npos);
  EXPECT_NE(r.html.find("<path class=\"pair\" data-pair=\"case-0-p4\""), std::string::npos);
  EXPECT_EQ(tag_with_id(r.html, "case-0-t2").find("data-pair"), std::string::npos);
}

TEST(HtmlReport, HighlightsTheEntryClosestToTheFirstMismatch) {
  const auto r = render_html_report({{"fake.json", load("fake-claude-fail.json")}}, "t");
  EXPECT_NE(tag_with_id(r.html, "case-0-t5").find("mismatch"), std::string::npos);
  for (const char* other : {"case-0-t0", "case-0-t1", "case-0-t4", "case-0-t6"}) {
    EXPECT_EQ(tag_with_id(r.html, other).find("mismatch"), std::string::npos) << other;
  }
  EXPECT_NE(r.html.find("closest to the first mismatch"), std::string::npos);
}

TEST(HtmlReport, DrawsTruncatedPreviewsAndMarksUnansweredRequests) {
  const auto r = render_html_report({{"fake.json", load("fake-claude-fail.json")}}, "t");
  // Entry 7 is a cut preview of a control_request: not JSON, yet its start names the request,
  // and nothing answers it.
  const std::string tag = tag_with_id(r.html, "case-0-t7");
  ASSERT_FALSE(tag.empty());
  EXPECT_NE(tag.find("unanswered"), std::string::npos);
  EXPECT_NE(r.html.find("control_request (cut) #perm-2 \u2014 no reply"), std::string::npos);
  EXPECT_NE(r.html.find("{&quot;type&quot;:&quot;control_request&quot;,&quot;request_id"),
            std::string::npos);

  Json report = load("fake-claude-fail.json");
  report["transcript"].erase(5);  // drop the answer to perm-1
  const auto unanswered = render_html_report({{"fake.json", report}}, "t");
  EXPECT_NE(tag_with_id(unanswered.html, "case-0-t4").find("unanswered"), std::string::npos);
}

TEST(HtmlReport, LinksARequestToAReplyCutBeforeItsEnd) {
  Json report = load("fake-claude-fail.json");
  // An initialize reply longer than the preview: cut inside its payload, after its request_id.
  report["transcript"][1]["line"] =
      R"({"type":"control_response","response":{"subtype":"success","request_id":"init-1","response":{"commands":[{"name":"rev)";
  report["transcript"][1]["truncated"] = true;
  const auto r = render_html_report({{"fake.json", report}}, "t");
  EXPECT_NE(tag_with_id(r.html, "case-0-t0").find("data-pair=\"case-0-p0\""), std::string::npos);
  EXPECT_NE(tag_with_id(r.html, "case-0-t1").find("data-pair=\"case-0-p0\""), std::string::npos);
  EXPECT_EQ(tag_with_id(r.html, "case-0-t0").find("unanswered"), std::string::npos);
}

TEST(HtmlReport, ARequestFakeClaudeAnsweredItselfIsNotUnanswered) {
  Json report = load("fake-claude-fail.json");
  report["transcript"].erase(1);  // the reply is not in the transcript; entry 0 is auto_answered
  const auto r = render_html_report({{"fake.json", report}}, "t");
  EXPECT_EQ(tag_with_id(r.html, "case-0-t0").find("unanswered"), std::string::npos);
  report["transcript"][0].erase("auto_answered");
  const auto nobody = render_html_report({{"fake.json", report}}, "t");
  EXPECT_NE(tag_with_id(nobody.html, "case-0-t0").find("unanswered"), std::string::npos);
}

TEST(HtmlReport, ColoursErrorRepliesAndErrorResultsAsFailed) {
  Json report = load("fake-claude-fail.json");
  report["transcript"][5]["line"] =
      R"({"type":"control_response","response":{"subtype":"error","request_id":"perm-1","error":"boom"}})";
  report["transcript"][3]["line"] = R"({"type":"result","subtype":"success","is_error":true})";
  const auto r = render_html_report({{"fake.json", report}}, "t");
  EXPECT_NE(tag_with_id(r.html, "case-0-t5").find(" failed"), std::string::npos);
  EXPECT_NE(tag_with_id(r.html, "case-0-t3").find(" failed"), std::string::npos);
  EXPECT_EQ(tag_with_id(r.html, "case-0-t1").find(" failed"), std::string::npos);
}

TEST(HtmlReport, ListsFailingCasesFirstAndStartsWithOnlyFailingTicked) {
  const auto r = render_html_report({{"suite.json", load("suite.json")}}, "t");
  // suite.json lists handshake.initialize (pass) before perm.deny-message (fail).
  const auto first_row = r.html.find("<tr class=\"case-row");
  ASSERT_NE(first_row, std::string::npos);
  EXPECT_EQ(
      r.html.find("<tr class=\"case-row failing\"><td><span class=\"verdict fail\">FAIL</span>"
                  "</td><td><a href=\"#case-1\">perm.deny-message"),
      first_row);
  EXPECT_LT(r.html.find("<section class=\"case failing\" id=\"case-1\""),
            r.html.find("<section class=\"case\" id=\"case-0\""));
  EXPECT_NE(r.html.find("<input type=\"checkbox\" id=\"only-failures\" checked>"),
            std::string::npos);
  EXPECT_NE(r.html.find("<body class=\"only-failures\">"), std::string::npos);

  Json passing = load("suite.json");
  passing["cases"].erase(1);  // perm.deny-message; mcp.tools-list fails but is baselined
  const auto green = render_html_report({{"suite.json", passing}}, "t");
  EXPECT_NE(green.html.find("<input type=\"checkbox\" id=\"only-failures\">"), std::string::npos);
  EXPECT_NE(green.html.find("<body>"), std::string::npos);
}

TEST(HtmlReport, PlacesLaterEntriesLowerInProportionToTime) {
  const auto r = render_html_report({{"suite.json", load("suite.json")}}, "t");
  const int y0 = arrow_y(r.html, "case-0-t0");
  const int y1 = arrow_y(r.html, "case-0-t1");
  const int y2 = arrow_y(r.html, "case-0-t2");
  const int y3 = arrow_y(r.html, "case-0-t3");
  EXPECT_LT(y0, y1);
  EXPECT_LT(y1, y2);
  // 115 ms pass between entries 2 and 3, 1 ms between 1 and 2: the gap is visibly larger.
  EXPECT_GT(y3 - y2, 2 * (y2 - y1));
}

TEST(HtmlReport, SkipsUnknownDocumentsAndNamesThem) {
  const auto r = render_html_report(
      {{"a.json", load("not-a-report.json")}, {"s.json", load("suite.json")}}, "t");
  ASSERT_EQ(r.errors.size(), 1U);
  EXPECT_NE(r.errors[0].find("a.json"), std::string::npos);
  EXPECT_EQ(r.cases, 3);
  EXPECT_NE(r.html.find("skipped a.json"), std::string::npos);
}

TEST(HtmlReport, ToleratesMembersOfTheWrongType) {
  const Json odd = {
      {"report", 1},
      {"name", 7},
      {"verdict", Json::array()},
      {"failure", {{"closest", {{"transcript_index", "x"}}}}},
      {"transcript", Json::array({"not an object", {{"t_ms", "soon"}, {"dir", 3}, {"line", 4}}})}};
  RenderedReport r;
  ASSERT_NO_THROW(r = render_html_report({{"odd.json", odd}}, "t"));
  EXPECT_EQ(r.cases, 1);
  EXPECT_EQ(r.failing_cases, 1);  // no verdict is not a pass
  EXPECT_NE(r.html.find("NO VERDICT"), std::string::npos);
}

TEST(HtmlReport, SaysSoWhenACaseHasNoTranscript) {
  const auto r = render_html_report({{"s.json", load("suite.json")}}, "t");
  EXPECT_NE(r.html.find("No fake-claude report: the SDK never started the CLI."),
            std::string::npos);
  const auto empty = render_html_report(
      {{"f.json", Json{{"report", 1}, {"verdict", "pass"}, {"transcript", Json::array()}}}}, "t");
  EXPECT_NE(empty.html.find("has no transcript"), std::string::npos);
}

}  // namespace
}  // namespace claude::report_html
