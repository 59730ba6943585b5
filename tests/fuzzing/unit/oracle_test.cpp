// Oracles: each fires on a crafted execution that breaks it and stays quiet on a clean one.
#include "claude/fuzzing/oracle.hpp"

#include <gtest/gtest.h>

#include <csignal>

namespace claude::fuzzing {
namespace {

using claude::conformance::RunOutcome;

ScenarioDoc turn_with_result() {
  return *parse_doc(R"({"scenario":1,"driver":{"prompt":"hi"}}
{"expect":{"type":"user"}}
{"send":{"type":"result","subtype":"success","is_error":false}}
)");
}

Json report_with_steps(std::initializer_list<const char*> statuses) {
  Json steps = Json::array();
  for (const char* s : statuses) steps.push_back({{"status", s}});
  return {
      {"report", 1}, {"steps", steps}, {"transcript", Json::array()}, {"ending", {{"exit", 0}}}};
}

RunOutcome clean_run() {
  RunOutcome run;
  run.driver_exit = 0;
  run.observations = {Json{{"obs", "start"}},
                      Json{{"obs", "message"}, {"message", {{"type", "result"}}}},
                      Json{{"obs", "end"}, {"ok", true}}};
  run.fake_report = report_with_steps({"done", "done"});
  return run;
}

// Every violation's signature; "" (never a signature) stands for none, so .front() is safe.
std::vector<std::string> signatures(const ScenarioDoc& doc, const RunOutcome& run) {
  std::vector<std::string> out;
  for (const auto& v : check_oracles(doc, run)) out.push_back(v.signature());
  return out;
}

std::string first(const std::vector<std::string>& signatures) {
  return signatures.empty() ? "" : signatures.front();
}

TEST(Oracles, ACleanRunViolatesNothing) {
  EXPECT_TRUE(signatures(turn_with_result(), clean_run()).empty());
}

TEST(Oracles, DeathBySignalIsACrash) {
  RunOutcome run = clean_run();
  run.driver_exit.reset();
  run.driver_signal = SIGSEGV;
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "crash:SIGSEGV");
}

TEST(Oracles, AnUncaughtExceptionExitIsACrashNamingItsClass) {
  RunOutcome run = clean_run();
  run.driver_exit = 1;
  run.driver_stderr = "Traceback (most recent call last):\n  ...\nKeyError: 'type'\n";
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "crash:exit-1:KeyError");
}

TEST(Oracles, ATimedOutSessionIsAHangUnlessTheCliWasToldToHang) {
  RunOutcome run = clean_run();
  run.driver_exit = 3;
  run.observations = {Json{{"obs", "message"}, {"message", {{"type", "result"}}}},
                      Json{{"obs", "error"}, {"name", "Timeout"}, {"message", "x"}},
                      Json{{"obs", "end"}, {"ok", false}, {"timeout", true}}};
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "hang:cli-exit-0");

  ScenarioDoc hanging = turn_with_result();
  hanging.steps.push_back({{"hang", true}});
  run.fake_report = report_with_steps({"done", "done", "done"});
  EXPECT_TRUE(signatures(hanging, run).empty());
}

TEST(Oracles, AResultSentButNeitherYieldedNorRaisedIsLost) {
  RunOutcome run = clean_run();
  run.observations = {Json{{"obs", "start"}}, Json{{"obs", "end"}, {"ok", true}}};
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "result-lost:success-result:silent");
}

TEST(Oracles, ADocumentedErrorExcusesAMissingResult) {
  RunOutcome run = clean_run();
  run.observations = {Json{{"obs", "error"}, {"name", "ProcessError"}, {"message", "exit 1"}},
                      Json{{"obs", "end"}, {"ok", false}}};
  EXPECT_TRUE(signatures(turn_with_result(), run).empty());
}

TEST(Oracles, ARuntimeErrorInsteadOfTheResultIsALostResultAndAnUncaughtError) {
  ScenarioDoc doc = turn_with_result();
  doc.steps[1]["send"]["subtype"] = "error_during_execution";
  RunOutcome run = clean_run();
  run.observations = {Json{{"obs", "error"},
                           {"name", "TypeError"},
                           {"message", "Cannot read properties of undefined (reading 'map')"}},
                      Json{{"obs", "end"}, {"ok", false}}};
  EXPECT_EQ(signatures(doc, run), (std::vector<std::string>{"result-lost:error-result:TypeError",
                                                            "uncaught-error:TypeError"}));
}

TEST(Oracles, AResultOfAStepThatNeverRanIsNotOwed) {
  RunOutcome run = clean_run();
  run.observations = {Json{{"obs", "end"}, {"ok", true}}};
  run.fake_report = report_with_steps({"done", "not_run"});
  EXPECT_TRUE(signatures(turn_with_result(), run).empty());
}

TEST(Oracles, AResultInRawBytesCountsWhenItsLineIsComplete) {
  ScenarioDoc doc = *parse_doc(R"({"scenario":1,"driver":{"prompt":"hi"}}
{"expect":{"type":"user"}}
{"raw":"\ufeff{\"type\":\"result\",\"subtype\":\"success\"}\r\n"}
)");
  RunOutcome run = clean_run();
  run.observations = {Json{{"obs", "end"}, {"ok", true}}};
  EXPECT_EQ(first(signatures(doc, run)), "result-lost:success-result:silent");
  doc.steps[1]["raw"] = "{\"type\":\"result\",\"subtype\":\"success\"}";  // cut: no newline
  EXPECT_TRUE(signatures(doc, run).empty());
}

TEST(Oracles, ARuntimeErrorIsUncaughtEvenWhenTheResultCame) {
  RunOutcome run = clean_run();
  run.observations.push_back(Json{{"obs", "error"}, {"name", "AttributeError"}, {"message", "x"}});
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "uncaught-error:AttributeError");
}

TEST(Oracles, ACliRequestWhoseAnswerTimedOutIsUnanswered) {
  ScenarioDoc doc = turn_with_result();
  doc.steps.insert(doc.steps.begin() + 1, Json{{"request", {{"subtype", "can_use_tool"}}},
                                               {"expect_response", Json::object()}});
  RunOutcome run = clean_run();
  Json report = report_with_steps({"done", "failed", "not_run"});
  report["failure"] = {{"kind", "timeout"}, {"step", 1}, {"verb", "request"}};
  run.fake_report = report;
  run.observations = {Json{{"obs", "error"}, {"name", "ProcessError"}, {"message", "exit 1"}}};
  EXPECT_EQ(first(signatures(doc, run)), "control-unanswered:can_use_tool");

  report["failure"]["kind"] = "eof";  // the SDK closed stdin: not "while stdin stayed open"
  run.fake_report = report;
  EXPECT_TRUE(signatures(doc, run).empty());
}

TEST(Oracles, MoreAnswersThanRequestsIsAnsweredTwice) {
  RunOutcome run = clean_run();
  Json report = report_with_steps({"done", "done"});
  report["transcript"] = Json::array(
      {Json{
           {"dir", "out"},
           {"line",
            R"({"type":"control_request","request_id":"r1","request":{"subtype":"hook_callback"}})"}},
       Json{
           {"dir", "in"},
           {"line",
            R"({"type":"control_response","response":{"subtype":"success","request_id":"r1"}})"}}});
  run.fake_report = report;
  EXPECT_TRUE(signatures(turn_with_result(), run).empty());
  report["transcript"].push_back(report["transcript"][1]);
  run.fake_report = report;
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "control-answered-twice:hook_callback");
}

TEST(Oracles, AProcessOutlivingACleanDriverIsLeaked) {
  RunOutcome run = clean_run();
  run.leaked_processes = 1;
  EXPECT_EQ(first(signatures(turn_with_result(), run)), "leaked-process:cli");
}

TEST(Oracles, AnUnsupportedCaseIsNotJudged) {
  RunOutcome run;
  run.driver_exit = 4;
  EXPECT_TRUE(signatures(turn_with_result(), run).empty());
}

TEST(Oracles, RuntimeErrorNamesAreTellFromDocumentedOnes) {
  for (const char* name :
       {"TypeError", "KeyError", "AttributeError", "nlohmann::detail::type_error"})
    EXPECT_TRUE(is_runtime_error_name(name)) << name;
  for (const char* name : {"ProcessError", "CLIConnectionError", "Error", "ResultError"})
    EXPECT_FALSE(is_runtime_error_name(name)) << name;
}

}  // namespace
}  // namespace claude::fuzzing
