// claude-tee ends the way the CLI ended, forwards signals to it, and leaves a readable recording
// even when it is killed itself.
#include <gtest/gtest.h>
#include <signal.h>

#include <thread>

#include "claude/test_support/child_process.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

using namespace std::chrono_literals;

std::vector<std::pair<std::string, std::string>> tee_env(const TempDir& dir) {
  return {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
          {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()},
          {"CLAUDE_TEE_CLI_VERSION", "test"}};
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(ClaudeTeeExit, PassesTheExitCodeThroughAndRecordsIt) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {"--exit", "7"}, tee_env(dir));
  tee.write_stdin("{\"type\":\"user\"}\n");
  const auto end = tee.wait();
  EXPECT_FALSE(end.signaled);
  EXPECT_EQ(end.value, 7);
  const auto rec = read_recording(single_file_in(dir.path() / "rec"));
  EXPECT_EQ(rec.events.back().value("exit", -1), 7);
}

TEST(ClaudeTeeSignals, EndsByTheSignalThatKilledTheCli) {
  for (int sig : {SIGKILL, SIGUSR1}) {
    SCOPED_TRACE(sig);
    TempDir dir;
    ChildProcess tee(CLAUDE_TEE_PATH, {"--raise", std::to_string(sig)}, tee_env(dir));
    tee.write_stdin("last words\n");
    const auto end = tee.wait();
    EXPECT_TRUE(end.signaled);
    EXPECT_EQ(end.value, sig);
    EXPECT_EQ(tee.out(), "last words\n");
    const auto rec = read_recording(single_file_in(dir.path() / "rec"));
    EXPECT_EQ(rec.events.back().value("signal", ""), sig == SIGKILL ? "SIGKILL" : "SIGUSR1");
    EXPECT_EQ(rec.streams.at("out"), "last words\n");
  }
}

TEST(ClaudeTeeSignals, ForwardsSigtermToTheCli) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {"--term-handler"}, tee_env(dir));
  ASSERT_TRUE(tee.wait_for_stdout([](const std::string& out) { return out == "ready\n"; }, 10s));
  tee.send_signal(SIGTERM);
  // wait() closes the tee's stdin, and the CLI would end at that EOF: let the signal land first.
  EXPECT_TRUE(tee.wait_for_stdout(
      [](const std::string& out) { return out == "ready\ngot SIGTERM\n"; }, 10s))
      << tee.out();
  const auto end = tee.wait();
  EXPECT_FALSE(end.signaled);
  EXPECT_EQ(end.value, 42) << "the CLI's SIGTERM handler decides how the tee ends";
  EXPECT_EQ(tee.out(), "ready\ngot SIGTERM\n");
}

TEST(ClaudeTeeSignals, AKilledTeeLeavesARecordingThatParsesUpToItsLastEvent) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {}, tee_env(dir));
  constexpr std::size_t kLines = 200;
  for (std::size_t i = 0; i < kLines; ++i) {
    tee.write_stdin("{\"type\":\"user\",\"n\":" + std::to_string(i) + "}\n");
  }
  ASSERT_TRUE(
      tee.wait_for_stdout([&](const std::string& out) { return count_lines(out) == kLines; }, 10s));
  // The echoed lines are forwarded before their events are flushed; give the flush a moment.
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto rec = read_recording(single_file_in(dir.path() / "rec"));
    if (rec.streams.count("out") != 0 && count_lines(rec.streams.at("out")) == kLines) break;
    std::this_thread::sleep_for(5ms);
  }
  tee.send_signal(SIGKILL);
  const auto end = tee.wait();
  EXPECT_TRUE(end.signaled);
  const auto rec = read_recording(single_file_in(dir.path() / "rec"));
  EXPECT_EQ(rec.header.value("recording", 0), 1);
  EXPECT_EQ(count_lines(rec.streams.at("in")), kLines);
  EXPECT_EQ(count_lines(rec.streams.at("out")), kLines);
  for (const auto& event : rec.events) EXPECT_FALSE(event.contains("exit"));
}

}  // namespace
}  // namespace claude::recorder::testing
