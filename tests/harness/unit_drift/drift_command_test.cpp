// `harness drift BASE_DIR CANDIDATE_DIR`, in-process: exit statuses, report files, usage errors.
// (Re-recording with a real CLI is tested under tests/peers/real-cli/harness_drift.)
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "claude/harness/drift_report.hpp"
#include "claude/harness/harness_cli.hpp"
#include "recorded_set_writer.hpp"

namespace claude::harness::testing {
namespace {

struct CommandRun {
  int status = -1;
  std::string out, err;
};

CommandRun harness(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  CommandRun run;
  run.status = run_harness(args, out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

std::string read(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class DriftCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    write_recording(dir_ / "base/plain/cpp.ndjson", text_turn("2.1.197", "a"));
    write_recording(dir_ / "same/plain/cpp.ndjson", text_turn("2.1.332", "other values"));
    auto lines = text_turn("2.1.332", "a");
    lines[3].message["fast_mode_state"] = "off";
    write_recording(dir_ / "drifted/plain/cpp.ndjson", lines);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  TempDir dir_;
};

TEST_F(DriftCommand, NoDriftExitsZeroAndSaysSo) {
  const CommandRun run = harness({"drift", path("base"), path("same")});
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("**No drift**"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("# CLI drift report: 2.1.197 → 2.1.332"), std::string::npos) << run.out;
}

TEST_F(DriftCommand, DriftExitsOneAndNamesTheField) {
  const CommandRun run = harness({"drift", path("base"), path("drifted")});
  EXPECT_EQ(run.status, 1) << run.err;
  EXPECT_NE(run.out.find("| added | `/fast_mode_state` | string | `plain/cpp.ndjson:5` |"),
            std::string::npos)
      << run.out;
}

TEST_F(DriftCommand, WritesTheJsonAndMarkdownReportsToFiles) {
  const CommandRun run = harness({"drift", path("base"), path("drifted"), "--json", path("r.json"),
                                  "--markdown", path("r.md")});
  EXPECT_EQ(run.status, 1) << run.err;
  const Json json = Json::parse(read(dir_ / "r.json"));
  EXPECT_EQ(json["drift_report"], 1);
  EXPECT_EQ(json["fields"]["added"][0]["path"], "/fast_mode_state");
  EXPECT_EQ(read(dir_ / "r.md"), run.out);
}

TEST_F(DriftCommand, JsonToStdoutReplacesTheMarkdown) {
  const CommandRun run = harness({"drift", path("base"), path("same"), "--json", "-"});
  EXPECT_EQ(run.status, 0) << run.err;
  const Json json = Json::parse(run.out);
  EXPECT_EQ(json["drift"], false);
}

TEST_F(DriftCommand, BadRecordingExitsTwoWithFileAndLine) {
  write_text(dir_ / "broken/plain/cpp.ndjson",
             "{\"recording\":1}\n{\"t\":0.1,\"dir\":\"out\",\"line\":\"{}\"}\n{\"t\":\n");
  const CommandRun run = harness({"drift", path("base"), path("broken")});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(path("broken/plain/cpp.ndjson") + ":3: invalid JSON"), std::string::npos)
      << run.err;
  EXPECT_EQ(run.out, "");
}

TEST_F(DriftCommand, MissingSetExitsTwo) {
  const CommandRun run = harness({"drift", path("base"), path("absent")});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find(path("absent") + ":0: not a directory"), std::string::npos) << run.err;
}

TEST_F(DriftCommand, UsageErrorsExitTwo) {
  EXPECT_EQ(harness({"drift"}).status, 2);
  EXPECT_EQ(harness({"drift", path("base")}).status, 2);
  EXPECT_EQ(harness({"drift", path("base"), path("same"), path("drifted")}).status, 2);
  EXPECT_EQ(harness({"drift", path("base"), path("same"), "--bogus"}).status, 2);
  EXPECT_EQ(harness({"drift", path("base"), path("same"), "--json"}).status, 2);
  const CommandRun keep = harness({"drift", path("base"), path("same"), "--keep", path("k")});
  EXPECT_EQ(keep.status, 2);
  EXPECT_NE(keep.err.find("need --real-cli"), std::string::npos) << keep.err;
  EXPECT_EQ(harness({"drift", path("base"), path("same"), "--real-cli", "/bin/true"}).status, 2);
}

TEST_F(DriftCommand, KeepDirectoryThatIsNotEmptyIsRefusedBeforeRecording) {
  write_text(dir_ / "keep/old.txt", "x\n");
  const CommandRun run =
      harness({"drift", path("base"), "--real-cli", "/bin/true", "--keep", path("keep")});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("exists and is not an empty directory"), std::string::npos) << run.err;
}

TEST_F(DriftCommand, ReRecordingWithACliThatIsNotExecutableExitsTwoAndLeavesNoTemporaryDirectory) {
  write_text(dir_ / "set/set.json",
             R"({"cli_version":"2.1.332","cases":[{"name":"plain","sdks":["cpp"]}]})"
             "\n");
  write_text(dir_ / "set/plain/model-script.ndjson", R"({"model_script":1,"name":"plain"})"
                                                     "\n");
  write_text(dir_ / "set/plain/spec.json", R"({"prompt":"Say hello"})"
                                           "\n");
  write_recording(dir_ / "set/plain/cpp.ndjson", text_turn("2.1.332", "a"));
  std::filesystem::create_directories(dir_ / "tmp");
  const char* saved = std::getenv("TMPDIR");
  const std::string saved_value = saved != nullptr ? saved : "";
  setenv("TMPDIR", path("tmp").c_str(), 1);
  const CommandRun run = harness({"drift", path("set"), "--real-cli", path("no-such-claude")});
  if (saved != nullptr) {
    setenv("TMPDIR", saved_value.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  EXPECT_EQ(run.status, 2) << run.err;
  EXPECT_NE(run.err.find("cannot re-record"), std::string::npos) << run.err;
  EXPECT_TRUE(std::filesystem::is_empty(dir_ / "tmp"));
  EXPECT_EQ(run.out, "");
}

TEST_F(DriftCommand, HelpExitsZero) {
  const CommandRun run = harness({"drift", "--help"});
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("Usage: harness drift BASE_DIR CANDIDATE_DIR"), std::string::npos);
}

// Each set's options.json (scripts/capture-cli-options) is compared: options the candidate CLI
// accepts and the base rejects are added, and the reverse removed.
TEST_F(DriftCommand, OptionsAddedAndRemovedBetweenVersionsAreDrift) {
  write_text(dir_ / "base/options.json", R"({"cli_version":"2.1.197","options":[
    {"flags":"--verbose","names":["--verbose"],"value":"none"},
    {"flags":"--old-flag <x>","names":["--old-flag"],"value":"required"},
    {"flags":"-r, --resume [value]","names":["-r","--resume"],"value":"optional"}]})");
  write_text(dir_ / "same/options.json", R"({"cli_version":"2.1.332","options":[
    {"flags":"--verbose","names":["--verbose"],"value":"none"},
    {"flags":"--max-turns <turns>","names":["--max-turns"],"value":"required","hidden":true},
    {"flags":"-r, --resume <value>","names":["-r","--resume"],"value":"required"}]})");
  const CommandRun run = harness({"drift", path("base"), path("same"), "--json", "-"});
  EXPECT_EQ(run.status, 1) << run.err;
  const auto json = emulator::Json::parse(run.out);
  EXPECT_EQ(json["options"]["compared"], true);
  ASSERT_EQ(json["options"]["added"].size(), 1u) << run.out;
  EXPECT_EQ(json["options"]["added"][0]["name"], "--max-turns");
  ASSERT_EQ(json["options"]["removed"].size(), 1u) << run.out;
  EXPECT_EQ(json["options"]["removed"][0]["name"], "--old-flag");
  ASSERT_EQ(json["options"]["changed"].size(), 1u) << run.out;
  EXPECT_EQ(json["options"]["changed"][0]["was"], "-r, --resume [value]");
  const CommandRun markdown = harness({"drift", path("base"), path("same")});
  EXPECT_NE(markdown.out.find("| added | `--max-turns` |"), std::string::npos) << markdown.out;
  EXPECT_NE(markdown.out.find("| removed | `--old-flag` |"), std::string::npos) << markdown.out;
}

TEST_F(DriftCommand, ABadOptionTableIsALoadError) {
  write_text(dir_ / "base/options.json", R"({"options":3})");
  const CommandRun run = harness({"drift", path("base"), path("same")});
  EXPECT_EQ(run.status, 2);
  EXPECT_NE(run.err.find("options.json:0: not an option table"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace claude::harness::testing
