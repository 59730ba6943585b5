#include <gtest/gtest.h>

#include <claude/model_stub/scripted_model.hpp>
#include <string>
#include <vector>

namespace claude::model_stub {
namespace {

std::string script_path(const std::string& name) {
  return std::string(CLAUDE_HARNESS_SOURCE_DIR_FOR_TESTS) + "/tests/data/model_stub/" + name;
}

ScriptedModel model_from(const std::string& name) {
  return ScriptedModel(load_model_script(script_path(name)));
}

Json user_prompt(const std::string& text) {
  return Json{{"role", "user"}, {"content", Json::array({{{"type", "text"}, {"text", text}}})}};
}

ApiRequest post(const Json& body, const std::string& target = "/v1/messages?beta=true") {
  return ApiRequest{"POST", target, {{"x-api-key", "sk-ant-fake-test"}}, body.dump()};
}

// A vector, not a Json: `streaming_body({one_message})` would make `messages` that one message
// under clang, and a one-element array under gcc (CWG 2137).
Json streaming_body(const std::vector<Json>& messages) {
  return Json{
      {"model", "claude-test-1"}, {"max_tokens", 1024}, {"stream", true}, {"messages", messages}};
}

Json error_of(const ApiResponse& response) {
  return Json::parse(response.body);
}

std::string header(const ApiResponse& response, const std::string& name) {
  for (const auto& [n, v] : response.headers) {
    if (n == name) return v;
  }
  return "";
}

// Concatenates the text_delta pieces of a streamed reply.
std::string streamed_text(const ApiResponse& response) {
  std::string text;
  for (const auto& event : response.events) {
    if (event.name == "content_block_delta" && event.data["delta"]["type"] == "text_delta") {
      text += event.data["delta"]["text"].get<std::string>();
    }
  }
  return text;
}

TEST(ModelStubScriptedModel, UnknownEndpointGetsNotFoundErrorJson) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response = model.answer(ApiRequest{"GET", "/v1/models", {}, ""});
  EXPECT_EQ(response.status, 404);
  EXPECT_FALSE(response.streaming);
  const Json body = error_of(response);
  EXPECT_EQ(body["type"], "error");
  EXPECT_EQ(body["error"]["type"], "not_found_error");
  EXPECT_NE(body["error"]["message"].get<std::string>().find("/v1/models"), std::string::npos);
}

TEST(ModelStubScriptedModel, WrongMethodOnMessagesIs405) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response = model.answer(ApiRequest{"GET", "/v1/messages", {}, ""});
  EXPECT_EQ(response.status, 405);
  EXPECT_EQ(header(response, "allow"), "POST");
  EXPECT_EQ(error_of(response)["error"]["type"], "invalid_request_error");
}

TEST(ModelStubScriptedModel, BodyThatIsNotJsonIsAnInvalidRequest) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response = model.answer(ApiRequest{"POST", "/v1/messages", {}, "{not json"});
  EXPECT_EQ(response.status, 400);
  EXPECT_EQ(error_of(response)["error"]["type"], "invalid_request_error");
}

TEST(ModelStubScriptedModel, RequestWithoutMessagesIsAnInvalidRequest) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response =
      model.answer(post(Json{{"model", "m"}, {"messages", Json::array()}}));
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(error_of(response)["error"]["message"].get<std::string>().find("messages"),
            std::string::npos);
}

TEST(ModelStubScriptedModel, StreamedReplyFollowsTheMessagesEventOrder) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response = model.answer(post(streaming_body({user_prompt("hello there")})));
  ASSERT_EQ(response.status, 200);
  ASSERT_TRUE(response.streaming);
  std::vector<std::string> names;
  for (const auto& e : response.events) names.push_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"message_start", "content_block_start", "ping",
                                             "content_block_delta", "content_block_stop",
                                             "message_delta", "message_stop"}));
  EXPECT_EQ(streamed_text(response), "Hello from model-stub.");
  EXPECT_EQ(response.events[0].data["message"]["model"], "claude-test-1");
  EXPECT_EQ(response.events[0].data["message"]["id"], "msg_stub_1");
  EXPECT_EQ(response.events[5].data["delta"]["stop_reason"], "end_turn");
  EXPECT_EQ(response.rule_line, 4u);
  EXPECT_EQ(header(response, "request-id"), "req_stub_1");
}

TEST(ModelStubScriptedModel, UserTextMatchesAnyTextBlockOfTheLastUserMessage) {
  ScriptedModel model = model_from("plain_text.ndjson");
  Json message = user_prompt("<system-reminder>context</system-reminder>");
  message["content"].push_back({{"type", "text"}, {"text", "Hello!"}});
  const Json earlier = user_prompt("something else");
  const Json reply = {{"role", "assistant"}, {"content", "answer"}};
  const ApiResponse response = model.answer(post(streaming_body({earlier, reply, message})));
  EXPECT_EQ(streamed_text(response), "Hello from model-stub.");
}

TEST(ModelStubScriptedModel, StringContentCountsAsOneTextBlock) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const ApiResponse response =
      model.answer(post(streaming_body({{{"role", "user"}, {"content", "well hello"}}})));
  EXPECT_EQ(streamed_text(response), "Hello from model-stub.");
}

TEST(ModelStubScriptedModel, RequestWithoutStreamGetsOneJsonMessage) {
  ScriptedModel model = model_from("plain_text.ndjson");
  const Json body{
      {"model", "claude-probe"}, {"max_tokens", 1}, {"messages", {user_prompt("quota")}}};
  const ApiResponse response = model.answer(post(body));
  ASSERT_EQ(response.status, 200);
  ASSERT_FALSE(response.streaming);
  const Json message = Json::parse(response.body);
  EXPECT_EQ(message["type"], "message");
  EXPECT_EQ(message["model"], "claude-probe");
  EXPECT_EQ(message["content"][0], (Json{{"type", "text"}, {"text", "ok"}}));
  EXPECT_EQ(message["stop_reason"], "end_turn");
  EXPECT_EQ(message["usage"]["output_tokens"], 1);
  EXPECT_EQ(message["usage"]["input_tokens"], 10);
}

TEST(ModelStubScriptedModel, ToolUseGetsAGeneratedIdAndToolUseStopReason) {
  ScriptedModel model = model_from("tool_loop.ndjson");
  const ApiResponse response =
      model.answer(post(streaming_body({user_prompt("please run the marker")})));
  ASSERT_TRUE(response.streaming);
  std::string partial_json;
  std::string thinking;
  std::string signature;
  Json tool_start;
  for (const auto& e : response.events) {
    if (e.name == "content_block_start" && e.data["content_block"]["type"] == "tool_use")
      tool_start = e.data;
    if (e.name != "content_block_delta") continue;
    const Json& delta = e.data["delta"];
    if (delta["type"] == "input_json_delta")
      partial_json += delta["partial_json"].get<std::string>();
    if (delta["type"] == "thinking_delta") thinking += delta["thinking"].get<std::string>();
    if (delta["type"] == "signature_delta") signature = delta["signature"].get<std::string>();
  }
  EXPECT_EQ(tool_start["index"], 2);
  EXPECT_EQ(tool_start["content_block"]["id"], "toolu_stub_1");
  EXPECT_EQ(tool_start["content_block"]["name"], "Bash");
  EXPECT_EQ(Json::parse(partial_json)["command"], "echo stub-marker");
  EXPECT_EQ(thinking, "I should run echo.");
  EXPECT_FALSE(signature.empty());
  EXPECT_EQ(response.events[response.events.size() - 2].data["delta"]["stop_reason"], "tool_use");
}

TEST(ModelStubScriptedModel, ToolResultIsMatchedOnItsJoinedText) {
  ScriptedModel model = model_from("tool_loop.ndjson");
  const Json result{{"type", "tool_result"},
                    {"tool_use_id", "toolu_stub_1"},
                    {"content", Json::array({{{"type", "text"}, {"text", "stub-marker\n"}}})}};
  const Json message{{"role", "user"}, {"content", Json::array({result})}};
  const ApiResponse response =
      model.answer(post(streaming_body({user_prompt("run the marker"), message})));
  EXPECT_EQ(streamed_text(response), "The command printed stub-marker.");
}

TEST(ModelStubScriptedModel, UnmatchedRequestNamesScriptAndLastUserText) {
  ScriptedModel model = model_from("tool_loop.ndjson");
  const ApiResponse response =
      model.answer(post(streaming_body({user_prompt("unscripted prompt")})));
  EXPECT_EQ(response.status, 400);
  EXPECT_FALSE(response.streaming);
  const std::string message = error_of(response)["error"]["message"].get<std::string>();
  EXPECT_NE(message.find("tool_loop.ndjson"), std::string::npos) << message;
  EXPECT_NE(message.find("\"unscripted prompt\""), std::string::npos) << message;
  EXPECT_EQ(response.outcome, "no rule matched");
}

TEST(ModelStubScriptedModel, RuleWithTimesIsUsedUpThenTheNextRuleAnswers) {
  ScriptedModel model = model_from("faults.ndjson");
  const ApiRequest request = post(streaming_body({user_prompt("rate limit once")}));
  const ApiResponse first = model.answer(request);
  EXPECT_EQ(first.status, 429);
  EXPECT_EQ(header(first, "retry-after"), "0");
  EXPECT_EQ(error_of(first)["error"]["type"], "rate_limit_error");
  EXPECT_EQ(error_of(first)["error"]["message"], "Slow down");
  const ApiResponse second = model.answer(request);
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(streamed_text(second), "after the rate limit");
  EXPECT_EQ(model.rule_uses()[0], 1u);
  EXPECT_EQ(model.rule_uses()[1], 1u);
}

TEST(ModelStubScriptedModel, ScriptedServerErrorsCarryAnthropicTypes) {
  ScriptedModel model = model_from("faults.ndjson");
  const ApiResponse internal = model.answer(post(streaming_body({user_prompt("server error")})));
  EXPECT_EQ(internal.status, 500);
  EXPECT_EQ(error_of(internal)["error"]["type"], "api_error");
  const ApiResponse overloaded = model.answer(post(streaming_body({user_prompt("overloaded")})));
  EXPECT_EQ(overloaded.status, 529);
  EXPECT_EQ(error_of(overloaded)["error"]["type"], "overloaded_error");
}

TEST(ModelStubScriptedModel, ErrorEventEndsTheStreamAfterTheGivenCount) {
  ScriptedModel model = model_from("faults.ndjson");
  const ApiResponse response = model.answer(post(streaming_body({user_prompt("error event")})));
  ASSERT_EQ(response.events.size(), 4u);
  EXPECT_EQ(response.events[3].name, "error");
  EXPECT_EQ(
      response.events[3].data,
      (Json{{"type", "error"},
            {"error", {{"type", "overloaded_error"}, {"message", "Overloaded mid-stream"}}}}));
}

TEST(ModelStubScriptedModel, DropAndDelayFaultsAreHandedToTheServer) {
  ScriptedModel model = model_from("faults.ndjson");
  const ApiResponse dropped = model.answer(post(streaming_body({user_prompt("drop")})));
  EXPECT_EQ(dropped.drop_after, 2u);
  const ApiResponse slow = model.answer(post(streaming_body({user_prompt("slow")})));
  EXPECT_EQ(slow.event_delay.count(), 30);
  EXPECT_EQ(streamed_text(slow), "s l o w");
  EXPECT_FALSE(slow.drop_after.has_value());
}

TEST(ModelStubScriptedModel, UnreadableRequestIsA400WithItsNumber) {
  ScriptedModel model = model_from("plain_text.ndjson");
  model.answer(ApiRequest{"GET", "/", {}, ""});
  const ApiResponse response = model.answer_unreadable("malformed HTTP request: bad method");
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(error_of(response)["error"]["message"].get<std::string>().find("request #2"),
            std::string::npos);
  EXPECT_EQ(model.requests_seen(), 2u);
}

}  // namespace
}  // namespace claude::model_stub
