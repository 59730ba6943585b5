// tests/emulator/data/pacing/gaps.ndjson: the CLI wrote a line at 0.3 s and another at 0.6 s after
// its start, without any SDK input. Replayed with --speed X, the second line cannot come before 0.6
// s / X (minus a little for clock granularity).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "claude/test_support/child_process.hpp"

namespace {

using Clock = std::chrono::steady_clock;

const std::string kRecording = PACING_DATA_DIR "/gaps.ndjson";

struct ProcessRun {
  int exit_code = -1;
  std::string out;
  double second_line_s = -1;  // when the second stdout line had arrived, since the spawn
};

// Runs argv with stdin at EOF, `extra_env` ("NAME=value") added and none of our FAKE_CLAUDE_*.
ProcessRun run(const std::vector<std::string>& argv,
               const std::vector<std::string>& extra_env = {}) {
  claude::test_support::Command command;
  command.program = argv.front();
  command.args.assign(argv.begin() + 1, argv.end());
  command.unset_env = {"FAKE_CLAUDE_*"};
  for (const auto& assignment : extra_env) {
    const auto eq = assignment.find('=');
    command.env[assignment.substr(0, eq)] = assignment.substr(eq + 1);
  }
  const auto start = Clock::now();
  claude::test_support::ChildProcess child(command);
  child.close_stdin();
  ProcessRun result;
  const auto two_lines = [](const std::string& out) {
    return std::count(out.begin(), out.end(), '\n') >= 2;
  };
  if (child.wait_for_stdout(two_lines, std::chrono::minutes(1))) {
    result.second_line_s = std::chrono::duration<double>(Clock::now() - start).count();
  }
  result.exit_code = child.wait().status_code();
  result.out = child.out();
  return result;
}

TEST(FakeClaudeSpeed, SpeedOneKeepsTheRecordedGaps) {
  const ProcessRun r = run({FAKE_CLAUDE_PATH, "--scenario", kRecording, "--speed", "1"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(r.second_line_s, 0.55);
}

TEST(FakeClaudeSpeed, SpeedTwoHalvesThem) {
  const ProcessRun r = run({FAKE_CLAUDE_PATH, "--scenario", kRecording, "--speed=2"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(r.second_line_s, 0.27);
}

TEST(FakeClaudeSpeed, EnvironmentVariableSetsTheSpeed) {
  const ProcessRun r = run({FAKE_CLAUDE_PATH, "--scenario", kRecording}, {"FAKE_CLAUDE_SPEED=1"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(r.second_line_s, 0.55);
}

TEST(FakeClaudeSpeed, WithoutSpeedEveryLineIsStillReplayed) {
  const ProcessRun r = run({FAKE_CLAUDE_PATH, "--scenario", kRecording});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "{\"type\":\"system\",\"subtype\":\"init\"}\n"
            "{\"type\":\"result\",\"subtype\":\"success\"}\n");
}

TEST(FakeClaudeSpeed, BadSpeedIsAUsageError) {
  EXPECT_EQ(run({FAKE_CLAUDE_PATH, "--scenario", kRecording, "--speed", "-1"}).exit_code, 2);
  EXPECT_EQ(run({FAKE_CLAUDE_PATH, "--scenario", kRecording}, {"FAKE_CLAUDE_SPEED=fast"}).exit_code,
            2);
}

TEST(HarnessReplaySpeed, PassesTheSpeedToFakeClaude) {
  const ProcessRun r = run({HARNESS_PATH, "replay", kRecording, "--speed", "1", "--", "claude"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_GE(r.second_line_s, 0.55) << r.out;
}

TEST(HarnessReplaySpeed, BadSpeedIsAUsageError) {
  EXPECT_EQ(run({HARNESS_PATH, "replay", kRecording, "--speed", "x", "--", "claude"}).exit_code, 2);
}

}  // namespace
