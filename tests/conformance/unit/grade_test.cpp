#include "claude/conformance/grade.hpp"

#include <gtest/gtest.h>

namespace claude::conformance {
namespace {

ConformanceCase sample_case() {
  ConformanceCase c;
  c.id = "perm.allow";
  c.group = "perm";
  c.observe = {Json::parse(R"({"obs":"can_use_tool","tool":"Bash"})"),
               Json::parse(R"({"obs":"message","message":{"type":"result"}})")};
  c.observe_absent = {Json::parse(R"({"obs":"error"})")};
  c.observe_should = {Json::parse(R"({"obs":"message","message":{"type":"rate_limit_event"}})")};
  return c;
}

RunOutcome passing_run() {
  RunOutcome run;
  run.driver_exit = 0;
  run.fake_report = Json::parse(R"({"report":1,"verdict":"pass"})");
  for (const char* line :
       {R"({"obs":"start"})", R"({"obs":"message","message":{"type":"rate_limit_event"}})",
        R"({"obs":"can_use_tool","tool":"Bash","input":{}})",
        R"({"obs":"message","message":{"type":"result","subtype":"success"}})",
        R"({"obs":"end","ok":true})"}) {
    run.observations.push_back(Json::parse(line));
  }
  return run;
}

TEST(Grade, PassesWhenWireAndObservationsAgree) {
  auto g = grade(sample_case(), passing_run());
  EXPECT_EQ(g.verdict, Verdict::pass);
  EXPECT_TRUE(g.findings.empty());
}

TEST(Grade, FailsOnWireMismatchAndQuotesFakeClaude) {
  auto run = passing_run();
  run.fake_report = Json::parse(R"({"report":1,"verdict":"fail","failure":{"kind":"mismatch",
    "location":"case.ndjson:4","message":"the response does not match",
    "expected":{"behavior":"deny"},
    "closest":{"line":"{\"behavior\":\"allow\"}","first_difference":"/behavior"}}})");
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  ASSERT_EQ(g.findings.size(), 1u);
  EXPECT_EQ(g.findings[0].where, "wire");
  EXPECT_NE(g.findings[0].message.find("case.ndjson:4"), std::string::npos);
  EXPECT_EQ(g.findings[0].pointer, "/behavior");
  EXPECT_EQ(*g.findings[0].closest, Json::parse(R"({"behavior":"allow"})"));
}

TEST(Grade, FailsWhenFakeClaudeWroteNoReport) {
  auto run = passing_run();
  run.fake_report.reset();
  auto g = grade(sample_case(), run);
  EXPECT_EQ(g.verdict, Verdict::fail);
  EXPECT_EQ(g.findings.at(0).where, "wire");
}

TEST(Grade, FailsWhenObservationsComeInTheWrongOrder) {
  auto run = passing_run();
  std::swap(run.observations[2], run.observations[3]);
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  EXPECT_EQ(g.findings.at(0).where, "observe");
  EXPECT_NE(g.findings[0].message.find("not after"), std::string::npos);
}

TEST(Grade, FailsWhenARequiredObservationIsMissingAndShowsTheClosest) {
  auto run = passing_run();
  run.observations[2] = Json::parse(R"({"obs":"can_use_tool","tool":"Read"})");
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  EXPECT_EQ(g.findings.at(0).where, "observe");
  EXPECT_EQ(g.findings[0].pointer, "/tool");
  EXPECT_EQ(g.findings[0].closest->value("tool", ""), "Read");
}

TEST(Grade, FailsWhenAForbiddenObservationIsPresent) {
  auto run = passing_run();
  run.observations.insert(run.observations.end() - 1,
                          Json::parse(R"({"obs":"error","message":"boom"})"));
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  EXPECT_EQ(g.findings.at(0).where, "observe_absent");
}

TEST(Grade, IsNonStrictWhenOnlyARecommendationIsUnmet) {
  auto run = passing_run();
  run.observations.erase(run.observations.begin() + 1);
  auto g = grade(sample_case(), run);
  EXPECT_EQ(g.verdict, Verdict::non_strict);
  EXPECT_EQ(g.findings.at(0).where, "observe_should");
}

TEST(Grade, IsSkippedWhenTheDriverExitsFourAndNamesTheFeature) {
  RunOutcome run;
  run.driver_exit = 4;
  run.observations = {Json::parse(R"({"obs":"unsupported","feature":"hooks"})")};
  auto g = grade(sample_case(), run);
  EXPECT_EQ(g.verdict, Verdict::skipped);
  EXPECT_NE(g.findings.at(0).message.find("hooks"), std::string::npos);
}

TEST(Grade, FailsWhenTheSdkHangs) {
  auto run = passing_run();
  run.driver_exit.reset();
  run.timed_out = true;
  run.driver_signal = 9;
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  EXPECT_NE(g.findings.at(0).message.find("hung"), std::string::npos);
}

TEST(Grade, FailsWhenObservationsEndWithoutAnEndLine) {
  auto run = passing_run();
  run.observations.pop_back();
  EXPECT_EQ(grade(sample_case(), run).verdict, Verdict::fail);
}

TEST(Grade, ReportsObservationLinesThatAreNotJson) {
  auto run = passing_run();
  run.bad_lines = {"not json"};
  auto g = grade(sample_case(), run);
  ASSERT_EQ(g.verdict, Verdict::fail);
  EXPECT_NE(g.findings.at(0).message.find("not json"), std::string::npos);
}

}  // namespace
}  // namespace claude::conformance
