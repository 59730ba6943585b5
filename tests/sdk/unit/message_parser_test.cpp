// MessageParser: every message type with the shapes of docs/protocol.md §3–§7, every ParseError.
#include "messages/message_parser.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

namespace claude::sdk {
namespace {

std::string read_source_file(const std::string& relative) {
  const char* root = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  const std::string path = (root ? std::string(root) + "/" : std::string()) + relative;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A one-line data file from tests/sdk/data/, without its newline.
std::string data_line(const std::string& name) {
  std::string text = read_source_file("tests/sdk/data/" + name);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

Message parse_ok(std::string_view line) {
  MessageParser parser;
  auto result = parser.parse(line);
  if (auto* error = std::get_if<ParseError>(&result)) {
    ADD_FAILURE() << "parse failed: " << error->message << " in " << line;
    return Message(std::string(line), UnknownMessage{});
  }
  return std::get<Message>(std::move(result));
}

ParseError parse_error(std::string_view line) {
  MessageParser parser;
  auto result = parser.parse(line);
  if (!std::holds_alternative<ParseError>(result)) {
    ADD_FAILURE() << "parsed although invalid: " << line;
    return {};
  }
  return std::get<ParseError>(result);
}

// The typed body, copied: tests often hold it past the temporary Message it came from.
template <class T>
T body(const Message& message) {
  const T* typed = message.get_if<T>();
  EXPECT_NE(typed, nullptr) << "message is a " << message.type_name();
  return typed ? *typed : T{};
}

// --- system ---------------------------------------------------------------------------------

TEST(MessageParser, SystemInitExposesItsFields) {
  const auto message = parse_ok(data_line("system_init.json"));
  EXPECT_EQ(message.type(), MessageType::system);
  const auto& system = body<SystemMessage>(message);
  EXPECT_EQ(system.subtype, "init");
  EXPECT_EQ(system.session_id, "4f1c2a9e-0d3b-4c57-9a61-2b7f0e5d8c14");
  ASSERT_TRUE(system.init.has_value());
  EXPECT_EQ(system.init->cwd, "/home/user/project");
  EXPECT_EQ(system.init->model, "claude-sonnet-4-5");
  EXPECT_EQ(system.init->permission_mode, "default");
  EXPECT_EQ(system.init->api_key_source, "ANTHROPIC_API_KEY");
  EXPECT_EQ(system.init->claude_code_version, "2.1.332");
  EXPECT_EQ(system.init->tools, (std::vector<std::string>{"Bash", "Read", "mcp__greeter__greet"}));
  EXPECT_EQ(system.init->skills, std::vector<std::string>{"pdf"});
  EXPECT_EQ(system.init->agents, std::vector<std::string>{"reviewer"});
  EXPECT_EQ(system.init->mcp_servers.value()[0]["name"], "greeter");
  EXPECT_EQ(message.json()["effort"], "high");
}

TEST(MessageParser, UnknownSystemSubtypeIsKeptWithItsData) {
  const auto message =
      parse_ok(R"({"type":"system","subtype":"brand_new","uuid":"u","session_id":"s","x":[1,2]})");
  const auto& system = body<SystemMessage>(message);
  EXPECT_EQ(system.subtype, "brand_new");
  EXPECT_FALSE(system.init.has_value());
  EXPECT_EQ(message.json()["x"][1], 2);
}

TEST(MessageParser, TaskUpdatedTakesItsStatusFromThePatch) {
  const auto& system = body<SystemMessage>(parse_ok(
      R"({"type":"system","subtype":"task_updated","task_id":"t1","patch":{"status":"killed"}})"));
  EXPECT_TRUE(system.is_task_event());
  EXPECT_EQ(system.task_id, "t1");
  EXPECT_EQ(system.task_status, "killed");
}

TEST(MessageParser, TaskUpdatedWithoutUsablePatchStillParses) {
  for (std::string_view line :
       {R"({"type":"system","subtype":"task_updated","task_id":"t1"})",
        R"({"type":"system","subtype":"task_updated","task_id":"t1","patch":"done"})",
        R"({"type":"system","subtype":"task_updated","task_id":"t1","patch":{"end_time":5}})"}) {
    EXPECT_EQ(body<SystemMessage>(parse_ok(line)).task_status, "") << line;
  }
}

TEST(MessageParser, TaskNotificationAndSessionStateAreTyped) {
  EXPECT_EQ(body<SystemMessage>(parse_ok(R"({"type":"system","subtype":"task_notification",)"
                                         R"("task_id":"t","status":"stopped"})"))
                .task_status,
            "stopped");
  EXPECT_EQ(body<SystemMessage>(
                parse_ok(R"({"type":"system","subtype":"session_state_changed","state":"idle"})"))
                .state,
            "idle");
}

// --- assistant / user -----------------------------------------------------------------------

TEST(MessageParser, AssistantKeepsEveryBlockKindIncludingUnknownOnes) {
  const auto message = parse_ok(data_line("assistant_all_blocks.json"));
  const auto& assistant = body<AssistantMessage>(message);
  EXPECT_EQ(assistant.model, "claude-sonnet-4-5");
  EXPECT_EQ(assistant.message_id, "msg_01");
  EXPECT_EQ(assistant.parent_tool_use_id, "toolu_03Agent");
  EXPECT_EQ(assistant.error, "rate_limit");
  EXPECT_EQ(assistant.stop_reason, "tool_use");
  EXPECT_EQ(assistant.usage.value()["output_tokens"], 4);
  ASSERT_EQ(assistant.content.size(), 7u);
  using Kind = ContentBlock::Kind;
  const auto& c = assistant.content;
  EXPECT_EQ(c[0].kind, Kind::text);
  EXPECT_EQ(c[0].text, "Hello");
  EXPECT_EQ(c[1].kind, Kind::thinking);
  EXPECT_EQ(c[1].text, "hmm");
  EXPECT_EQ(c[1].signature, "sig");
  EXPECT_EQ(c[2].kind, Kind::redacted_thinking);
  EXPECT_EQ(c[2].text, "UkVEQUNURUQ=");
  EXPECT_EQ(c[3].kind, Kind::tool_use);
  EXPECT_EQ(c[3].id, "toolu_01");
  EXPECT_EQ(c[3].name, "Bash");
  EXPECT_EQ(c[3].input.value(), nlohmann::json({{"command", "ls"}}));
  EXPECT_EQ(c[4].kind, Kind::server_tool_use);
  EXPECT_EQ(c[4].name, "web_search");
  EXPECT_EQ(c[5].kind, Kind::tool_result);
  EXPECT_EQ(c[5].tool_use_id, "toolu_00");
  EXPECT_TRUE(c[5].is_error);
  EXPECT_EQ(c[5].content.value()[0]["text"], "out");
  EXPECT_EQ(c[6].kind, Kind::unknown);
  EXPECT_EQ(c[6].type, "web_search_tool_result");
  EXPECT_EQ(c[6].raw.value()["tool_use_id"], "srvtoolu_01");
}

TEST(MessageParser, AssistantWithStringContentIsAWrongType) {
  const auto error =
      parse_error(R"({"type":"assistant","message":{"model":"m","content":"plain text"}})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/message/content");
}

TEST(MessageParser, AssistantWithNonObjectBlockNamesTheBlock) {
  const auto error = parse_error(
      R"({"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"a"},7]}})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/message/content/1");
}

TEST(MessageParser, UserWithStringContentKeepsTheText) {
  const auto& user = body<UserMessage>(parse_ok(
      R"({"type":"user","session_id":"","message":{"role":"user","content":"hi"},"parent_tool_use_id":null,"isReplay":true})"));
  EXPECT_EQ(user.text, "hi");
  EXPECT_TRUE(user.content.empty());
  EXPECT_FALSE(user.parent_tool_use_id.has_value());
  EXPECT_TRUE(user.is_replay);
}

TEST(MessageParser, UserToolResultKeepsContentAndStructuredResult) {
  const auto& user = body<UserMessage>(parse_ok(
      R"({"type":"user","uuid":"u","session_id":"s","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"total 0\n","is_error":false}]},"tool_use_result":{"stdout":"total 0\n"},"isSynthetic":true})"));
  EXPECT_FALSE(user.text.has_value());
  ASSERT_EQ(user.content.size(), 1u);
  EXPECT_EQ(user.content[0].kind, ContentBlock::Kind::tool_result);
  EXPECT_EQ(user.content[0].content.value(), "total 0\n");
  EXPECT_FALSE(user.content[0].is_error);
  EXPECT_EQ(user.tool_use_result.value()["stdout"], "total 0\n");
  EXPECT_TRUE(user.is_synthetic);
}

// --- result ---------------------------------------------------------------------------------

TEST(MessageParser, ResultWhoseFirstKeyIsNotTypeIsStillAResult) {
  const std::string line = data_line("result_error_max_turns.json");
  ASSERT_FALSE(line.starts_with("{\"type\""));
  const auto message = parse_ok(line);
  EXPECT_EQ(message.type(), MessageType::result);
  EXPECT_EQ(message.line(), line);
}

TEST(MessageParser, ErrorResultCarriesItsErrorsAndAccounting) {
  const auto& result = body<ResultMessage>(parse_ok(data_line("result_error_max_turns.json")));
  EXPECT_EQ(result.subtype, "error_max_turns");
  EXPECT_TRUE(result.is_error);
  EXPECT_TRUE(result.has_errors);
  EXPECT_EQ(result.errors,
            (std::vector<std::string>{"Reached maximum number of turns (10)", "Second error"}));
  EXPECT_FALSE(result.result.has_value());
  EXPECT_EQ(result.duration_ms, 52000);
  EXPECT_EQ(result.duration_api_ms, 41000);
  EXPECT_EQ(result.num_turns, 10);
  EXPECT_DOUBLE_EQ(result.total_cost_usd.value_or(-1), 0.1844);
  EXPECT_EQ(result.terminal_reason, "max_turns");
  EXPECT_EQ(result.permission_denials.value()[0]["tool_name"], "Edit");
}

TEST(MessageParser, ApiFailureIsASuccessSubtypeWithIsErrorAndHttpStatus) {
  const auto& result = body<ResultMessage>(parse_ok(data_line("result_api_error.json")));
  EXPECT_EQ(result.subtype, "success");
  EXPECT_TRUE(result.is_error);
  EXPECT_EQ(result.result, "API Error: 529 Overloaded");
  EXPECT_EQ(result.api_error_status, 529);
  EXPECT_DOUBLE_EQ(result.total_cost_usd.value_or(-1), 0.0);
  EXPECT_FALSE(result.has_errors);
}

TEST(MessageParser, ResultErrorsGivenAsABareStringOrWithBlanksAreNormalised) {
  const std::string head =
      R"({"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":1,"duration_api_ms":1,"num_turns":1,"session_id":"s","errors":)";
  EXPECT_EQ(body<ResultMessage>(parse_ok(head + R"("boom"})")).errors,
            std::vector<std::string>{"boom"});
  const auto& mixed = body<ResultMessage>(parse_ok(head + R"(["a","  ",7,null,"b"]})"));
  EXPECT_TRUE(mixed.has_errors);
  EXPECT_EQ(mixed.errors, (std::vector<std::string>{"a", "b"}));
}

TEST(MessageParser, ResultMissingARequiredFieldNamesIt) {
  const auto error = parse_error(
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":1,"duration_api_ms":1,"num_turns":1})");
  EXPECT_EQ(error.kind, ParseError::Kind::missing_field);
  EXPECT_EQ(error.field, "/session_id");
  EXPECT_NE(error.message.find("/session_id"), std::string::npos);
}

TEST(MessageParser, ResultWithTextualDurationIsAWrongType) {
  const auto error = parse_error(
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":"1","duration_api_ms":1,"num_turns":1,"session_id":"s"})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/duration_ms");
}

// --- stream_event, rate limits, keep_alive, unknown -----------------------------------------

TEST(MessageParser, StreamEventExposesTheEventType) {
  const auto& event = body<StreamEvent>(parse_ok(
      R"({"type":"stream_event","uuid":"u","session_id":"s","parent_tool_use_id":null,"event":{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}})"));
  EXPECT_EQ(event.event_type, "content_block_delta");
  EXPECT_EQ(event.event.value()["delta"]["text"], "Hi");
}

TEST(MessageParser, RateLimitEventExposesItsStatus) {
  const auto& event = body<RateLimitEvent>(parse_ok(
      R"({"type":"rate_limit_event","rate_limit_info":{"status":"allowed_warning","utilization":0.9},"uuid":"u","session_id":"s"})"));
  EXPECT_EQ(event.status, "allowed_warning");
  EXPECT_DOUBLE_EQ(event.rate_limit_info.value()["utilization"].get<double>(), 0.9);
}

TEST(MessageParser, KeepAliveIsTyped) {
  EXPECT_EQ(parse_ok(R"({"type":"keep_alive","startup_mark":1})").type(), MessageType::keep_alive);
}

TEST(MessageParser, UnknownTypeIsKeptAsIs) {
  const std::string line =
      R"({"type":"tool_progress","tool_use_id":"toolu_1","tool_name":"Bash","elapsed_time_seconds":3})";
  const auto message = parse_ok(line);
  EXPECT_EQ(message.type(), MessageType::unknown);
  EXPECT_EQ(message.type_name(), "tool_progress");
  EXPECT_EQ(message.line(), line);
  EXPECT_EQ(message.json()["elapsed_time_seconds"], 3);
}

// --- control messages -----------------------------------------------------------------------

TEST(MessageParser, CanUseToolRequestIsTyped) {
  const auto& request = body<ControlRequest>(parse_ok(
      R"({"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"toolu_1","permission_suggestions":[{"type":"addRules"}],"blocked_path":"/etc","agent_id":"a1"}})"));
  EXPECT_EQ(request.request_id, "r1");
  EXPECT_EQ(request.subtype, "can_use_tool");
  const auto* typed = std::get_if<CanUseToolRequest>(&request.typed);
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->tool_name, "Bash");
  EXPECT_EQ(typed->input.value()["command"], "ls");
  EXPECT_EQ(typed->tool_use_id, "toolu_1");
  EXPECT_EQ(typed->blocked_path, "/etc");
  EXPECT_EQ(typed->agent_id, "a1");
  EXPECT_EQ(typed->permission_suggestions.value()[0]["type"], "addRules");
}

TEST(MessageParser, HookCallbackRequestIsTyped) {
  const auto& request = body<ControlRequest>(parse_ok(data_line("hook_callback.json")));
  const auto* typed = std::get_if<HookCallbackRequest>(&request.typed);
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->callback_id, "hook_0");
  EXPECT_FALSE(typed->tool_use_id.has_value());
  EXPECT_EQ(typed->hook_event_name, "PreToolUse");
  EXPECT_EQ(typed->input.value()["tool_name"], "Bash");
}

TEST(MessageParser, McpMessageRequestIsTyped) {
  const auto& request = body<ControlRequest>(parse_ok(
      R"({"type":"control_request","request_id":"r","request":{"subtype":"mcp_message","server_name":"greeter","message":{"jsonrpc":"2.0","id":1,"method":"tools/list"}}})"));
  const auto* typed = std::get_if<McpMessageRequest>(&request.typed);
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->server_name, "greeter");
  EXPECT_EQ(typed->method, "tools/list");
}

TEST(MessageParser, InitializeRequestIsTyped) {
  const auto& request = body<ControlRequest>(parse_ok(
      R"({"type":"control_request","request_id":"req_1_a","request":{"subtype":"initialize","hooks":{"PreToolUse":[{"matcher":"Bash","hookCallbackIds":["hook_0"]}]},"sdkMcpServers":["greeter"]}})"));
  const auto* typed = std::get_if<InitializeRequest>(&request.typed);
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->sdk_mcp_servers.value()[0], "greeter");
  EXPECT_EQ(typed->hooks.value()["PreToolUse"][0]["hookCallbackIds"][0], "hook_0");
  EXPECT_FALSE(typed->agents.present());
}

TEST(MessageParser, OtherControlRequestSubtypesAreKeptWithTheirRequest) {
  const auto& request = body<ControlRequest>(parse_ok(
      R"({"type":"control_request","request_id":"r","request":{"subtype":"set_model","model":"opus"}})"));
  EXPECT_EQ(request.subtype, "set_model");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(request.typed));
  EXPECT_EQ(request.request.value()["model"], "opus");
}

TEST(MessageParser, ControlRequestWithoutRequestIsMissingField) {
  const auto error = parse_error(R"({"type":"control_request","request_id":"r"})");
  EXPECT_EQ(error.kind, ParseError::Kind::missing_field);
  EXPECT_EQ(error.field, "/request");
}

TEST(MessageParser, ControlSuccessResponseIsTyped) {
  const auto& response = body<ControlResponse>(parse_ok(
      R"({"type":"control_response","response":{"subtype":"success","request_id":"r","response":{"mode":"plan"}}})"));
  EXPECT_TRUE(response.success);
  EXPECT_EQ(response.request_id, "r");
  EXPECT_EQ(response.response.value()["mode"], "plan");
}

TEST(MessageParser, ControlErrorResponseKeepsErrorAndCode) {
  const auto& response = body<ControlResponse>(parse_ok(
      R"({"type":"control_response","response":{"subtype":"error","request_id":"r","error":"Unsupported control request subtype: x","error_code":"unsupported_request"}})"));
  EXPECT_FALSE(response.success);
  EXPECT_EQ(response.error, "Unsupported control request subtype: x");
  EXPECT_EQ(response.error_code, "unsupported_request");
}

TEST(MessageParser, InitializeResponseKeepsPendingRequestsBesideResponse) {
  const auto& response =
      body<ControlResponse>(parse_ok(data_line("control_response_initialize_pending.json")));
  EXPECT_TRUE(response.success);
  EXPECT_EQ(response.request_id, "req_1_a1b2c3d4");
  EXPECT_EQ(response.response.value()["pid"], 4242);
  const auto pending = response.pending_permission_requests.value();
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0]["request"]["subtype"], "can_use_tool");
  EXPECT_EQ(response.pending_user_dialog_requests.value(), nlohmann::json::array());
  EXPECT_TRUE(response.pending_elicitation_requests.present());
}

TEST(MessageParser, ControlResponseAcceptsRubyRequestIdSpelling) {
  const auto& response = body<ControlResponse>(
      parse_ok(R"({"type":"control_response","response":{"subtype":"success","requestId":"r9"}})"));
  EXPECT_EQ(response.request_id, "r9");
  EXPECT_FALSE(response.response.present());
}

TEST(MessageParser, ControlResponseWithUnknownSubtypeIsAWrongType) {
  const auto error =
      parse_error(R"({"type":"control_response","response":{"subtype":"maybe","request_id":"r"}})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/response/subtype");
}

TEST(MessageParser, ControlCancelRequestIsTyped) {
  EXPECT_EQ(body<ControlCancelRequest>(
                parse_ok(R"({"type":"control_cancel_request","request_id":"req_3"})"))
                .request_id,
            "req_3");
  const auto error = parse_error(R"({"type":"control_cancel_request","request_id":3})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/request_id");
}

// --- errors of every kind -------------------------------------------------------------------

TEST(MessageParser, NoiseLineIsNotJson) {
  const auto error = parse_error("[SandboxDebug] Seccomp filtering not available");
  EXPECT_EQ(error.kind, ParseError::Kind::not_json);
  EXPECT_EQ(error.field, "");
  EXPECT_FALSE(error.message.empty());
}

TEST(MessageParser, TruncatedLineIsNotJson) {
  EXPECT_EQ(parse_error(R"({"type":"result","subtype":"succ)").kind, ParseError::Kind::not_json);
}

TEST(MessageParser, EmptyLineIsNotJson) {
  EXPECT_EQ(parse_error("").kind, ParseError::Kind::not_json);
}

TEST(MessageParser, InvalidUtf8IsNotJson) {
  EXPECT_EQ(parse_error("{\"type\":\"keep_alive\",\"x\":\"\xFF\"}").kind,
            ParseError::Kind::not_json);
}

TEST(MessageParser, JsonThatIsNotAnObjectIsNotObject) {
  for (std::string_view line : {"[1,2]", "\"text\"", "42", "null"}) {
    const auto error = parse_error(line);
    EXPECT_EQ(error.kind, ParseError::Kind::not_object) << line;
    EXPECT_EQ(error.field, "") << line;
  }
}

TEST(MessageParser, MissingTypeIsMissingField) {
  const auto error = parse_error(R"({"subtype":"init"})");
  EXPECT_EQ(error.kind, ParseError::Kind::missing_field);
  EXPECT_EQ(error.field, "/type");
}

TEST(MessageParser, NonStringTypeIsWrongType) {
  const auto error = parse_error(R"({"type":["system"]})");
  EXPECT_EQ(error.kind, ParseError::Kind::wrong_type);
  EXPECT_EQ(error.field, "/type");
}

TEST(MessageParser, MissingNestedFieldGivesItsPointer) {
  const auto error = parse_error(
      R"({"type":"assistant","message":{"model":"m","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t"}]}})");
  EXPECT_EQ(error.kind, ParseError::Kind::missing_field);
  EXPECT_EQ(error.field, "/message/content/1/name");
}

TEST(MessageParser, NestingBeyondTheCapIsTooDeep) {
  const std::size_t depth = MessageParser::kMaxDepth + 10;
  const std::string line =
      R"({"type":"x","v":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
  const auto error = parse_error(line);
  EXPECT_EQ(error.kind, ParseError::Kind::too_deep);
}

TEST(MessageParser, NestingWithinTheCapParses) {
  const std::size_t depth = MessageParser::kMaxDepth - 10;
  const std::string line =
      R"({"type":"x","v":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
  EXPECT_EQ(parse_ok(line).type_name(), "x");
}

// --- numbers, keys, laziness ----------------------------------------------------------------

TEST(MessageParser, IntegersBeyond64BitsAreAcceptedAndTheLineIsKept) {
  const std::string line =
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":123456789012345678901234567890,"duration_api_ms":1,"num_turns":1,"session_id":"s","usage":{"n":1e400000}})";
  MessageParser parser;
  auto result = parser.parse(line);
  if (auto* error = std::get_if<ParseError>(&result)) {
    // 1e400000 overflows a double: refusing it is acceptable, crashing is not.
    EXPECT_EQ(error->kind, ParseError::Kind::not_json);
  }
  const std::string big =
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":123456789012345678901234567890,"duration_api_ms":18446744073709551615,"num_turns":-9223372036854775808,"session_id":"s"})";
  const auto message = parse_ok(big);
  EXPECT_EQ(message.line(), big);
  const auto& typed = body<ResultMessage>(message);
  EXPECT_EQ(typed.num_turns, INT64_MIN);
  EXPECT_TRUE(message.json()["duration_ms"].is_number_float());
}

TEST(MessageParser, IntegerFieldsBeyondInt64Saturate) {
  const auto result = body<ResultMessage>(parse_ok(
      R"({"type":"result","subtype":"success","is_error":false,"duration_ms":123456789012345678901234567890,"duration_api_ms":18446744073709551615,"num_turns":-1e300,"session_id":"s"})"));
  EXPECT_EQ(result.duration_ms, INT64_MAX);
  EXPECT_EQ(result.duration_api_ms, INT64_MAX);
  EXPECT_EQ(result.num_turns, INT64_MIN);
}

TEST(MessageParser, KeyOrderDoesNotMatter) {
  const auto a = parse_ok(R"({"type":"control_cancel_request","request_id":"r"})");
  const auto b = parse_ok(R"({ "request_id" : "r" , "type" : "control_cancel_request" })");
  EXPECT_EQ(a, b);
  EXPECT_NE(a.line(), b.line());
}

TEST(MessageParser, RepeatedKeyTakesTheLastValueLikeTheJsonView) {
  const auto message =
      parse_ok(R"({"type":"control_cancel_request","request_id":"first","request_id":"last"})");
  EXPECT_EQ(body<ControlCancelRequest>(message).request_id, "last");
  EXPECT_EQ(message.json()["request_id"], "last");
}

TEST(MessageParser, FreeFormValuesAreKeptCompactWhenTheLineIsSpaced) {
  const auto event = body<StreamEvent>(parse_ok(
      R"({ "type" : "stream_event" , "event" : { "type" : "x" , "a" : [ 1 , "b c" , { } ] } })"));
  EXPECT_EQ(event.event_type, "x");
  EXPECT_EQ(event.event.text(), R"({"type":"x","a":[1,"b c",{}]})");
}

TEST(MessageParser, FreeFormValuesSurviveEscapedQuotesAndBackslashes) {
  const auto user = body<UserMessage>(parse_ok(
      R"({"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"a\"b\\","is_error":true},{"type":"tool_result","tool_use_id":"u","content":["\\\"",{"k\"":"]}"}]}]},"tool_use_result":{"q":"\\"}})"));
  ASSERT_EQ(user.content.size(), 2u);
  EXPECT_EQ(user.content[0].content.value(), "a\"b\\");
  EXPECT_TRUE(user.content[0].is_error);
  EXPECT_EQ(user.content[1].content.value(), nlohmann::json::parse(R"(["\\\"",{"k\"":"]}"}])"));
  EXPECT_EQ(user.tool_use_result.value()["q"], "\\");
}

TEST(MessageParser, MemberWithAnEscapedKeyIsStillFound) {
  const auto event =
      body<StreamEvent>(parse_ok(R"({"type":"stream_event","\u0065vent":{"type":"y"},"ev":[1]})"));
  EXPECT_EQ(event.event_type, "y");
  EXPECT_EQ(event.event.value(), nlohmann::json({{"type", "y"}}));
}

TEST(MessageParser, JsonViewEqualsAFullParseOfTheLine) {
  const std::string line = data_line("assistant_all_blocks.json");
  EXPECT_EQ(parse_ok(line).json(), nlohmann::json::parse(line));
}

TEST(MessageParser, ParserIsReusableAfterAnError) {
  MessageParser parser;
  EXPECT_TRUE(std::holds_alternative<ParseError>(parser.parse("{")));
  EXPECT_TRUE(std::holds_alternative<Message>(parser.parse(R"({"type":"keep_alive"})")));
}

TEST(MessageParser, SampleSessionHasEveryMessageTypeAndParsesCompletely) {
  const std::string session = read_source_file("scenarios/samples/session.ndjson");
  std::istringstream lines(session);
  std::string text;
  MessageParser parser;
  std::map<MessageType, int> seen;
  int number = 0;
  while (std::getline(lines, text)) {
    ++number;
    auto result = parser.parse(text);
    if (auto* error = std::get_if<ParseError>(&result)) {
      ADD_FAILURE() << "session.ndjson:" << number << ": " << error->message;
      continue;
    }
    ++seen[std::get<Message>(result).type()];
  }
  for (auto type : {MessageType::system, MessageType::assistant, MessageType::user,
                    MessageType::result, MessageType::stream_event, MessageType::control_request,
                    MessageType::control_response, MessageType::control_cancel_request,
                    MessageType::rate_limit_event, MessageType::keep_alive, MessageType::unknown}) {
    EXPECT_GT(seen[type], 0) << to_string(type);
  }
}

TEST(ParseErrorKind, NamesAreStable) {
  EXPECT_EQ(to_string(ParseError::Kind::not_json), "not_json");
  EXPECT_EQ(to_string(ParseError::Kind::not_object), "not_object");
  EXPECT_EQ(to_string(ParseError::Kind::missing_field), "missing_field");
  EXPECT_EQ(to_string(ParseError::Kind::wrong_type), "wrong_type");
  EXPECT_EQ(to_string(ParseError::Kind::too_deep), "too_deep");
}

TEST(MessageParser, ParseMovingKeepsTheLineOnErrorAndGivesItToTheMessageOnSuccess) {
  MessageParser parser;
  std::string bad = R"({"type":"control_request","request_id":"r1"})";  // no `request`
  const std::string bad_copy = bad;
  auto failed = parser.parse_moving(std::move(bad));
  ASSERT_TRUE(std::holds_alternative<ParseError>(failed));
  EXPECT_EQ(bad, bad_copy);  // still there for the caller's error report

  std::string good = R"({"type":"keep_alive","padding":")" + std::string(500, 'p') + "\"}";
  const std::string good_copy = good;
  const char* storage = good.data();
  auto parsed = parser.parse_moving(std::move(good));
  ASSERT_TRUE(std::holds_alternative<Message>(parsed));
  EXPECT_EQ(std::get<Message>(parsed).line(), good_copy);
  EXPECT_EQ(std::get<Message>(parsed).line().data(), storage);  // taken, not copied
}

}  // namespace
}  // namespace claude::sdk
