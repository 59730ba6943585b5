// Pacing of a replayed recording (EngineOptions::speed), driven with virtual time: the recorded
// gaps between an SDK line and the CLI lines it caused come back scaled by 1/speed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "claude/emulator/engine.hpp"

namespace claude::emulator {
namespace {

// The SDK sends a user message at t=1.0; the CLI answers at t=1.5 and t=3.0, the SDK closes
// stdin at t=3.1 and the CLI exits at t=3.3. Before that, a system line at t=0.2 (no cause but
// the start).
constexpr const char* kRecording =
    R"({"recording":1,"argv":[],"env":{},"cwd":"/","cli":"claude","cli_version":"2.1.332","started_at":"2026-11-30T00:00:00.000Z"})"
    "\n"
    R"({"t":0.200000,"dir":"out","line":"{\"type\":\"system\",\"subtype\":\"init\"}"})"
    "\n"
    R"({"t":1.000000,"dir":"in","line":"{\"type\":\"user\",\"message\":{}}"})"
    "\n"
    R"({"t":1.500000,"dir":"out","line":"{\"type\":\"assistant\",\"n\":1}"})"
    "\n"
    R"({"t":3.000000,"dir":"out","line":"{\"type\":\"result\",\"n\":2}"})"
    "\n"
    R"({"t":3.100000,"eof":"in"})"
    "\n"
    R"({"t":3.300000,"exit":0})"
    "\n";

constexpr const char* kUserLine = R"({"type":"user","message":{}})";

class PacedReplay {
 public:
  explicit PacedReplay(double speed) {
    auto loaded = load_scenario_text(kRecording, "gaps.ndjson");
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.errors.front().to_string());
    EngineOptions options;
    options.speed = speed;
    engine_ = std::make_unique<Engine>(std::move(*loaded.scenario), parse_invocation({}),
                                       Environment{}, options);
  }

  // Lines written so far.
  std::size_t lines() {
    for (const auto& out : engine_->take_output()) {
      for (char c : out.bytes) lines_ += c == '\n' ? 1 : 0;
    }
    return lines_;
  }

  Engine& engine() { return *engine_; }

 private:
  std::unique_ptr<Engine> engine_;
  std::size_t lines_ = 0;
};

TEST(ReplayPacing, RecordingStepsKeepTheirRecordedTime) {
  auto loaded = load_scenario_text(kRecording, "gaps.ndjson");
  ASSERT_TRUE(loaded.ok());
  std::vector<double> t;
  for (const Step& step : loaded.scenario->steps) t.push_back(step.recorded_t.value_or(-1));
  EXPECT_EQ(t, (std::vector<double>{0.2, 1.0, 1.5, 3.0, 3.1, 3.3}));
}

TEST(ReplayPacing, SpeedZeroPlaysAsFastAsCausalityAllows) {
  PacedReplay replay(0);
  replay.engine().start(0);
  EXPECT_EQ(replay.lines(), 1u);
  replay.engine().on_line(kUserLine, false, 5);
  EXPECT_EQ(replay.lines(), 3u);
  replay.engine().on_eof(6);
  EXPECT_TRUE(replay.engine().finished());
  EXPECT_TRUE(replay.engine().report().passed);
}

TEST(ReplayPacing, SpeedOneHoldsTheFirstLineUntilItsRecordedTimeAfterTheStart) {
  PacedReplay replay(1);
  replay.engine().start(1000);
  EXPECT_EQ(replay.lines(), 0u);
  EXPECT_EQ(replay.engine().next_deadline(), 1200);
  replay.engine().on_time(1199);
  EXPECT_EQ(replay.lines(), 0u);
  replay.engine().on_time(1200);
  EXPECT_EQ(replay.lines(), 1u);
}

TEST(ReplayPacing, SpeedOneKeepsTheGapsAfterTheSdkLineThatCausedThem) {
  PacedReplay replay(1);
  replay.engine().start(0);
  replay.engine().on_time(200);
  ASSERT_EQ(replay.lines(), 1u);
  // The SDK's line arrives at 7000 instead of 1000: the answers follow it by 0.5 s and 2.0 s.
  replay.engine().on_line(kUserLine, false, 7000);
  EXPECT_EQ(replay.lines(), 1u);
  EXPECT_EQ(replay.engine().next_deadline(), 7500);
  replay.engine().on_time(7500);
  EXPECT_EQ(replay.lines(), 2u);
  EXPECT_EQ(replay.engine().next_deadline(), 9000);
  replay.engine().on_time(8999);
  EXPECT_EQ(replay.lines(), 2u);
  replay.engine().on_time(9000);
  EXPECT_EQ(replay.lines(), 3u);
  // The exit comes 0.2 s after stdin EOF, as recorded.
  replay.engine().on_eof(9100);
  EXPECT_FALSE(replay.engine().finished());
  EXPECT_EQ(replay.engine().next_deadline(), 9300);
  replay.engine().on_time(9300);
  EXPECT_TRUE(replay.engine().finished());
  EXPECT_TRUE(replay.engine().report().passed);
}

TEST(ReplayPacing, SpeedTwoHalvesTheGaps) {
  PacedReplay replay(2);
  replay.engine().start(0);
  EXPECT_EQ(replay.engine().next_deadline(), 100);
  replay.engine().on_time(100);
  replay.engine().on_line(kUserLine, false, 1000);
  EXPECT_EQ(replay.engine().next_deadline(), 1250);
  replay.engine().on_time(1250);
  EXPECT_EQ(replay.lines(), 2u);
  EXPECT_EQ(replay.engine().next_deadline(), 2000);
}

TEST(ReplayPacing, AnEarlySdkLineWaitsForThePacedOutputBeforeIt) {
  PacedReplay replay(1);
  replay.engine().start(0);
  // The SDK does not wait for the init line: its message is queued, the init line still comes
  // at 200, and the answers are paced from the message's arrival at 50.
  replay.engine().on_line(kUserLine, false, 50);
  EXPECT_EQ(replay.lines(), 0u);
  replay.engine().on_time(200);
  EXPECT_EQ(replay.lines(), 1u);
  EXPECT_EQ(replay.engine().next_deadline(), 550);
}

TEST(ReplayPacing, WaitingForARecordedTimeNeverCountsAsATimeout) {
  PacedReplay replay(0.01);  // 100x slower: the 0.5 s gap becomes 50 s, past timeout_ms
  replay.engine().start(0);
  replay.engine().on_time(20000);
  EXPECT_EQ(replay.lines(), 1u);
  replay.engine().on_line(kUserLine, false, 20000);
  replay.engine().on_time(60000);
  EXPECT_FALSE(replay.engine().finished());
  EXPECT_EQ(replay.lines(), 1u);
  replay.engine().on_time(70000);
  EXPECT_EQ(replay.lines(), 2u);
}

}  // namespace
}  // namespace claude::emulator
