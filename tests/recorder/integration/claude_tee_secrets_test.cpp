// A secret planted in the environment, argv, stdin and stdout never reaches the recording, while
// the forwarded bytes keep it.
#include <gtest/gtest.h>

#include "claude/test_support/child_process.hpp"
#include "claude/test_support/recording_reader.hpp"
#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder::testing {
namespace {

using namespace claude::test_support;

// Obviously fake values.
constexpr const char* kApiKey = "sk-ant-api03-FAKEfakeFAKEfake_0123456789-test";
constexpr const char* kServiceToken = "tok.FAKE.service.token.value";
constexpr const char* kCustomerId = "12-3456-78";

TEST(ClaudeTeeSecrets, NeverWritesPlantedSecretsToTheRecording) {
  TempDir dir;
  const std::string rules = RECORDER_TEST_DATA_DIR "/user_rules.tsv";
  ChildProcess tee(
      CLAUDE_TEE_PATH,
      {"--echo-to", "both", "--note", std::string("--api-key=") + kApiKey, "--note", kServiceToken},
      {{"CLAUDE_TEE_REAL_CLI", ECHO_CHILD_PATH},
       {"CLAUDE_TEE_OUT", (dir.path() / "rec.ndjson").string()},
       {"CLAUDE_TEE_REDACT", rules},
       {"CLAUDE_TEE_CLI_VERSION", "test"},
       {"ANTHROPIC_API_KEY", kApiKey},
       {"MY_SERVICE_TOKEN", kServiceToken}});
  const std::string line = std::string(R"({"type":"user","key":")") + kApiKey + R"(","token":")" +
                           kServiceToken + R"(","customer":")" + kCustomerId + "\"}\n";
  tee.write_stdin(line);
  tee.write_stdin(std::string("Authorization: Bearer ") + kServiceToken + "\n");
  ASSERT_EQ(tee.wait().value, 0);

  EXPECT_EQ(tee.out(), line + "Authorization: Bearer " + kServiceToken + "\n")
      << "forwarded bytes must not be redacted";
  const auto rec = read_recording(dir.path() / "rec.ndjson");
  for (const char* secret : {kApiKey, kServiceToken, kCustomerId}) {
    EXPECT_EQ(rec.raw.find(secret), std::string::npos) << secret << " leaked into the recording";
  }
  EXPECT_EQ(rec.header.at("env").at("ANTHROPIC_API_KEY"), "<redacted:env:ANTHROPIC_API_KEY>");
  EXPECT_NE(rec.raw.find("<redacted:api-key>"), std::string::npos);
  EXPECT_NE(rec.raw.find("<redacted:env:MY_SERVICE_TOKEN>"), std::string::npos);
  EXPECT_NE(rec.raw.find("<redacted:customer-id>"), std::string::npos);
}

}  // namespace
}  // namespace claude::recorder::testing
