#include <gtest/gtest.h>

#include <claude/model_stub/model_script.hpp>
#include <string>

namespace claude::model_stub {
namespace {

std::string data_path(const std::string& name) {
  return std::string(CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS) + "/tests/data/model_stub/" + name;
}

// The message of the ModelScriptError thrown for `name`, or "" when it loads.
std::string load_error(const std::string& name) {
  try {
    load_model_script(data_path(name));
  } catch (const ModelScriptError& e) {
    return e.what();
  }
  return "";
}

TEST(ModelStubScript, LoadsRulesInFileOrderWithTheirLineNumbers) {
  const ModelScript script = load_model_script(data_path("plain_text.ndjson"));
  EXPECT_EQ(script.name, "plain-text");
  ASSERT_EQ(script.rules.size(), 3u);
  EXPECT_EQ(script.rules[0].line, 3u);
  EXPECT_TRUE(script.rules[0].request.has_value());
  EXPECT_EQ(script.rules[1].line, 4u);
  EXPECT_TRUE(script.rules[1].user_text.has_value());
  EXPECT_FALSE(script.rules[2].user_text.has_value());
}

TEST(ModelStubScript, ReadsFaultsAndErrors) {
  const ModelScript script = load_model_script(data_path("faults.ndjson"));
  ASSERT_EQ(script.rules.size(), 7u);
  ASSERT_TRUE(script.rules[0].error.has_value());
  EXPECT_EQ(script.rules[0].error->status, 429);
  EXPECT_EQ(script.rules[0].error->type, "rate_limit_error");
  EXPECT_EQ(script.rules[0].error->retry_after_seconds, 0);
  EXPECT_EQ(script.rules[0].times, 1u);
  EXPECT_EQ(script.rules[3].error->type, "overloaded_error");
  EXPECT_EQ(script.rules[4].faults.error_after, 3u);
  EXPECT_EQ(script.rules[4].faults.error_message, "Overloaded mid-stream");
  EXPECT_EQ(script.rules[5].faults.drop_after, 2u);
  EXPECT_EQ(script.rules[6].faults.event_delay.count(), 30);
}

TEST(ModelStubScript, InvalidJsonNamesFileAndLine) {
  const std::string error = load_error("bad/invalid_json.ndjson");
  EXPECT_NE(error.find("invalid_json.ndjson:4: not valid JSON"), std::string::npos) << error;
}

TEST(ModelStubScript, UnknownKeyIsAnErrorAfterACommentLine) {
  const std::string error = load_error("bad/unknown_key.ndjson");
  EXPECT_NE(error.find("unknown_key.ndjson:3: unknown key \"user_txt\" in when"), std::string::npos)
      << error;
}

TEST(ModelStubScript, InvalidRegularExpressionIsRejectedAtLoad) {
  const std::string error = load_error("bad/bad_regex.ndjson");
  EXPECT_NE(error.find("bad_regex.ndjson:2: bad pattern in when.user_text"), std::string::npos)
      << error;
}

TEST(ModelStubScript, MissingHeaderIsReported) {
  EXPECT_NE(load_error("bad/no_header.ndjson")
                .find("no_header.ndjson:1: the first line must be the header"),
            std::string::npos);
}

TEST(ModelStubScript, UnknownContentBlockTypeIsReported) {
  EXPECT_NE(load_error("bad/bad_block.ndjson").find("bad_block.ndjson:2: reply.content[0].type"),
            std::string::npos);
}

TEST(ModelStubScript, ErrorStatusMustBeAnHttpError) {
  EXPECT_NE(load_error("bad/bad_status.ndjson").find("bad_status.ndjson:2: error.status"),
            std::string::npos);
}

TEST(ModelStubScript, RuleWithoutReplyOrErrorIsReported) {
  EXPECT_NE(
      load_error("bad/no_answer.ndjson").find("no_answer.ndjson:2: a rule needs exactly one of"),
      std::string::npos);
}

TEST(ModelStubScript, MissingFileIsLineZero) {
  EXPECT_NE(load_error("does-not-exist.ndjson").find("does-not-exist.ndjson:0: cannot open"),
            std::string::npos);
}

TEST(ModelStubScript, HeaderOnlyScriptHasNoRules) {
  try {
    parse_model_script("{\"model_script\":1}\n", "inline.ndjson");
    FAIL() << "expected ModelScriptError";
  } catch (const ModelScriptError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_NE(std::string(e.what()).find("no rules"), std::string::npos);
  }
}

TEST(ModelStubScript, CrlfLinesAndBlankLinesKeepLineNumbers) {
  const ModelScript script = parse_model_script(
      "{\"model_script\":1}\r\n\r\n{\"reply\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}}"
      "\r\n",
      "crlf.ndjson");
  ASSERT_EQ(script.rules.size(), 1u);
  EXPECT_EQ(script.rules[0].line, 3u);
}

TEST(ModelStubScript, StatusMapsToAnthropicErrorTypes) {
  EXPECT_EQ(error_type_for_status(429), "rate_limit_error");
  EXPECT_EQ(error_type_for_status(529), "overloaded_error");
  EXPECT_EQ(error_type_for_status(500), "api_error");
  EXPECT_EQ(error_type_for_status(404), "not_found_error");
  EXPECT_EQ(error_type_for_status(418), "invalid_request_error");
}

}  // namespace
}  // namespace claude::model_stub
