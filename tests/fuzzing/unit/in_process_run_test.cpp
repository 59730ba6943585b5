// In-process runs: the C++ SDK against the Engine in one process gives the RunOutcome a driver
// process would, and refuses what it cannot play.
#include "claude/fuzzing/in_process_run.hpp"

#include <gtest/gtest.h>

#include "claude/fuzzing/oracle.hpp"
#include "claude/fuzzing/seed_corpus.hpp"

namespace claude::fuzzing {
namespace {

ScenarioDoc seed(const std::string& relative) {
  auto load = load_seed_file(std::string(SCENARIOS_DIR) + "/conformance/" + relative, {});
  EXPECT_TRUE(load.errors.empty()) << (load.errors.empty() ? "" : load.errors.front());
  return load.seeds.front().doc;
}

TEST(InProcessRun, PlaysAConformanceCaseToItsResultWithoutAViolation) {
  const ScenarioDoc doc = seed("messages/assistant-text.ndjson");
  ASSERT_TRUE(runs_in_process(doc));
  const auto run = run_in_process(doc);
  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->driver_exit, 0);
  bool result = false;
  for (const auto& obs : run->observations)
    if (obs.value("obs", "") == "message" && obs["message"].value("type", "") == "result")
      result = true;
  EXPECT_TRUE(result);
  ASSERT_TRUE(run->fake_report.has_value());
  EXPECT_TRUE(run->fake_report->contains("transcript"));
  EXPECT_TRUE(check_oracles(doc, *run).empty());
}

TEST(InProcessRun, ACliDyingRightAfterItsResultIsNoFinding) {
  ScenarioDoc doc = seed("messages/assistant-text.ndjson");
  // The CLI dies right after its result: the SDK still yields it and raises a documented error.
  for (std::size_t i = 0; i < doc.steps.size(); ++i) {
    if (doc.steps[i].contains("send") && doc.steps[i]["send"].value("type", "") == "result") {
      doc.steps.resize(i + 1);
      doc.steps.push_back({{"kill", "SIGSEGV"}});
      break;
    }
  }
  const auto run = run_in_process(doc);
  ASSERT_TRUE(run.has_value());
  EXPECT_TRUE(check_oracles(doc, *run).empty());
}

TEST(InProcessRun, RefusesHangsAndControlCalls) {
  ScenarioDoc hanging = seed("messages/assistant-text.ndjson");
  hanging.steps.push_back({{"hang", true}});
  EXPECT_FALSE(runs_in_process(hanging));
  EXPECT_FALSE(run_in_process(hanging).has_value());
  EXPECT_FALSE(runs_in_process(seed("control/interrupt.ndjson")));
}

}  // namespace
}  // namespace claude::fuzzing
