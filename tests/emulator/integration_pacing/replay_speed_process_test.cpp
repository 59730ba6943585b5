// tests/emulator/data/pacing/gaps.ndjson: the CLI wrote a line at 0.3 s and another at 0.6 s after
// its start, without any SDK input. Replayed with --speed X, the second line cannot come before 0.6
// s / X (minus a little for clock granularity).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;

const std::string kRecording = PACING_DATA_DIR "/gaps.ndjson";

struct ProcessRun {
  int exit_code = -1;
  std::string out;
  double second_line_s = -1;  // when the second stdout line had arrived, since the spawn
};

// Runs argv with stdin at EOF and `extra_env` added; stderr is discarded.
ProcessRun run(const std::vector<std::string>& argv,
               const std::vector<std::string>& extra_env = {}) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return {};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> env = extra_env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    if (!entry.starts_with("FAKE_CLAUDE_")) env.push_back(entry);
  }
  std::vector<char*> c_argv, c_env;
  std::vector<std::string> argv_copy = argv;
  for (auto& s : argv_copy) c_argv.push_back(s.data());
  c_argv.push_back(nullptr);
  for (auto& s : env) c_env.push_back(s.data());
  c_env.push_back(nullptr);
  pid_t pid = -1;
  const auto start = Clock::now();
  const int rc =
      ::posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, c_argv.data(), c_env.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  ProcessRun result;
  if (rc != 0) {
    ::close(out[0]);
    return result;
  }
  char buf[4096];
  int lines = 0;
  while (true) {
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] == '\n' && ++lines == 2) {
        result.second_line_s = std::chrono::duration<double>(Clock::now() - start).count();
      }
    }
    result.out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
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
