#include <gtest/gtest.h>

#include <claude/model_stub/reply_encoding.hpp>

namespace claude::model_stub {
namespace {

TEST(ModelStubReplyEncoding, SseEventIsEventLineDataLineAndBlankLine) {
  EXPECT_EQ(encode_sse({"ping", {{"type", "ping"}}}), "event: ping\ndata: {\"type\":\"ping\"}\n\n");
}

TEST(ModelStubReplyEncoding, SplitNeverCutsAMultiByteCharacter) {
  EXPECT_EQ(split_code_points("h\xC3\xA9llo\xF0\x9F\x99\x82", 2),
            (std::vector<std::string>{"h\xC3\xA9", "ll", "o\xF0\x9F\x99\x82"}));
  EXPECT_EQ(split_code_points("abc", 0), (std::vector<std::string>{"abc"}));
  EXPECT_TRUE(split_code_points("", 3).empty());
}

TEST(ModelStubReplyEncoding, JsonMessageCarriesCompleteBlocks) {
  ResolvedReply reply{"msg_1",
                      "m",
                      {{{"type", "thinking"}, {"thinking", "hm"}},
                       {{"type", "tool_use"}, {"id", "t1"}, {"name", "Read"}}},
                      "tool_use",
                      {{"input_tokens", 1}, {"output_tokens", 2}},
                      0};
  const Json message = reply_message(reply);
  EXPECT_FALSE(message["content"][0]["signature"].get<std::string>().empty());
  EXPECT_EQ(message["content"][1]["input"], Json::object());
  EXPECT_EQ(message["stop_reason"], "tool_use");
}

TEST(ModelStubReplyEncoding, EmptyTextBlockHasStartAndStopButNoDelta) {
  ResolvedReply reply{"msg_1",        "m", {{{"type", "text"}, {"text", ""}}}, "end_turn",
                      Json::object(), 0};
  const auto events = reply_events(reply);
  ASSERT_EQ(events.size(), 6u);
  EXPECT_EQ(events[1].name, "content_block_start");
  EXPECT_EQ(events[2].name, "ping");
  EXPECT_EQ(events[3].name, "content_block_stop");
}

TEST(ModelStubReplyEncoding, ErrorBodyHasAnthropicShape) {
  EXPECT_EQ(
      api_error_body("not_found_error", "nope"),
      (Json{{"type", "error"}, {"error", {{"type", "not_found_error"}, {"message", "nope"}}}}));
}

}  // namespace
}  // namespace claude::model_stub
