// Nothing claude-tee starts outlives it (issue 31 item 7): the CLI ends when the tee is killed,
// and a `--version` probe that hangs is ended with what it started.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "claude/test_support/child_process.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

using namespace std::chrono_literals;

bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z';
}

bool ends_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (running(pid) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(20ms);
  }
  return !running(pid);
}

pid_t pid_in(const std::string& out) {
  const auto at = out.find("pid ");
  return at == std::string::npos ? 0 : static_cast<pid_t>(std::stol(out.substr(at + 4)));
}

TEST(ClaudeTeeLifetime, TheCliEndsWhenTheTeeIsKilled) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {},
                   {{"CLAUDE_TEE_REAL_CLI", RECORDER_TEST_DATA_DIR "/pid_then_sleep_cli.sh"},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()},
                    {"CLAUDE_TEE_CLI_VERSION", "test"}});
  ASSERT_TRUE(tee.wait_for_stdout([](const std::string& out) { return out.ends_with("\n"); }, 10s))
      << tee.out();
  const pid_t cli = pid_in(tee.out());
  ASSERT_GT(cli, 0) << tee.out();
  tee.send_signal(SIGKILL);
  tee.wait();
  const bool ended = ends_within(cli, 5s);
  if (!ended) ::kill(cli, SIGKILL);
  EXPECT_TRUE(ended) << "the CLI (pid " << cli << ") kept running after claude-tee was killed";
}

TEST(ClaudeTeeLifetime, AHungVersionProbeIsEndedWithWhatItStarted) {
  TempDir dir;
  const auto pids = dir.path() / "probe-pids.txt";
  ChildProcess tee(CLAUDE_TEE_PATH, {},
                   {{"CLAUDE_TEE_REAL_CLI", RECORDER_TEST_DATA_DIR "/hung_version_cli.sh"},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()},
                    {"PROBE_PIDS", pids.string()}});
  tee.write_stdin("{\"type\":\"user\"}\n");
  ASSERT_TRUE(tee.wait_for_stdout(
      [](const std::string& out) { return out.find("{\"type\":\"user\"}") != std::string::npos; },
      10s))
      << tee.out();
  tee.close_stdin();
  tee.wait();  // after the probe's 2 s deadline
  std::ifstream in(pids);
  pid_t grandchild = 0;
  ASSERT_TRUE(in >> grandchild) << "the probe never started its child";
  const bool ended = ends_within(grandchild, 3s);
  if (!ended) ::kill(grandchild, SIGKILL);
  EXPECT_TRUE(ended) << "the hung probe's child (pid " << grandchild << ") was left behind";
}

}  // namespace
}  // namespace claude::recorder::testing
