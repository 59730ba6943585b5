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
