// Causal order (docs/scenario.md, "Ordering"): a line the fake writes waits only for the SDK lines
// it depends on, so SDKs that order their writes differently replay the same scenario.
#include <gtest/gtest.h>

#include "engine_session.hpp"

namespace claude::emulator {
namespace {

constexpr const char* kCausal =
    R"({"scenario":1,"name":"c","order":"causal","auto_initialize":false})";

// The TypeScript SDK's order as recorded: initialize and the prompt written back to back, then the
// initialize reply and the turn.
std::string ts_order_scenario() {
  return scenario(
      {R"({"expect":{"type":"control_request","request_id":{"$capture":"init"},"request":{"subtype":"initialize"}},"label":"init"})",
       R"({"expect":{"type":"user"},"label":"turn_1"})",
       R"({"send":{"type":"control_response","response":{"subtype":"success","request_id":"${init}","response":{}}}})",
       R"({"send":{"type":"system","subtype":"init"},"after":["turn_1"]})",
       R"({"send":{"type":"result","subtype":"success"}})", R"({"expect_eof":true})",
       R"({"exit":0})"},
      kCausal);
}

TEST(CausalOrder, AReplyWaitsOnlyForItsRequest) {
  // The Python SDK's order: the prompt only once initialize is answered.
  Session run(ts_order_scenario());
  run.line(kInit);
  ASSERT_EQ(run.sent().size(), 1u);
  EXPECT_EQ(run.sent()[0]["response"]["request_id"], "vs9lj41n0l");
  run.line(kUser);
  ASSERT_EQ(run.sent().size(), 3u);
  EXPECT_EQ(run.sent()[2]["type"], "result");
  run.eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(CausalOrder, TheRecordedOrderStillPasses) {
  Session run(ts_order_scenario());
  run.line(kUser).line(kInit).eof();
  EXPECT_EQ(run.sent().size(), 3u);
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(CausalOrder, WhatAnswersATurnWaitsForTheTurn) {
  Session run(ts_order_scenario());
  run.line(kInit);
  run.time(500);
  EXPECT_EQ(run.sent().size(), 1u) << "the turn's lines went out before the prompt came";
  EXPECT_FALSE(run.engine().finished());
}

TEST(CausalOrder, AnExpectedLineThatNeverComesStillFailsWithItsLine) {
  Session run(ts_order_scenario());
  run.line(kInit).time(10001);
  ASSERT_EQ(run.failure_kind(), "timeout");
  EXPECT_EQ(run.report().failure->line, 3u);
  EXPECT_NE(run.report().failure->message.find("expect (line 3)"), std::string::npos);
}

TEST(CausalOrder, StdinClosedBeforeAnExpectedLineFailsAtOnce) {
  Session run(ts_order_scenario());
  run.line(kInit).eof(5);
  EXPECT_EQ(run.failure_kind(), "eof");
  EXPECT_EQ(run.report().failure->line, 3u);
}

TEST(CausalOrder, AWaitsTimerStartsWhenTheStepsBeforeItHaveRun) {
  Session run(scenario({R"({"expect":{"type":"user"},"label":"turn_1"})",
                        R"({"send":{"type":"result"},"after":["turn_1"]})",
                        R"({"expect":{"type":"user"},"within_ms":100,"label":"turn_2"})",
                        R"({"send":{"type":"result"},"after":["turn_2"]})"},
                       kCausal));
  run.time(5000).line(kUser, 5000).time(5099);
  EXPECT_FALSE(run.engine().finished()) << "turn 2 timed out from the start, not from its turn";
  run.time(5100);
  EXPECT_EQ(run.failure_kind(), "timeout");
}

TEST(CausalOrder, AnExitWaitsForEveryExpectedLine) {
  Session run(scenario(
      {R"({"expect":{"type":"keep_alive"}})", R"({"send":{"type":"result"}})", R"({"exit":3})"},
      kCausal));
  EXPECT_EQ(run.sent().size(), 1u) << "a send after an unrelated wait goes out at once";
  EXPECT_FALSE(run.engine().finished());
  run.line(R"({"type":"keep_alive"})");
  EXPECT_TRUE(run.engine().finished());
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
  EXPECT_EQ(run.engine().ending().code, 3);
}

TEST(CausalOrder, ASendUsingACaptureWaitsForTheLineThatBindsIt) {
  Session run(scenario({R"({"expect":{"type":"user","uuid":{"$capture":"u"}}})",
                        R"({"send":{"type":"ack","of":"${u}"}})"},
                       kCausal));
  EXPECT_TRUE(run.sent().empty());
  run.line(R"({"type":"user","uuid":"u-1"})");
  ASSERT_EQ(run.sent().size(), 1u);
  EXPECT_EQ(run.sent()[0]["of"], "u-1");
}

TEST(CausalOrder, RespondAnswersTheRequestOfTheNearestExpectBeforeIt) {
  Session run(
      scenario({R"({"expect":{"type":"control_request","request":{"subtype":"interrupt"}}})",
                R"({"expect":{"type":"control_request","request":{"subtype":"set_model"}}})",
                R"({"respond":{"model":"m"}})"},
               kCausal));
  run.line(
      R"({"type":"control_request","request_id":"r-model","request":{"subtype":"set_model"}})");
  ASSERT_EQ(run.sent().size(), 1u);
  EXPECT_EQ(run.sent()[0]["response"]["request_id"], "r-model");
  run.line(R"({"type":"control_request","request_id":"r-int","request":{"subtype":"interrupt"}})");
  run.eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(CausalOrder, ALineWaitingForABindingMatchesOnceTheBindingComes) {
  Session run(scenario({R"({"expect":{"type":"a","id":{"$capture":"a"}}})",
                        R"({"expect":{"type":"b","ref":{"$var":"a"}}})"},
                       R"({"scenario":1,"order":"causal"})"));
  run.line(R"({"type":"b","ref":"x"})").line(R"({"type":"a","id":"x"})").eof();
  EXPECT_TRUE(run.report().passed) << report_text(run.report());
}

TEST(CausalOrder, ARequestsResponseDoesNotHoldUpLaterSteps) {
  Session run(scenario(
      {R"({"request":{"subtype":"can_use_tool"},"as":"perm","expect_response":{"subtype":"success"},"label":"perm"})",
       R"({"send":{"type":"assistant"}})", R"({"send":{"type":"result"},"after":["perm"]})"},
      kCausal));
  ASSERT_EQ(run.sent().size(), 2u);
  EXPECT_EQ(run.sent()[1]["type"], "assistant");
  const std::string id = run.sent()[0]["request_id"];
  run.line(R"({"type":"control_response","response":{"subtype":"success","request_id":")" + id +
           R"(","response":{}}})");
  ASSERT_EQ(run.sent().size(), 3u);
  EXPECT_EQ(run.sent()[2]["type"], "result");
}

TEST(CausalOrder, SequentialScenariosKeepTheirExplicitOrder) {
  Session run(scenario({R"({"expect":{"type":"user"}})", R"({"send":{"type":"result"}})"},
                       R"({"scenario":1})"));
  run.line(R"({"type":"keep_alive"})");
  EXPECT_TRUE(run.sent().empty());
}

TEST(CausalOrderLoad, LabelAndAfterNeedCausalOrder) {
  auto loaded = load_scenario_text(
      scenario({R"({"expect":{"type":"user"},"label":"t"})", R"({"send":{},"after":["t"]})"}),
      "s.ndjson");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.errors[0].to_string(),
            "s.ndjson:2: 'label' and 'after' need \"order\":\"causal\" in the header");
}

TEST(CausalOrderLoad, BadLabelsAreFileLineErrors) {
  auto loaded = load_scenario_text(
      scenario({R"({"send":{},"label":"s"})", R"({"expect":{},"label":"t"})",
                R"({"expect":{},"label":"t"})", R"({"send":{},"after":["nope"]})",
                R"({"expect_eof":true,"after":["t"]})", R"({"send":{},"after":[]})"},
               R"({"scenario":1,"order":"causal"})"),
      "s.ndjson");
  ASSERT_EQ(loaded.errors.size(), 5u);
  EXPECT_NE(loaded.errors[0].to_string().find("s.ndjson:7: 'after' takes a non-empty array"),
            std::string::npos);
  std::vector<std::string> found;
  for (const auto& e : loaded.errors) found.push_back(e.to_string());
  EXPECT_NE(found[1].find("s.ndjson:2: 'label' names a wait"), std::string::npos) << found[1];
  EXPECT_NE(found[2].find("s.ndjson:4: label 't' is already used by line 3"), std::string::npos)
      << found[2];
  EXPECT_NE(found[3].find("s.ndjson:5: after: no earlier step is labelled 'nope'"),
            std::string::npos)
      << found[3];
  EXPECT_NE(found[4].find("s.ndjson:6: 'after' orders the steps that write"), std::string::npos)
      << found[4];
}

TEST(CausalOrderLoad, UnknownOrderIsAnError) {
  auto loaded = load_scenario_text(R"({"scenario":1,"order":"random"})", "s.ndjson");
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.errors[0].to_string(),
            "s.ndjson:1: header 'order' must be \"sequential\" or \"causal\"");
}

TEST(CausalOrderLoad, ConvertedScenariosKeepOrderLabelsAndAfter) {
  const std::string text = scenario({R"({"expect":{"type":"user"},"label":"turn_1"})",
                                     R"({"send":{"type":"result"},"after":["turn_1"]})"},
                                    R"({"scenario":1,"order":"causal"})");
  auto loaded = load_scenario_text(text, "s.ndjson");
  ASSERT_TRUE(loaded.ok());
  const std::string written = to_ndjson(*loaded.scenario);
  EXPECT_NE(written.find(R"("order":"causal")"), std::string::npos) << written;
  EXPECT_NE(written.find(R"({"expect":{"type":"user"},"label":"turn_1"})"), std::string::npos);
  EXPECT_NE(written.find(R"({"send":{"type":"result"},"after":["turn_1"]})"), std::string::npos);
  auto again = load_scenario_text(written, "w.ndjson");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again.scenario->steps[1].waits_for, std::vector<std::size_t>{0});
}

}  // namespace
}  // namespace claude::emulator
