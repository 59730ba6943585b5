// Minimizer: keeps what the failure needs and drops the rest, within its budget.
#include "claude/fuzzing/minimizer.hpp"

#include <gtest/gtest.h>

namespace claude::fuzzing {
namespace {

ScenarioDoc long_session() {
  return *parse_doc(R"({"scenario":1,"description":"a session","driver":{"prompt":"hi"}}
{"expect":{"type":"user"}}
{"send":{"type":"system","subtype":"init","session_id":"s","tools":["Bash","Read"]}}
{"send":{"type":"assistant","message":{"content":[{"type":"text","text":"hello"}]}}}
{"send":{"type":"fuzz_marker","keep":1,"noise":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}
{"stderr":"a line on stderr\n"}
{"send":{"type":"result","subtype":"success"}}
{"expect_eof":true}
{"exit":0}
)");
}

// Fails while some step sends the marker with its `keep` member.
bool has_marker(const ScenarioDoc& doc) {
  for (const auto& step : doc.steps)
    if (step.contains("send") && step["send"].value("type", "") == "fuzz_marker" &&
        step["send"].contains("keep"))
      return true;
  return false;
}

TEST(Minimizer, KeepsOnlyTheStepAndTheMembersTheFailureNeeds) {
  auto result = minimize(long_session(), has_marker, {});
  ASSERT_EQ(result.doc.steps.size(), 1u);
  EXPECT_EQ(result.doc.steps[0]["send"], (Json{{"type", "fuzz_marker"}, {"keep", 1}}));
  EXPECT_FALSE(result.doc.header.contains("description"));
  EXPECT_TRUE(result.doc.header.contains("driver"));
  EXPECT_TRUE(load_errors(result.doc).empty());
}

TEST(Minimizer, ShortensLongRawTextWhileItStillFails) {
  ScenarioDoc doc = *parse_doc(R"({"scenario":1,"driver":{"prompt":"hi"}}
{"raw":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"}
)");
  auto fails = [](const ScenarioDoc& d) {
    return !d.steps.empty() && d.steps[0].contains("raw") &&
           d.steps[0]["raw"].get<std::string>().ends_with("\n");
  };
  auto result = minimize(doc, fails, {});
  EXPECT_LE(result.doc.steps[0]["raw"].get<std::string>().size(), 65u);
}

TEST(Minimizer, NeverRunsMoreCandidatesThanItsBudget) {
  std::size_t calls = 0;
  auto counting = [&](const ScenarioDoc& d) {
    ++calls;
    return has_marker(d);
  };
  MinimizeBudget budget;
  budget.max_runs = 3;
  auto result = minimize(long_session(), counting, budget);
  EXPECT_EQ(calls, 3u);
  EXPECT_EQ(result.runs, 3u);
  EXPECT_TRUE(has_marker(result.doc));
}

TEST(Minimizer, ReturnsTheInputWhenNothingSmallerFails) {
  const ScenarioDoc doc = long_session();
  auto result = minimize(doc, [](const ScenarioDoc& d) { return d.steps.size() == 8; }, {});
  EXPECT_EQ(result.doc.steps.size(), 8u);
}

}  // namespace
}  // namespace claude::fuzzing
