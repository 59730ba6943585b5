#include "claude/conformance/suite_report.hpp"

#include <gtest/gtest.h>

namespace claude::conformance {
namespace {

CaseResult result_of(std::string id, Verdict verdict) {
  CaseResult r;
  r.conformance_case.id = std::move(id);
  r.conformance_case.group = r.conformance_case.id.substr(0, r.conformance_case.id.find('.'));
  r.conformance_case.description = "checks <things> & \"more\"";
  r.grade.verdict = verdict;
  if (verdict == Verdict::fail) {
    r.grade.findings.push_back({"observe", "observe[0]: nothing matches",
                                Json::parse(R"({"obs":"hook"})"), Json::parse(R"({"obs":"end"})"),
                                "/obs", ""});
  }
  return r;
}

TEST(SuiteReport, ABaselinedFailureDoesNotFailTheRun) {
  SuiteResult suite;
  suite.cases.push_back(result_of("perm.allow", Verdict::fail));
  suite.cases.back().baselined = BaselineEntry{"perm.allow", "known", 1};
  EXPECT_TRUE(suite.ok());
  EXPECT_FALSE(suite.cases.back().stale());
}

TEST(SuiteReport, ABaselinedCaseThatPassesIsStaleAndFailsTheRun) {
  SuiteResult suite;
  suite.cases.push_back(result_of("perm.allow", Verdict::pass));
  suite.cases.back().baselined = BaselineEntry{"perm.allow", "known", 1};
  EXPECT_TRUE(suite.cases.back().stale());
  EXPECT_FALSE(suite.ok());
  EXPECT_NE(case_text(suite.cases.back(), false, false).find("STALE"), std::string::npos);
}

TEST(SuiteReport, NonStrictAndSkippedDoNotFailTheRun) {
  SuiteResult suite;
  suite.cases.push_back(result_of("a.b", Verdict::non_strict));
  suite.cases.push_back(result_of("a.c", Verdict::skipped));
  EXPECT_TRUE(suite.ok());
}

TEST(SuiteReport, AFailureShowsExpectedClosestAndFirstDifference) {
  auto text = case_text(result_of("hooks.one", Verdict::fail), false, false);
  EXPECT_NE(text.find("FAIL"), std::string::npos);
  EXPECT_NE(text.find("expected: {\"obs\":\"hook\"}"), std::string::npos);
  EXPECT_NE(text.find("closest:  {\"obs\":\"end\"}"), std::string::npos);
  EXPECT_NE(text.find("first difference at /obs"), std::string::npos);
}

TEST(SuiteReport, JunitEscapesMarkupAndCountsFailuresPerGroup) {
  SuiteResult suite;
  suite.sdk = "x<y>";
  suite.cases.push_back(result_of("hooks.one", Verdict::fail));
  suite.cases.push_back(result_of("hooks.two", Verdict::pass));
  auto xml = junit_xml(suite);
  EXPECT_NE(xml.find("x&lt;y&gt;"), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"hooks\" tests=\"2\" failures=\"1\""), std::string::npos);
  EXPECT_EQ(xml.find("<y>"), std::string::npos);
}

TEST(SuiteReport, JunitTestcasesCarryTheCaseFileAndHeaderLine) {
  SuiteResult suite;
  suite.cases.push_back(result_of("hooks.one", Verdict::fail));
  suite.cases.back().conformance_case.file = "scenarios/conformance/hooks/one&two.ndjson";
  suite.cases.back().conformance_case.line = 3;
  auto xml = junit_xml(suite);
  EXPECT_NE(xml.find("<testcase classname=\"hooks\" name=\"hooks.one\" "
                     "file=\"scenarios/conformance/hooks/one&amp;two.ndjson\" line=\"3\""),
            std::string::npos)
      << xml;
}

TEST(SuiteReport, SummaryCountsEveryVerdict) {
  SuiteResult suite;
  suite.cases.push_back(result_of("a.b", Verdict::pass));
  suite.cases.push_back(result_of("a.c", Verdict::fail));
  auto text = summary_text(suite);
  EXPECT_NE(text.find("FAILED"), std::string::npos);
  EXPECT_NE(text.find("2 cases"), std::string::npos);
}

TEST(SuiteReport, JsonCarriesFindingsAndVerdicts) {
  SuiteResult suite;
  suite.cases.push_back(result_of("a.c", Verdict::fail));
  auto json = suite_json(suite);
  EXPECT_EQ(json["ok"], false);
  EXPECT_EQ(json["cases"][0]["verdict"], "FAIL");
  EXPECT_EQ(json["cases"][0]["findings"][0]["first_difference"], "/obs");
}

}  // namespace
}  // namespace claude::conformance
