// How claude-tee finds the real CLI, and what it does when it cannot start.
#include <gtest/gtest.h>

#include <fstream>

#include "claude/test_support/child_process.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

std::filesystem::path fake_cli_with_version() {
  return std::filesystem::path(RECORDER_TEST_DATA_DIR) / "fake_cli_with_version.sh";
}

TEST(ClaudeTeeDiscovery, RunsTheRealCliFromPathWhenInvokedThroughAClaudeSymlinkToItself) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "tee-bin");
  std::filesystem::create_directories(dir.path() / "real-bin");
  std::filesystem::create_symlink(CLAUDE_TEE_PATH, dir.path() / "tee-bin/claude");
  std::filesystem::create_symlink(ECHO_CHILD_PATH, dir.path() / "real-bin/claude");
  ChildProcess tee(dir.path() / "tee-bin/claude", {},
                   {{"PATH", (dir.path() / "tee-bin").string() + ":" +
                                 (dir.path() / "real-bin").string() + ":/usr/bin:/bin"},
                    {"CLAUDE_TEE_REAL_CLI", ""},
                    {"CLAUDE_TEE_CLI_VERSION", "test"},
                    // The header names the CLI it found only when asked to keep paths.
                    {"CLAUDE_TEE_HEADER_PATHS", "keep"},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec.ndjson").string()}});
  tee.write_stdin("hi\n");
  EXPECT_EQ(tee.wait().value, 0) << tee.err();
  EXPECT_EQ(tee.out(), "hi\n");
  const auto rec = read_recording(dir.path() / "rec.ndjson");
  EXPECT_EQ(rec.header.at("cli"), (dir.path() / "real-bin/claude").string());
}

TEST(ClaudeTeeDiscovery, KeepsNoLocalPathInTheHeaderByDefault) {
  TempDir dir;
  const auto recording = dir.path() / "rec.ndjson";
  ChildProcess tee(CLAUDE_TEE_PATH, {},
                   {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
                    {"CLAUDE_TEE_CLI_VERSION", "test"},
                    {"CLAUDE_TEE_OUT", recording.string()}});
  tee.write_stdin("hi\n");
  EXPECT_EQ(tee.wait().value, 0) << tee.err();
  const auto rec = read_recording(recording);
  EXPECT_EQ(rec.header.at("cli"), std::filesystem::path(ECHO_CHILD_PATH).filename().string());
  EXPECT_EQ(rec.header.at("cwd"), ".");
  EXPECT_EQ(rec.header.at("env").at("CLAUDE_TEE_OUT"), "rec.ndjson");
  EXPECT_EQ(rec.header.dump().find(dir.path().string()), std::string::npos) << rec.header.dump();
}

TEST(ClaudeTeeDiscovery, PutsTheCliVersionInTheHeader) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {"--output-format", "stream-json"},
                   {{"CLAUDE_TEE_REAL_CLI", fake_cli_with_version().string()},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec.ndjson").string()}});
  tee.write_stdin("{}\n");
  EXPECT_EQ(tee.wait().value, 0);
  const auto rec = read_recording(dir.path() / "rec.ndjson");
  EXPECT_EQ(rec.header.at("cli_version"), "2.1.332");
  EXPECT_EQ(rec.header.at("argv"), nlohmann::json::parse(R"(["--output-format","stream-json"])"));
}

TEST(ClaudeTeeDiscovery, PassesAVersionProbeStraightThroughWithoutRecording) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {"-v"},
                   {{"CLAUDE_TEE_REAL_CLI", fake_cli_with_version().string()},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()}});
  EXPECT_EQ(tee.wait().value, 0);
  EXPECT_EQ(tee.out(), "2.1.332 (Claude Code)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "rec"));
}

TEST(ClaudeTeeDiscovery, PrintsItsHelpOnlyUnderItsOwnName) {
  ChildProcess tee(CLAUDE_TEE_PATH, {"--help"}, {});
  EXPECT_EQ(tee.wait().value, 0);
  EXPECT_NE(tee.out().find("Usage: claude-tee"), std::string::npos);
}

TEST(ClaudeTeeDiscovery, RefusesToOverwriteAnExistingRecordingAndDoesNotRunTheCli) {
  TempDir dir;
  const auto existing = dir.path() / "rec.ndjson";
  std::ofstream(existing) << "keep me\n";
  ChildProcess tee(
      CLAUDE_TEE_PATH, {"--checksum-file", (dir.path() / "ran").string()},
      {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH}, {"CLAUDE_TEE_OUT", existing.string()}});
  EXPECT_EQ(tee.wait().value, 2);
  EXPECT_NE(tee.err().find("never overwrites"), std::string::npos) << tee.err();
  std::ifstream kept(existing);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "keep me\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "ran"));
}

TEST(ClaudeTeeDiscovery, ExitsWithTwoWhenTheRealCliIsMissing) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {},
                   {{"CLAUDE_TEE_REAL_CLI", (dir.path() / "nowhere").string()},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()}});
  EXPECT_EQ(tee.wait().value, 2);
  EXPECT_NE(tee.err().find("CLAUDE_TEE_REAL_CLI"), std::string::npos);
}

TEST(ClaudeTeeDiscovery, ExitsWithTwoOnABadRedactionRulesFile) {
  TempDir dir;
  ChildProcess tee(CLAUDE_TEE_PATH, {},
                   {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
                    {"CLAUDE_TEE_REDACT", RECORDER_TEST_DATA_DIR "/bad_rules.tsv"},
                    {"CLAUDE_TEE_OUT", (dir.path() / "rec/").string()}});
  EXPECT_EQ(tee.wait().value, 2);
  EXPECT_NE(tee.err().find("bad_rules.tsv:4:"), std::string::npos) << tee.err();
}

}  // namespace
}  // namespace claude::recorder::testing
