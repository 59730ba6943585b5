#include "claude/recorder/recording_header.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace claude::recorder {
namespace {

TEST(RecorderRecordingHeader, KeepsOnlyClaudeAndAnthropicVariablesSortedByName) {
  const auto env = recorded_env(
      {"PATH=/bin", "CLAUDE_CODE_ENTRYPOINT=sdk-ts", "ANTHROPIC_MODEL=m", "HOME=/root"});
  ASSERT_EQ(env.size(), 2u);
  EXPECT_EQ(env[0].first, "ANTHROPIC_MODEL");
  EXPECT_EQ(env[1].first, "CLAUDE_CODE_ENTRYPOINT");
}

TEST(RecorderRecordingHeader, AlwaysRedactsValuesOfSecretNamedVariables) {
  RecordingHeader header;
  header.env = {{"ANTHROPIC_API_KEY", "x"},
                {"CLAUDE_CODE_OAUTH_TOKEN", "y"},
                {"CLAUDE_CODE_ENTRYPOINT", "sdk-ts"}};
  const auto j = nlohmann::json::parse(encode_header_line(header, Redactor{}));
  EXPECT_EQ(j.at("env").at("ANTHROPIC_API_KEY"), "<redacted:env:ANTHROPIC_API_KEY>");
  EXPECT_EQ(j.at("env").at("CLAUDE_CODE_OAUTH_TOKEN"), "<redacted:env:CLAUDE_CODE_OAUTH_TOKEN>");
  EXPECT_EQ(j.at("env").at("CLAUDE_CODE_ENTRYPOINT"), "sdk-ts");
}

TEST(RecorderRecordingHeader, HidesTheRecordingCliCwdAndHomePaths) {
  RecordingHeader header;
  header.argv = {"--mcp-config", "/home/ann/proj/mcp.json", "--add-dir", "/home/ann/other"};
  header.env = {{"CLAUDE_TEE_OUT", "/home/ann/proj/recs/r.ndjson"},
                {"CLAUDE_TEE_REAL_CLI", "/home/ann/.cache/cli/claude"},
                {"ANTHROPIC_BASE_URL", "http://127.0.0.1:8080"}};
  header.cwd = "/home/ann/proj";
  header.cli = "/home/ann/.cache/cli/claude";
  hide_local_paths(header, LocalPaths{"/home/ann/proj/recs/r.ndjson", "/home/ann/.cache/cli/claude",
                                      "/home/ann/proj", "/home/ann"});
  EXPECT_EQ(header.argv,
            (std::vector<std::string>{"--mcp-config", "./mcp.json", "--add-dir", "~/other"}));
  EXPECT_EQ(header.env[0].second, "r.ndjson");
  EXPECT_EQ(header.env[1].second, "claude");
  EXPECT_EQ(header.env[2].second, "http://127.0.0.1:8080");
  EXPECT_EQ(header.cwd, ".");
  EXPECT_EQ(header.cli, "claude");
}

TEST(RecorderRecordingHeader, HidesAPathOnlyWhereItEnds) {
  RecordingHeader header;
  header.argv = {"/home/annie/x", "a=/home/ann:/home/ann/b"};
  hide_local_paths(header, LocalPaths{"", "", "", "/home/ann"});
  EXPECT_EQ(header.argv, (std::vector<std::string>{"/home/annie/x", "a=~:~/b"}));
}

TEST(RecorderRecordingHeader, RedactsArgvWithTheRules) {
  RecordingHeader header;
  header.argv = {"--settings", R"({"apiKey":"sk-ant-api03-FAKEFAKEFAKE"})"};
  const auto j = nlohmann::json::parse(encode_header_line(header, Redactor::with_builtin_rules()));
  EXPECT_EQ(j.at("argv").at(1), R"({"apiKey":"<redacted:api-key>"})");
}

TEST(RecorderRecordingHeader, TeachesTheRedactorSecretValuesFromTheEnvironment) {
  Redactor redactor;
  add_secret_env_rules(redactor, {"MY_SERVICE_PASSWORD=hunter2hunter2", "PATH=/usr/bin/abcdefgh"});
  EXPECT_EQ(redactor.redact_copy("pw hunter2hunter2 /usr/bin/abcdefgh"),
            "pw <redacted:env:MY_SERVICE_PASSWORD> /usr/bin/abcdefgh");
}

TEST(RecorderRecordingHeader, StartsWithTheFormatVersionAndEndsWithOneNewline) {
  RecordingHeader header;
  header.cli = "/usr/local/bin/claude";
  header.cli_version = "2.1.332";
  const auto line = encode_header_line(header, Redactor{});
  EXPECT_EQ(line.rfind("{\"recording\":1,", 0), 0u);
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  EXPECT_EQ(nlohmann::json::parse(line).at("cli_version"), "2.1.332");
}

}  // namespace
}  // namespace claude::recorder
