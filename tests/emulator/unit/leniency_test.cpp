// Replay is as lenient as the real CLI where the real CLI is: control requests it always answers
// the same way, lines it writes only under a condition, options it accepts.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine_session.hpp"
#include "recorded_set.hpp"

namespace claude::emulator {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kInterrupt =
    R"({"type":"control_request","request_id":"stop-1","request":{"subtype":"interrupt"}})";

using testing::recordings;
using testing::sdk_lines;

struct Replayed {
  Report report;
  std::string stdout_text;
};

Replayed replay(Scenario scenario, const std::vector<std::string>& lines, Environment env) {
  Engine engine(
      std::move(scenario),
      parse_invocation(std::vector<std::string>{"--output-format", "stream-json", "--verbose",
                                                "--input-format", "stream-json"}),
      std::move(env));
  engine.start(0);
  Replayed out;
  auto drain = [&] {
    for (auto& o : engine.take_output()) {
      if (o.stream == Output::Stream::stdout_stream) out.stdout_text += o.bytes;
    }
  };
  drain();
  for (const std::string& line : lines) {
    engine.on_line(line, false, 1);
    drain();
  }
  engine.on_eof(2);
  drain();
  out.report = engine.report();
  return out;
}

Scenario load(const fs::path& file) {
  auto loaded = load_scenario_file(file);
  EXPECT_TRUE(loaded.ok()) << loaded.errors.front().to_string();
  return std::move(*loaded.scenario);
}

const Environment kReadsSessionState = {{"CLAUDE_CODE_SDK_READS_SESSION_STATE", "1"}};

TEST(Leniency, EveryRecordingReplaysToAClientThatInterruptsWhenItStops) {
  for (const fs::path& file : recordings()) {
    std::vector<std::string> lines = sdk_lines(file);
    lines.emplace_back(kInterrupt);
    const Replayed run = replay(load(file), lines, kReadsSessionState);
    EXPECT_TRUE(run.report.passed)
        << file << ": " << (run.report.failure ? run.report.failure->message : "");
    EXPECT_NE(run.stdout_text.find(R"("request_id":"stop-1","response":{"still_queued":[]})"),
              std::string::npos)
        << file << ": the interrupt was not answered";
    ASSERT_FALSE(run.report.notes.empty()) << file;
    EXPECT_NE(run.report.notes.back().find("interrupt"), std::string::npos);
  }
}

TEST(Leniency, ARepeatedInitializeIsAnsweredWithANote) {
  const fs::path file = fs::path(RECORDED_DIR) / "cli-2.1.332/plain-text/ts.ndjson";
  std::vector<std::string> lines = sdk_lines(file);
  lines.emplace_back(
      R"({"type":"control_request","request_id":"again","request":{"subtype":"initialize"}})");
  const Replayed run = replay(load(file), lines, kReadsSessionState);
  EXPECT_TRUE(run.report.passed);
  EXPECT_NE(run.stdout_text.find(R"("request_id":"again")"), std::string::npos);
}

TEST(Leniency, AScenarioSayingLenientFalseFailsOnTheLeftoverInterrupt) {
  const fs::path file = fs::path(RECORDED_DIR) / "cli-2.1.332/plain-text/cpp.ndjson";
  Scenario strict = load(file);
  strict.header.lenient = false;
  std::vector<std::string> lines = sdk_lines(file);
  lines.emplace_back(kInterrupt);
  const Replayed run = replay(std::move(strict), lines, kReadsSessionState);
  EXPECT_FALSE(run.report.passed);
  ASSERT_TRUE(run.report.failure);
  // Strict replay ends at the interrupt itself: no step is left that could take it.
  EXPECT_EQ(run.report.failure->kind, "unexpected");
}

TEST(Leniency, LenientIsAHeaderFieldAndConvertedRecordingsKeepIt) {
  const fs::path file = fs::path(RECORDED_DIR) / "cli-2.1.332/plain-text/cpp.ndjson";
  const std::string converted = to_ndjson(load(file));
  EXPECT_NE(converted.find(R"("lenient":true)"), std::string::npos);
  auto reloaded = load_scenario_text(converted, "converted.ndjson");
  ASSERT_TRUE(reloaded.ok()) << reloaded.errors.front().to_string();
  EXPECT_TRUE(reloaded.scenario->header.lenient);
}

TEST(Leniency, SessionStateLinesReplayOnlyToClientsThatAskForThem) {
  const fs::path file = fs::path(RECORDED_DIR) / "cli-2.1.332/plain-text/ts.ndjson";
  const Replayed asked = replay(load(file), sdk_lines(file), kReadsSessionState);
  const Replayed not_asked = replay(load(file), sdk_lines(file), {});
  EXPECT_TRUE(asked.report.passed);
  EXPECT_TRUE(not_asked.report.passed);
  EXPECT_NE(asked.stdout_text.find("session_state_changed"), std::string::npos);
  EXPECT_EQ(not_asked.stdout_text.find("session_state_changed"), std::string::npos);
  ASSERT_FALSE(not_asked.report.notes.empty());
  EXPECT_NE(not_asked.report.notes.front().find("CLAUDE_CODE_SDK_READS_SESSION_STATE"),
            std::string::npos);
}

TEST(Leniency, ConvertedRecordingsKeepTheSessionStateCondition) {
  const fs::path file = fs::path(RECORDED_DIR) / "cli-2.1.332/plain-text/ts.ndjson";
  const std::string converted = to_ndjson(load(file));
  EXPECT_NE(converted.find(R"("if_env":{"CLAUDE_CODE_SDK_READS_SESSION_STATE":"1"})"),
            std::string::npos);
  auto reloaded = load_scenario_text(converted, "converted.ndjson");
  ASSERT_TRUE(reloaded.ok()) << reloaded.errors.front().to_string();
  const Replayed not_asked = replay(std::move(*reloaded.scenario), sdk_lines(file), {});
  EXPECT_TRUE(not_asked.report.passed);
  EXPECT_EQ(not_asked.stdout_text.find("session_state_changed"), std::string::npos);
}

TEST(Leniency, BasicTurnAcceptsPrintWithStreamJsonInputAsTheRealCliDoes) {
  const fs::path file = fs::path(SCENARIOS_DIR) / "verbs/basic-turn.ndjson";
  Engine engine(
      load(file),
      parse_invocation(std::vector<std::string>{"--print", "--output-format", "stream-json",
                                                "--verbose", "--input-format", "stream-json"}),
      {});
  engine.start(0);
  engine.on_line(R"({"type":"user","message":{"role":"user","content":"hi"}})", false, 1);
  engine.on_eof(2);
  EXPECT_TRUE(engine.report().passed)
      << (engine.report().failure ? engine.report().failure->message : "");
}

}  // namespace
}  // namespace claude::emulator
