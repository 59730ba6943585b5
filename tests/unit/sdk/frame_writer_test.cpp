// Frame writer: every SDK→CLI frame is exactly one line and parses back to what was meant.
#include "claude/sdk/frame_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "claude/sdk/message_parser.hpp"

namespace claude::sdk {
namespace {

void expect_one_line(const std::string& frame) {
  ASSERT_FALSE(frame.empty());
  EXPECT_EQ(frame.back(), '\n');
  EXPECT_EQ(std::count(frame.begin(), frame.end(), '\n'), 1) << frame;
  EXPECT_EQ(frame.find("\xE2\x80\xA8"), std::string::npos) << "raw U+2028 in " << frame;
  EXPECT_EQ(frame.find("\xE2\x80\xA9"), std::string::npos) << "raw U+2029 in " << frame;
}

Message reparse(const std::string& frame) {
  MessageParser parser;
  auto result = parser.parse(std::string_view(frame).substr(0, frame.size() - 1));
  if (auto* error = std::get_if<ParseError>(&result)) {
    ADD_FAILURE() << error->message << " in " << frame;
    return Message(frame, UnknownMessage{});
  }
  return std::get<Message>(std::move(result));
}

// The frame parsed back, as its typed body (a copy; a default value after a reported failure).
template <class T>
T reparse_as(const std::string& frame) {
  const Message message = reparse(frame);
  const T* typed = message.get_if<T>();
  EXPECT_NE(typed, nullptr) << "frame parsed as " << message.type_name() << ": " << frame;
  return typed ? *typed : T{};
}

TEST(FrameWriter, UserTextFrameHasTheShapePythonSends) {
  const std::string frame = user_message_frame("hello", "");
  expect_one_line(frame);
  EXPECT_EQ(
      nlohmann::json::parse(frame),
      nlohmann::json::parse(
          R"({"type":"user","session_id":"","message":{"role":"user","content":"hello"},"parent_tool_use_id":null})"));
  EXPECT_EQ(reparse_as<UserMessage>(frame).text, "hello");
}

TEST(FrameWriter, NewlinesInTextAreEscapedSoTheFrameStaysOneLine) {
  const std::string text = "line one\nline two\r\nline three\n";
  const std::string frame = user_message_frame(text, "s");
  expect_one_line(frame);
  EXPECT_EQ(reparse_as<UserMessage>(frame).text, text);
}

TEST(FrameWriter, LineAndParagraphSeparatorsAreEscaped) {
  const std::string text =
      "a\xE2\x80\xA8"
      "b\xE2\x80\xA9"
      "c\xE2\x80\xAA";
  const std::string frame = user_message_frame(text);
  expect_one_line(frame);
  EXPECT_NE(frame.find("\\u2028"), std::string::npos);
  EXPECT_NE(frame.find("\\u2029"), std::string::npos);
  EXPECT_NE(frame.find("\xE2\x80\xAA"), std::string::npos) << "other U+20xx characters stay raw";
  EXPECT_EQ(reparse_as<UserMessage>(frame).text, text);
}

TEST(FrameWriter, InvalidUtf8IsReplacedNotThrown) {
  std::string frame;
  EXPECT_NO_THROW(frame = user_message_frame("bad \xFF byte"));
  expect_one_line(frame);
  EXPECT_EQ(reparse_as<UserMessage>(frame).text, "bad \xEF\xBF\xBD byte");
}

TEST(FrameWriter, UserBlocksFrameRoundTrips) {
  const nlohmann::json blocks = {
      {{"type", "text"}, {"text", "look"}},
      {{"type", "image"},
       {"source", {{"type", "base64"}, {"media_type", "image/png"}, {"data", "AAAA"}}}}};
  const std::string frame = user_message_frame(blocks, "default");
  expect_one_line(frame);
  const auto user = reparse_as<UserMessage>(frame);
  EXPECT_EQ(user.session_id, "default");
  ASSERT_EQ(user.content.size(), 2u);
  EXPECT_EQ(user.content[0].text, "look");
  EXPECT_EQ(user.content[1].kind, ContentBlock::Kind::unknown);
  EXPECT_EQ(user.content[1].raw.value(), blocks[1]);
}

TEST(FrameWriter, ControlRequestFrameRoundTrips) {
  const std::string frame =
      control_request_frame("req_1_a1b2c3d4", {{"subtype", "initialize"}, {"hooks", nullptr}});
  expect_one_line(frame);
  const auto request = reparse_as<ControlRequest>(frame);
  EXPECT_EQ(request.request_id, "req_1_a1b2c3d4");
  EXPECT_EQ(request.subtype, "initialize");
  EXPECT_TRUE(std::holds_alternative<InitializeRequest>(request.typed));
}

TEST(FrameWriter, ControlSuccessFrameRoundTrips) {
  const nlohmann::json payload = {{"behavior", "allow"}, {"updatedInput", {{"command", "ls"}}}};
  const std::string frame = control_success_frame("3c8e1a7f", payload);
  expect_one_line(frame);
  const auto response = reparse_as<ControlResponse>(frame);
  EXPECT_TRUE(response.success);
  EXPECT_EQ(response.request_id, "3c8e1a7f");
  EXPECT_EQ(response.response.value(), payload);
}

TEST(FrameWriter, ControlErrorFrameCarriesTheCodeOnlyWhenGiven) {
  const std::string with_code =
      control_error_frame("r1", "Unsupported control request subtype: x", "unsupported_request");
  const std::string without_code = control_error_frame("r2", "canUseTool callback is not provided");
  expect_one_line(with_code);
  expect_one_line(without_code);
  const auto a = reparse_as<ControlResponse>(with_code);
  const auto b = reparse_as<ControlResponse>(without_code);
  EXPECT_FALSE(a.success);
  EXPECT_EQ(a.error_code, "unsupported_request");
  EXPECT_EQ(b.error, "canUseTool callback is not provided");
  EXPECT_FALSE(b.error_code.has_value());
  EXPECT_FALSE(nlohmann::json::parse(without_code)["response"].contains("error_code"));
}

TEST(FrameWriter, CancelFrameRoundTrips) {
  const std::string frame = control_cancel_frame("req_3_c9d0e1f2");
  expect_one_line(frame);
  EXPECT_EQ(reparse_as<ControlCancelRequest>(frame).request_id, "req_3_c9d0e1f2");
}

TEST(FrameWriter, AnyParsedMessageSurvivesSerialiseAndParse) {
  MessageParser parser;
  const std::string line =
      "{\"type\":\"assistant\",\"message\":{\"model\":\"m\",\"content\":[{\"type\":\"text\","
      "\"text\":\"x\xE2\x80\xA8y\\n\"}]},\"parent_tool_use_id\":null}";
  auto first = parser.parse(line);
  ASSERT_TRUE(std::holds_alternative<Message>(first));
  const std::string frame = serialize_frame(std::get<Message>(first).json());
  expect_one_line(frame);
  EXPECT_EQ(reparse(frame), std::get<Message>(first));
}

}  // namespace
}  // namespace claude::sdk
