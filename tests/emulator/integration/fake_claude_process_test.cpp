// Subprocess tests: fake-claude as an SDK sees it. Each file in tests/emulator/data/sdk/ is one
// scripted SDK run (see sdk_stand_in.hpp); the other tests cover the command-line contract.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "claude/base/subprocess.hpp"
#include "claude/test_support/command.hpp"
#include "sdk_stand_in.hpp"

namespace claude::emulator::testing {
namespace {

const std::filesystem::path kRoot = EMULATOR_SOURCE_DIR;

std::vector<std::string> sdk_scripts() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kRoot / "tests/emulator/data/sdk")) {
    if (entry.path().extension() == ".ndjson") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class SdkScript : public ::testing::TestWithParam<std::string> {};

TEST_P(SdkScript, Plays) {
  const auto problems =
      play_sdk_script(kRoot / "tests/emulator/data/sdk" / (GetParam() + ".ndjson"));
  for (const auto& problem : problems) ADD_FAILURE() << problem;
}

INSTANTIATE_TEST_SUITE_P(Emulator, SdkScript, ::testing::ValuesIn(sdk_scripts()),
                         [](const auto& param_info) {
                           std::string name = param_info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(FakeClaudeProcess, VersionPrintsTheScenarioCliVersion) {
  auto result = run_fake_claude_process(
      {"-v", "--scenario", (kRoot / "tests/emulator/data/version-only.ndjson").string()}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.stdout_text, "1.2.3 (Claude Code)\n");
}

TEST(FakeClaudeProcess, VersionWithoutScenarioPrintsTheDefault) {
  auto result = run_fake_claude_process({"--version"}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.stdout_text, "2.1.332 (Claude Code)\n");
}

TEST(FakeClaudeProcess, HelpDocumentsExitCodes) {
  auto result = run_fake_claude_process({"--help"}, "");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.stdout_text.find("Exit status"), std::string::npos);
}

TEST(FakeClaudeProcess, NoScenarioExitsTwoSayingHowToGiveOne) {
  auto result = run_fake_claude_process({"--verbose"}, "");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.stderr_text.find("--scenario FILE"), std::string::npos);
  EXPECT_NE(result.stderr_text.find("FAKE_CLAUDE_SCENARIO"), std::string::npos);
}

TEST(FakeClaudeProcess, ScenarioFromTheEnvironment) {
  auto result = run_fake_claude_process(
      {"--output-format", "stream-json", "--verbose"}, "",
      {{"FAKE_CLAUDE_SCENARIO", (kRoot / "tests/emulator/data/version-only.ndjson").string()}});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
}

TEST(FakeClaudeProcess, MissingScenarioValueIsAUsageError) {
  auto result = run_fake_claude_process({"--scenario"}, "");
  EXPECT_EQ(result.exit_code, 2);
}

// The real CLI 2.1.332 answers these with exactly these lines and exit 1 (checked by running it;
// docs/fake-claude.md, "Options of the emulated CLI").
TEST(FakeClaudeProcess, RejectsAnOptionTheEmulatedCliDoesNotKnowAsTheCliDoes) {
  auto result = run_fake_claude_process(
      {"--scenario", (kRoot / "tests/emulator/data/exit-zero.ndjson").string(), "--print",
       "--output-format", "stream-json", "--verbose", "--temperature", "0.5"},
      "");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "error: unknown option '--temperature'\n");
  EXPECT_EQ(result.stdout_text, "");
  ASSERT_TRUE(result.report);
  EXPECT_EQ((*result.report)["verdict"], "fail");
  EXPECT_EQ((*result.report)["failure"]["kind"], "argv");
}

TEST(FakeClaudeProcess, MissingOptionArgumentIsTheCliError) {
  auto result = run_fake_claude_process(
      {"--scenario", (kRoot / "tests/emulator/data/exit-zero.ndjson").string(), "--model"}, "");
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.stderr_text, "error: option '--model <model>' argument missing\n");
}

TEST(FakeClaudeProcess, AScenarioForAForkAcceptsUnknownOptions) {
  auto result = run_fake_claude_process(
      {"--scenario", (kRoot / "tests/emulator/data/fork-cli.ndjson").string(), "--temperature",
       "0.5"},
      "");
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
}

TEST(FakeClaudeProcess, BadScenarioExitsTwoNamingFileAndLine) {
  const auto path = (kRoot / "tests/emulator/data/bad/unknown-verb.ndjson").string();
  auto result = run_fake_claude_process({"--scenario", path}, "");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.stderr_text.find(path + ":3: unknown verb"), std::string::npos)
      << result.stderr_text;
  ASSERT_TRUE(result.report);
  EXPECT_EQ((*result.report)["verdict"], "error");
  EXPECT_EQ((*result.report)["errors"][0]["line"], 3);
}

TEST(FakeClaudeProcess, ReportFileIsPrivate) {
  const auto report = std::filesystem::temp_directory_path() /
                      ("emulator-mode-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(report);
  auto result = run_fake_claude_process(
      {"--scenario", (kRoot / "tests/emulator/data/version-only.ndjson").string()}, "",
      {{"FAKE_CLAUDE_REPORT", report.string()}});
  struct stat info {};
  ASSERT_EQ(::stat(report.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  std::filesystem::remove(report);
}

// An SDK that stopped reading leaves fake-claude blocked writing a large line; SIGTERM must still
// end it the documented way (report "terminated", then death by the signal), not hang it.
TEST(FakeClaudeProcess, SigtermEndsARunBlockedWritingToAFullPipe) {
  const auto report = std::filesystem::temp_directory_path() /
                      ("emulator-blocked-" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(report);
  int out[2], in[2];
  ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
  test_support::Command command;
  command.program = FAKE_CLAUDE_PATH;
  command.args = {"--scenario",
                  (kRoot / "scenarios/conformance/framing/line-above-1mib.ndjson").string()};
  command.env["FAKE_CLAUDE_REPORT"] = report.string();
  const pid_t pid =
      test_support::start(command, {base::ChildFd::dup(in[0], 0), base::ChildFd::dup(out[1], 1)});
  ::close(in[0]);
  ::close(out[1]);
  const std::string user = R"({"type":"user","message":{"role":"user","content":"x"}})"
                           "\n";
  ASSERT_EQ(::write(in[1], user.data(), user.size()), static_cast<ssize_t>(user.size()));
  // Blocked once stdout (never read) is full: a fixed sleep raced the fake's start under load.
  const int capacity = ::fcntl(out[0], F_GETPIPE_SZ);
  int queued = 0;
  for (int i = 0; i < 1000 && (::ioctl(out[0], FIONREAD, &queued) != 0 || queued < capacity); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_GE(queued, capacity) << "fake-claude never filled its stdout";
  ::kill(pid, SIGTERM);
  std::optional<base::ExitStatus> status =
      test_support::wait_exit_within(pid, std::chrono::seconds(3));
  const bool ended = status.has_value();
  if (!ended) {
    ::kill(pid, SIGKILL);
    status = base::wait_exit(pid);
  }
  ::close(in[1]);
  ::close(out[0]);
  ASSERT_TRUE(ended) << "fake-claude ignored SIGTERM while blocked writing";
  EXPECT_TRUE(status->signaled && status->value == SIGTERM);
  std::ifstream text(report);
  const Json written = Json::parse(text, nullptr, false);
  ASSERT_TRUE(written.is_object()) << "no report";
  EXPECT_EQ(written["failure"]["kind"], "terminated");
  std::filesystem::remove(report);
}

}  // namespace
}  // namespace claude::emulator::testing
