// The harness executable end to end: replay, record, run --cassette, convert, lint and diff
// around a shell script that plays a minimal SDK (tests/harness/data/sdk_session.sh).
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "claude/test_support/run.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;

struct HarnessRun {
  int status = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class HarnessCommandTest : public ::testing::Test {
 protected:
  // Runs harness with `args`; `env` entries are added to (or replace) this process's environment.
  HarnessRun harness(const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env = {}) {
    return spawn(HARNESS_PATH, args, env);
  }

  // Runs `program` with stdin at EOF and stdout/stderr captured byte for byte (in files: the
  // SDK scripts' children may outlive the harness with its descriptors).
  HarnessRun spawn(const std::string& program, const std::vector<std::string>& args,
                   const std::map<std::string, std::string>& env = {}) {
    claude::test_support::SpawnRequest request;
    request.program = program;
    request.args = args;
    request.unset_env = {"CI"};
    request.env = env;
    request.output_dir = dir_;
    request.timeout = std::chrono::minutes(10);
    const auto result = claude::test_support::run_to_completion(request);
    return {result.status_code(), result.out, result.err};
  }

  static std::string sdk() { return HARNESS_TEST_DATA_DIR "/sdk_session.sh"; }
  static std::string basic_turn() { return SCENARIOS_DIR "/verbs/basic-turn.ndjson"; }

  // Records basic-turn played by fake-claude as the "real" CLI.
  HarnessRun record_basic_turn(const fs::path& output) {
    return harness({"record", "-o", output.string(), "--real-cli", FAKE_CLAUDE_PATH, "--", sdk()},
                   {{"FAKE_CLAUDE_SCENARIO", basic_turn()}});
  }

  claude::test_support::TempDir temp_{"harness-test"};
  const fs::path dir_ = temp_.path();
};

TEST_F(HarnessCommandTest, ReplayPassesWhenTheSdkFollowsTheScenario) {
  const auto run = harness({"replay", basic_turn(), "--", sdk()});
  EXPECT_EQ(run.status, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("verdict pass"), std::string::npos) << run.out;
}

TEST_F(HarnessCommandTest, ReplayExitsOneOnAFailedVerdictAndSaysWhere) {
  const auto run =
      harness({"replay", HARNESS_TEST_DATA_DIR "/expects_another_prompt.ndjson", "--", sdk()});
  EXPECT_EQ(run.status, 1) << run.out << run.err;
  EXPECT_NE(run.out.find("expects_another_prompt.ndjson:3"), std::string::npos) << run.out;
}

TEST_F(HarnessCommandTest, ReplayHtmlIsOnePrivatePageWithTheSessionAndItsFirstMismatch) {
  const auto page = dir_ / "replay.html";
  const auto run = harness({"replay", HARNESS_TEST_DATA_DIR "/expects_another_prompt.ndjson",
                            "--html", page.string(), "--", sdk()});
  EXPECT_EQ(run.status, 1) << run.out << run.err;
  ASSERT_TRUE(fs::exists(page)) << run.out << run.err;
  EXPECT_EQ(fs::status(page).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  const std::string html = slurp(page);
  EXPECT_TRUE(html.starts_with("<!DOCTYPE html>")) << html.substr(0, 200);
  EXPECT_NE(html.find("expects_another_prompt.ndjson"), std::string::npos);
  EXPECT_NE(html.find("svg class=\"sequence\""), std::string::npos) << "no sequence diagram";
  EXPECT_NE(html.find(" mismatch"), std::string::npos) << "first mismatch not highlighted";
  EXPECT_EQ(html.find("src=\"http"), std::string::npos) << "the page must be self-contained";

  const auto again = harness({"replay", basic_turn(), "--html", page.string(), "--", sdk()});
  EXPECT_EQ(again.status, 2) << "an existing page is replaced only with --force";
  EXPECT_EQ(slurp(page), html);
  const auto forced =
      harness({"replay", basic_turn(), "--html", page.string(), "--force", "--", sdk()});
  EXPECT_EQ(forced.status, 0) << forced.out << forced.err;
  EXPECT_NE(slurp(page), html);
}

TEST_F(HarnessCommandTest, ReplayExitsThreeWhenTheCommandNeverRunsClaude) {
  const auto run = harness({"replay", basic_turn(), "--", "/bin/true"});
  EXPECT_EQ(run.status, 3) << run.err;
  EXPECT_NE(run.err.find("no verdict"), std::string::npos) << run.err;
}

TEST_F(HarnessCommandTest, ReplayExitsTwoOnABadScenarioWithoutRunningTheCommand) {
  const auto marker = dir_ / "ran";
  const auto run = harness({"replay", HARNESS_TEST_DATA_DIR "/unknown_verb.ndjson", "--",
                            "/usr/bin/touch", marker.string()});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("unknown_verb.ndjson:2:"), std::string::npos) << run.err;
  EXPECT_FALSE(fs::exists(marker));
}

TEST_F(HarnessCommandTest, RecordingReplaysConvertsAndLintsClean) {
  const auto recording = dir_ / "session.ndjson";
  const auto recorded = record_basic_turn(recording);
  ASSERT_EQ(recorded.status, 0) << recorded.out << recorded.err;
  ASSERT_TRUE(fs::exists(recording));

  const auto replayed = harness({"replay", recording.string(), "--", sdk()});
  EXPECT_EQ(replayed.status, 0) << replayed.out << replayed.err;

  const auto scenario = dir_ / "session.scenario.ndjson";
  const auto converted = harness({"convert", recording.string(), "-o", scenario.string()});
  ASSERT_EQ(converted.status, 0) << converted.err;
  const auto linted = harness({"lint", scenario.string(), recording.string()});
  EXPECT_EQ(linted.status, 0) << linted.err;
  const auto replayed_scenario = harness({"replay", scenario.string(), "--", sdk()});
  EXPECT_EQ(replayed_scenario.status, 0) << replayed_scenario.out << replayed_scenario.err;
}

// Recorded lines that are not UTF-8 (line_b64) become raw_b64 / stderr_b64 steps, so the
// converted scenario plays exactly the recorded bytes (no U+FFFD).
TEST_F(HarnessCommandTest, ConvertKeepsBytesThatAreNotUtf8) {
  const std::string recording = HARNESS_TEST_DATA_DIR "/invalid_utf8.recording.ndjson";
  const auto scenario = dir_ / "invalid_utf8.scenario.ndjson";
  const auto converted = harness({"convert", recording, "-o", scenario.string()});
  ASSERT_EQ(converted.status, 0) << converted.err;
  const std::string text = slurp(scenario);
  EXPECT_EQ(text.find("\xEF\xBF\xBD"), std::string::npos) << text;
  EXPECT_NE(text.find("\"raw_b64\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"stderr_b64\""), std::string::npos) << text;
  EXPECT_EQ(harness({"lint", scenario.string()}).status, 0);

  const std::string expected_out =
      "{\"type\":\"assistant\",\"text\":\"caf\xE9 \xFF\xFE\"}\ntail \x80 without newline";
  const std::string expected_err = "warning: \xC3\x28 bad byte\n";
  for (const std::string& played : {recording, scenario.string()}) {
    const auto run = spawn(FAKE_CLAUDE_PATH, {"--scenario", played});
    EXPECT_EQ(run.status, 0) << played << run.err;
    EXPECT_EQ(run.out, expected_out) << played;
    EXPECT_EQ(run.err.rfind(expected_err, 0), 0u) << played << run.err;
  }
}

TEST_F(HarnessCommandTest, RecordRefusesToOverwrite) {
  const auto existing = dir_ / "exists.ndjson";
  std::ofstream(existing) << "keep\n";
  const auto run = record_basic_turn(existing);
  EXPECT_EQ(run.status, 2);
  EXPECT_EQ(slurp(existing), "keep\n");
}

TEST_F(HarnessCommandTest, CassetteIsRecordedOnceThenReplayed) {
  const auto cassette = dir_ / "cassette.ndjson";
  const std::vector<std::string> args{
      "run", "--cassette", cassette.string(), "--real-cli", FAKE_CLAUDE_PATH, "--", sdk()};
  const auto first = harness(args, {{"FAKE_CLAUDE_SCENARIO", basic_turn()}});
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("recorded"), std::string::npos) << first.out;
  const auto second = harness(args);
  EXPECT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_NE(second.out.find("verdict pass"), std::string::npos) << second.out;
}

TEST_F(HarnessCommandTest, CassetteIsNeverRecordedUnderCi) {
  const auto cassette = dir_ / "missing.ndjson";
  const auto run = harness({"run", "--cassette", cassette.string(), "--", sdk()}, {{"CI", "true"}});
  EXPECT_EQ(run.status, 2);
  EXPECT_FALSE(fs::exists(cassette));
  EXPECT_NE(run.err.find("CI=true"), std::string::npos) << run.err;
}

TEST_F(HarnessCommandTest, LintNamesFileAndLineOfEveryProblem) {
  const auto run = harness({"lint", basic_turn(), HARNESS_TEST_DATA_DIR "/unknown_verb.ndjson"});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("unknown_verb.ndjson:2:"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("1 of 2"), std::string::npos) << run.out;
}

TEST_F(HarnessCommandTest, DiffIgnoresValuesButNotStructure) {
  const auto same = harness({"diff", basic_turn(), basic_turn()});
  EXPECT_EQ(same.status, 0) << same.out << same.err;
  const auto different =
      harness({"diff", basic_turn(), HARNESS_TEST_DATA_DIR "/expects_another_prompt.ndjson"});
  EXPECT_EQ(different.status, 1) << different.out << different.err;
  EXPECT_NE(different.out.find("- "), std::string::npos) << different.out;
}

TEST_F(HarnessCommandTest, DiffReportsAMovedStepAsAMoveNotARemovalAndAnAddition) {
  const auto run = harness({"diff", HARNESS_TEST_DATA_DIR "/diff_base.ndjson",
                            HARNESS_TEST_DATA_DIR "/diff_moved.ndjson"});
  EXPECT_EQ(run.status, 1) << run.out << run.err;
  EXPECT_EQ(run.out,
            "> " HARNESS_TEST_DATA_DIR "/diff_base.ndjson:4 moved to " HARNESS_TEST_DATA_DIR
            "/diff_moved.ndjson:5: send system/init {session_id,subtype,type}\n");
}

TEST_F(HarnessCommandTest, DiffNamesEachNestedFieldThatDiffers) {
  const auto run = harness({"diff", HARNESS_TEST_DATA_DIR "/diff_base.ndjson",
                            HARNESS_TEST_DATA_DIR "/diff_changed.ndjson"});
  EXPECT_EQ(run.status, 1) << run.out << run.err;
  EXPECT_EQ(run.out, "~ " HARNESS_TEST_DATA_DIR "/diff_base.ndjson:5 -> " HARNESS_TEST_DATA_DIR
                     "/diff_changed.ndjson:5: send assistant {message,type}\n"
                     "    /message/content/0/type: \"text\" in A, \"tool_use\" in B\n"
                     "    /message/model: only in A\n"
                     "    /message/usage: only in B\n");
}

TEST_F(HarnessCommandTest, EverySubcommandHasHelp) {
  for (const char* sub : {"replay", "record", "run", "convert", "lint", "diff"}) {
    const auto run = harness({sub, "--help"});
    EXPECT_EQ(run.status, 0) << sub;
    EXPECT_NE(run.out.find("Usage: harness"), std::string::npos) << sub;
  }
}

TEST_F(HarnessCommandTest, UnknownSubcommandIsAUsageError) {
  EXPECT_EQ(harness({"frobnicate"}).status, 2);
}

}  // namespace
