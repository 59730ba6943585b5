// Frame writer: every SDK→CLI frame is exactly one line and parses back to what was meant.
#include "messages/frame_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "messages/message_parser.hpp"

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

// What serialize_frame must write: nlohmann's compact dump (invalid UTF-8 replaced), with the JS
// line separators escaped, plus the newline.
std::string reference_frame(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  for (auto [raw, escaped] : {std::pair{"\xE2\x80\xA8", "\\u2028"}, {"\xE2\x80\xA9", "\\u2029"}}) {
    for (std::size_t at = 0; (at = text.find(raw, at)) != std::string::npos; at += 6)
      text.replace(at, 3, escaped);
  }
  return text + "\n";
}

std::string random_string(std::mt19937& rng) {
  // Mostly ASCII, with every escape class, valid multi-byte UTF-8, separators and broken bytes.
  static const std::vector<std::string> pieces = {"a",
                                                  "Z",
                                                  " ",
                                                  "\"",
                                                  "\\",
                                                  "/",
                                                  "\b",
                                                  "\f",
                                                  "\n",
                                                  "\r",
                                                  "\t",
                                                  std::string(1, '\0'),
                                                  "\x01",
                                                  "\x1f",
                                                  "\x7f",
                                                  "\xC3\xA9",
                                                  "\xE2\x82\xAC",
                                                  "\xF0\x9F\x98\x80",
                                                  "\xE2\x80\xA8",
                                                  "\xE2\x80\xA9",
                                                  "\xE2\x80",
                                                  "\xFF",
                                                  "\xC0\xAF",
                                                  "\xED\xA0\x80",
                                                  "\xF4\x90\x80\x80",
                                                  "\x80",
                                                  "\xC3",
                                                  "hello world "};
  std::string out;
  for (int n = std::uniform_int_distribution<int>(0, 12)(rng); n > 0; --n)
    out += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
  return out;
}

nlohmann::json random_value(std::mt19937& rng, int depth) {
  switch (std::uniform_int_distribution<int>(0, depth > 3 ? 6 : 8)(rng)) {
    case 0:
      return nullptr;
    case 1:
      return std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    case 2:
      return std::uniform_int_distribution<std::int64_t>(INT64_MIN, INT64_MAX)(rng);
    case 3:
      return std::uniform_int_distribution<std::uint64_t>(0, UINT64_MAX)(rng);
    case 4:
      return std::uniform_real_distribution<double>(-1e300, 1e300)(rng) /
             std::pow(10.0, std::uniform_int_distribution<int>(0, 600)(rng));
    case 5:
    case 6:
      return random_string(rng);
    case 7: {
      nlohmann::json object = nlohmann::json::object();
      for (int n = std::uniform_int_distribution<int>(0, 5)(rng); n > 0; --n)
        object[random_string(rng)] = random_value(rng, depth + 1);
      return object;
    }
    default: {
      nlohmann::json array = nlohmann::json::array();
      for (int n = std::uniform_int_distribution<int>(0, 5)(rng); n > 0; --n)
        array.push_back(random_value(rng, depth + 1));
      return array;
    }
  }
}

TEST(FrameWriter, SerialisedFramesAreExactlyNlohmannsDumpOnRandomValues) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 5000; ++i) {
    const nlohmann::json value = random_value(rng, 0);
    ASSERT_EQ(serialize_frame(value), reference_frame(value)) << "case " << i;
  }
}

TEST(FrameWriter, EveryByteAtEveryPositionOfAPlainStringIsWrittenAsNlohmannDoes) {
  // The writer takes a word-at-a-time shortcut for strings with nothing to escape or validate;
  // one odd byte anywhere, in a word or in the tail, must send it down the exact path.
  for (std::size_t length = 1; length <= 20; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'k');
        text[at] = static_cast<char>(byte);
        const nlohmann::json value = {{"s", text}};
        ASSERT_EQ(serialize_frame(value), reference_frame(value))
            << "length " << length << ", byte " << byte << " at " << at;
      }
    }
  }
}

TEST(FrameWriter, ControlFramesCarryTheirValueVerbatim) {
  std::mt19937 rng(7);
  for (int i = 0; i < 500; ++i) {
    const nlohmann::json payload = random_value(rng, 1);
    const std::string id = random_string(rng);
    const nlohmann::json success = {
        {"type", "control_response"},
        {"response", {{"subtype", "success"}, {"request_id", id}, {"response", payload}}}};
    const nlohmann::json expected_success =
        payload.is_null() ? nlohmann::json{{"type", "control_response"},
                                           {"response",
                                            {{"subtype", "success"},
                                             {"request_id", id},
                                             {"response", nlohmann::json::object()}}}}
                          : success;
    EXPECT_EQ(control_success_frame(id, payload), reference_frame(expected_success));
    const nlohmann::json request = {
        {"type", "control_request"}, {"request_id", id}, {"request", payload}};
    EXPECT_EQ(control_request_frame(id, payload), reference_frame(request));
    const std::string error = random_string(rng);
    const nlohmann::json failure = {
        {"type", "control_response"},
        {"response",
         {{"subtype", "error"}, {"request_id", id}, {"error", error}, {"error_code", "x"}}}};
    EXPECT_EQ(control_error_frame(id, error, "x"), reference_frame(failure));
  }
}

}  // namespace
}  // namespace claude::sdk
