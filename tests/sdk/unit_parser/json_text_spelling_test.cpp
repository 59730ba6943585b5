// JsonText members are the line's own bytes (compacted), at every depth the parser types: never a
// re-serialised value, which would respell "\u00e9" as "é", "\/" as "/" and 1.50 as 1.5.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "messages/message_parser.hpp"

namespace claude::sdk {
namespace {

// A value whose spelling re-serialisation would change.
constexpr const char* kOdd = R"({"s":"\u00e9\/","n":1.50,"e":1E2})";

struct Case {
  std::string name;
  std::string line;
  std::string expected;  // the member's text, ODD standing for kOdd
  std::function<const JsonText&(const Message&)> member;
};

std::string with_odd(std::string line) {
  const std::string marker = "ODD";
  for (auto at = line.find(marker); at != std::string::npos; at = line.find(marker)) {
    line.replace(at, marker.size(), kOdd);
  }
  return line;
}

std::vector<Case> cases() {
  return {
      {"assistant tool_use input",
       R"({"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"t"},{"type":"tool_use","id":"i","name":"n","input":ODD}],"usage":{}}})",
       R"(ODD)",
       [](const Message& m) -> const JsonText& {
         return m.get_if<AssistantMessage>()->content.at(1).input;
       }},
      {"assistant usage after the content",
       R"({"message":{"content":[{"type":"thinking","thinking":"x"}],"model":"m","usage":ODD},"type":"assistant"})",
       R"(ODD)",
       [](const Message& m) -> const JsonText& { return m.get_if<AssistantMessage>()->usage; }},
      {"unknown block raw",
       R"({"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"a"},{"type":"image","source":ODD}]}})",
       R"({"type":"image","source":ODD})",
       [](const Message& m) -> const JsonText& {
         return m.get_if<AssistantMessage>()->content.at(1).raw;
       }},
      {"user tool_result content",
       R"({"message":{"content":[{"content":[ODD],"tool_use_id":"t","type":"tool_result"}],"role":"user"},"tool_use_result":ODD,"type":"user"})",
       R"([ODD])",
       [](const Message& m) -> const JsonText& {
         return m.get_if<UserMessage>()->content.at(0).content;
       }},
      {"user tool_use_result after the message",
       R"({"message":{"content":[{"content":"c","tool_use_id":"t","type":"tool_result"}],"role":"user"},"tool_use_result":ODD,"type":"user"})",
       R"(ODD)",
       [](const Message& m) -> const JsonText& {
         return m.get_if<UserMessage>()->tool_use_result;
       }},
      {"result modelUsage",
       R"({"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"num_turns":1,"session_id":"s","usage":{},"modelUsage":ODD})",
       R"(ODD)",
       [](const Message& m) -> const JsonText& { return m.get_if<ResultMessage>()->model_usage; }},
      {"stream_event event", R"({"event":ODD,"type":"stream_event"})", R"(ODD)",
       [](const Message& m) -> const JsonText& { return m.get_if<StreamEvent>()->event; }},
      {"can_use_tool input",
       R"({"type":"control_request","request_id":"r","request":{"subtype":"can_use_tool","tool_name":"Bash","input":ODD}})",
       R"(ODD)",
       [](const Message& m) -> const JsonText& {
         return std::get<CanUseToolRequest>(m.get_if<ControlRequest>()->typed).input;
       }},
      {"control_response pending requests",
       R"({"type":"control_response","response":{"subtype":"success","request_id":"r","response":{}},"pending_permission_requests":[ODD]})",
       R"([ODD])",
       [](const Message& m) -> const JsonText& {
         return m.get_if<ControlResponse>()->pending_permission_requests;
       }},
      {"system init mcp_servers",
       R"({"type":"system","subtype":"init","tools":["a"],"mcp_servers":[ODD]})", R"([ODD])",
       [](const Message& m) -> const JsonText& {
         return m.get_if<SystemMessage>()->init->mcp_servers;
       }},
      {"rate_limit_info", R"({"rate_limit_info":ODD,"type":"rate_limit_event"})", R"(ODD)",
       [](const Message& m) -> const JsonText& {
         return m.get_if<RateLimitEvent>()->rate_limit_info;
       }},
  };
}

TEST(JsonTextSpelling, EveryTypedDepthKeepsTheBytesOfTheLine) {
  MessageParser parser;
  for (const auto& c : cases()) {
    const std::string line = with_odd(c.line);
    auto result = parser.parse(line);
    ASSERT_TRUE(std::holds_alternative<Message>(result))
        << c.name << ": " << std::get<ParseError>(result).message;
    EXPECT_EQ(c.member(std::get<Message>(result)).text(), with_odd(c.expected)) << c.name;
  }
}

TEST(JsonTextSpelling, SpacedValuesAreCompactedButKeepTheirSpelling) {
  MessageParser parser;
  auto result = parser.parse(
      R"({ "type" : "stream_event" , "event" : { "s" : "\u00e9 \/" , "n" : [ 1.50 , 1E2 ] } })");
  ASSERT_TRUE(std::holds_alternative<Message>(result));
  EXPECT_EQ(std::get<Message>(result).get_if<StreamEvent>()->event.text(),
            R"({"s":"\u00e9 \/","n":[1.50,1E2]})");
}

}  // namespace
}  // namespace claude::sdk
