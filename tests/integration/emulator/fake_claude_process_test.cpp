// Subprocess tests: fake-claude as an SDK sees it. Each file in tests/data/emulator/sdk/ is one
// scripted SDK run (see sdk_stand_in.hpp); the other tests cover the command-line contract.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "sdk_stand_in.hpp"

namespace claude::emulator::testing {
namespace {

const std::filesystem::path kRoot = EMULATOR_SOURCE_DIR;

std::vector<std::string> sdk_scripts() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kRoot / "tests/data/emulator/sdk")) {
    if (entry.path().extension() == ".ndjson") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class SdkScript : public ::testing::TestWithParam<std::string> {};

TEST_P(SdkScript, Plays) {
  const auto problems =
      play_sdk_script(kRoot / "tests/data/emulator/sdk" / (GetParam() + ".ndjson"));
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
      {"-v", "--scenario", (kRoot / "tests/data/emulator/version-only.ndjson").string()}, "");
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
      {{"FAKE_CLAUDE_SCENARIO", (kRoot / "tests/data/emulator/version-only.ndjson").string()}});
  EXPECT_EQ(result.exit_code, 0) << result.stderr_text;
}

TEST(FakeClaudeProcess, MissingFlagValueIsAUsageError) {
  auto result = run_fake_claude_process({"--model"}, "");
  EXPECT_EQ(result.exit_code, 2);
}

TEST(FakeClaudeProcess, BadScenarioExitsTwoNamingFileAndLine) {
  const auto path = (kRoot / "tests/data/emulator/bad/unknown-verb.ndjson").string();
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
      {"--scenario", (kRoot / "tests/data/emulator/version-only.ndjson").string()}, "",
      {{"FAKE_CLAUDE_REPORT", report.string()}});
  struct stat info {};
  ASSERT_EQ(::stat(report.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  std::filesystem::remove(report);
}

}  // namespace
}  // namespace claude::emulator::testing
