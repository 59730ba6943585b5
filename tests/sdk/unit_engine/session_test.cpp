// Client and query() over an in-memory transport: initialize, inbound handlers, when stdin is
// closed, how the end reaches the consumer.
#include <gtest/gtest.h>

#include <thread>

#include "claude/sdk/client.hpp"
#include "claude/sdk/query.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

struct Harness {
  std::shared_ptr<InMemoryTransport*> slot = std::make_shared<InMemoryTransport*>(nullptr);
  std::unique_ptr<InMemoryTransport> owned = answering_initialize(slot);
  InMemoryTransport& cli = *owned;
};

json session_state(const std::string& state) {
  return {{"type", "system"},     {"subtype", "session_state_changed"},
          {"state", state},       {"sdk_host_only", true},
          {"uuid", "u-" + state}, {"session_id", "s1"}};
}

TEST(ClientTest, ConnectSendsInitializeWithNumberedHookIdsAndWaitsForTheAnswer) {
  Harness h;
  Options o;
  HookCallback noop = [](const HookInput&, const CancelToken&) { return HookOutput{}; };
  o.hooks[HookEvent::PreToolUse] = {HookMatcher{"Bash", {noop, noop}, 30}};
  o.hooks[HookEvent::Stop] = {HookMatcher{std::nullopt, {noop}, std::nullopt}};
  Client client(o, std::move(h.owned));
  client.connect();
  EXPECT_EQ(client.server_info(), (json{{"commands", json::array()}}));
  auto init = h.cli.next_written_json(kWait);
  ASSERT_TRUE(init);
  const json& hooks = (*init)["request"]["hooks"];
  EXPECT_EQ(hooks["PreToolUse"][0]["matcher"], "Bash");
  EXPECT_EQ(hooks["PreToolUse"][0]["hookCallbackIds"], (json{"hook_0", "hook_1"}));
  EXPECT_EQ(hooks["PreToolUse"][0]["timeout"], 30);
  EXPECT_EQ(hooks["Stop"][0]["hookCallbackIds"], (json{"hook_2"}));
  EXPECT_TRUE(hooks["Stop"][0]["matcher"].is_null());
}

TEST(ClientTest, InitializeErrorReplyFailsConnectWithControlError) {
  auto slot = std::make_shared<InMemoryTransport*>(nullptr);
  InMemoryTransport::Config config;
  config.responder = [slot](const std::string& frame) {
    json j = json::parse(frame);
    (*slot)->push_json(
        {{"type", "control_response"},
         {"response",
          {{"subtype", "error"}, {"request_id", j["request_id"]}, {"error", "hooks malformed"}}}});
  };
  auto t = std::make_unique<InMemoryTransport>(config);
  *slot = t.get();
  Client client(Options{}, std::move(t));
  EXPECT_THROW(client.connect(), ControlError);
}

TEST(ClientTest, InitializeWithoutAnswerTimesOut) {
  Options o;
  o.initialize_timeout = 50ms;
  Client client(o, std::make_unique<InMemoryTransport>());
  EXPECT_THROW(client.connect(), TimeoutError);
}

TEST(ClientTest, FailedConnectOfTheTransportIsAConnectionErrorAndCloseIsSafe) {
  InMemoryTransport::Config config;
  config.fail_connect = true;
  Client client(Options{}, std::make_unique<InMemoryTransport>(config));
  EXPECT_THROW(client.connect(), ConnectionError);
  client.disconnect();
}

TEST(ClientTest, ReceiveResponseReturnsTheTurnUpToItsResult) {
  Harness h;
  Client client(Options{}, std::move(h.owned));
  client.connect();
  client.query("hello");
  auto user = next_non_initialize(h.cli);
  EXPECT_EQ(user["type"], "user");
  EXPECT_EQ(user["message"]["content"], "hello");
  EXPECT_EQ(user["session_id"], "default");
  h.cli.push_json(assistant_line("one"));
  h.cli.push_json(result_line());
  h.cli.push_json(assistant_line("next turn"));
  auto turn = client.receive_response().collect();
  ASSERT_EQ(turn.size(), 2u);
  EXPECT_TRUE(turn[1].is<ResultMessage>());
  auto after = client.receive_message();
  ASSERT_TRUE(after);
  EXPECT_EQ(after->get_if<AssistantMessage>()->content[0].text, "next turn");
  EXPECT_TRUE(h.cli.input_open()) << "a Client keeps stdin open between turns";
}

TEST(ClientTest, ControlCallsSendTheirSubtypesAndFields) {
  Harness h;
  std::vector<json> seen;
  Client client(Options{}, std::move(h.owned));
  client.connect();
  std::thread cli([&] {
    for (int i = 0; i < 10; ++i) {
      json j = next_non_initialize(h.cli);
      seen.push_back(j["request"]);
      h.cli.push_json({{"type", "control_response"},
                       {"response", {{"subtype", "success"}, {"request_id", j["request_id"]}}}});
    }
  });
  client.interrupt();
  client.set_permission_mode(PermissionMode::plan);
  client.set_model(std::nullopt);
  client.rewind_files("u-1", true);
  client.mcp_status();
  client.get_context_usage();
  client.stop_task("t1");
  client.mcp_reconnect("srv");
  client.mcp_toggle("srv", false);
  client.background_tasks("toolu_1");
  cli.join();
  ASSERT_EQ(seen.size(), 10u);
  EXPECT_EQ(seen[0], (json{{"subtype", "interrupt"}}));
  EXPECT_EQ(seen[1], (json{{"subtype", "set_permission_mode"}, {"mode", "plan"}}));
  EXPECT_EQ(seen[2], (json{{"subtype", "set_model"}, {"model", nullptr}}));
  EXPECT_EQ(seen[3],
            (json{{"subtype", "rewind_files"}, {"user_message_id", "u-1"}, {"dry_run", true}}));
  EXPECT_EQ(seen[4]["subtype"], "mcp_status");
  EXPECT_EQ(seen[5]["subtype"], "get_context_usage");
  EXPECT_EQ(seen[6], (json{{"subtype", "stop_task"}, {"task_id", "t1"}}));
  EXPECT_EQ(seen[7], (json{{"subtype", "mcp_reconnect"}, {"serverName", "srv"}}));
  EXPECT_EQ(seen[8], (json{{"subtype", "mcp_toggle"}, {"serverName", "srv"}, {"enabled", false}}));
  EXPECT_EQ(seen[9], (json{{"subtype", "background_tasks"}, {"tool_use_id", "toolu_1"}}));
}

TEST(ClientTest, CanUseToolAllowEchoesToolUseIdAndOriginalInput) {
  Harness h;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest& r, const CancelToken&) {
    EXPECT_EQ(r.tool_name, "Bash");
    return PermissionDecision::allowed();
  };
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("p1", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Bash"},
                                         {"input", {{"command", "ls"}}},
                                         {"tool_use_id", "toolu_9"}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["response"], (json{{"behavior", "allow"},
                                             {"updatedInput", {{"command", "ls"}}},
                                             {"toolUseID", "toolu_9"}}));
}

TEST(ClientTest, CanUseToolAllowEchoesTheCLIsInputTextByteForByte) {
  // Unsorted keys, a number nlohmann would respell, escapes and non-ASCII: a tree round trip
  // would change all of them; the answer carries the CLI's own text.
  const std::string input = R"({"z":1.50,"a":"caf\u00e9 \"q\"","m":[true,null,{"k":"é"}]})";
  Harness h;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest& r, const CancelToken&) {
    EXPECT_EQ(r.input["a"], "caf\u00e9 \"q\"");
    return PermissionDecision::allowed();
  };
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_line(
      R"({"type":"control_request","request_id":"p7","request":{"subtype":"can_use_tool","tool_name":"Bash","input":)" +
      input + R"(,"tool_use_id":"toolu_7"}})");
  std::optional<std::string> line;
  for (;;) {
    line = h.cli.next_written(std::chrono::seconds(10));
    ASSERT_TRUE(line);
    if (line->find(R"("request_id":"p7")") != std::string::npos) break;
  }
  EXPECT_EQ(
      *line,
      R"({"response":{"request_id":"p7","response":{"behavior":"allow","toolUseID":"toolu_7","updatedInput":)" +
          input + R"(},"subtype":"success"},"type":"control_response"})");
}

TEST(ClientTest, CanUseToolAllowWithNewInputAndPermissionsSendsThem) {
  Harness h;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision(PermissionAllow{
        .updated_input = json{{"command", "ls -l"}},
        .updated_permissions = json::array({{{"type", "setMode"}, {"mode", "plan"}}})});
  };
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("p8", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Bash"},
                                         {"input", {{"command", "ls"}}},
                                         {"tool_use_id", "toolu_8"}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["response"],
            (json{{"behavior", "allow"},
                  {"updatedInput", {{"command", "ls -l"}}},
                  {"updatedPermissions", json::array({{{"type", "setMode"}, {"mode", "plan"}}})},
                  {"toolUseID", "toolu_8"}}));
}

TEST(ClientTest, CanUseToolDenyCarriesMessageAndInterrupt) {
  Harness h;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::denied("not today", true);
  };
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("p2", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Write"},
                                         {"input", json::object()},
                                         {"tool_use_id", "toolu_2"}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["response"], (json{{"behavior", "deny"},
                                             {"message", "not today"},
                                             {"interrupt", true},
                                             {"toolUseID", "toolu_2"}}));
}

TEST(ClientTest, CanUseToolWithoutCallbackIsAnsweredWithAnError) {
  Harness h;
  Client client(Options{}, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("p3", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Bash"},
                                         {"input", json::object()},
                                         {"tool_use_id", "t"}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["error"], "canUseTool callback is not provided.");
}

TEST(ClientTest, HookCallbackIsRoutedByIdAndItsOutputSent) {
  Harness h;
  Options o;
  o.hooks[HookEvent::PreToolUse] = {
      HookMatcher{"Bash",
                  {[](const HookInput& in, const CancelToken&) -> HookOutput {
                    EXPECT_EQ(in.event, HookEvent::PreToolUse);
                    EXPECT_EQ(in.raw["tool_name"], "Bash");
                    return {.specific = PreToolUseOutput{.decision = HookPermission::deny}};
                  }},
                  std::nullopt}};
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request(
      "k1", {{"subtype", "hook_callback"},
             {"callback_id", "hook_0"},
             {"tool_use_id", "toolu_1"},
             {"input", {{"hook_event_name", "PreToolUse"}, {"tool_name", "Bash"}}}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["response"]["hookSpecificOutput"]["permissionDecision"], "deny");
}

TEST(ClientTest, UnknownHookIdIsAnsweredWithAnError) {
  Harness h;
  Client client(Options{}, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("k2", {{"subtype", "hook_callback"},
                                         {"callback_id", "hook_999"},
                                         {"input", {{"hook_event_name", "Stop"}}}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["error"], "No hook callback found for ID: hook_999");
}

std::shared_ptr<McpServer> greeter() {
  auto s = std::make_shared<McpServer>("greeter");
  s->add_tool({"greet", "Says hello", {{"type", "object"}}, [](const json& args) {
                 return McpToolResult::text("Hi " + args.value("name", std::string("?")));
               }});
  return s;
}

json mcp(const std::string& id, const std::string& server, json message) {
  return control_request(
      id, {{"subtype", "mcp_message"}, {"server_name", server}, {"message", std::move(message)}});
}

TEST(ClientTest, InitializeCarriesSdkMcpManifestsInTheTsStyle) {
  Harness h;
  Options o;
  o.sdk_mcp_servers = {greeter()};
  Client client(o, std::move(h.owned));
  client.connect();
  auto init = h.cli.next_written_json(kWait);
  ASSERT_TRUE(init);
  EXPECT_EQ((*init)["request"]["sdkMcpServers"], (json{"greeter"}));
  EXPECT_EQ(
      (*init)["request"]["sdkMcpServerManifests"]["greeter"]["toolsListResult"]["tools"][0]["name"],
      "greet");
}

TEST(ClientTest, McpMessagesRunTheHandshakeAndCallTools) {
  Harness h;
  Options o;
  o.sdk_mcp_servers = {greeter()};
  o.sdk_mcp_style = SdkMcpStyle::mcp_config;
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(mcp("m1", "greeter",
                      {{"jsonrpc", "2.0"},
                       {"id", 1},
                       {"method", "initialize"},
                       {"params", {{"protocolVersion", "2025-03-26"}}}}));
  auto init = next_non_initialize(h.cli);
  EXPECT_EQ(init["response"]["response"]["mcp_response"]["result"]["protocolVersion"],
            "2025-03-26");
  h.cli.push_json(
      mcp("m2", "greeter", {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  auto ack = next_non_initialize(h.cli);
  EXPECT_EQ(ack["response"]["subtype"], "success");
  EXPECT_EQ(ack["response"]["response"]["mcp_response"]["result"], json::object());
  h.cli.push_json(mcp("m3", "greeter",
                      {{"jsonrpc", "2.0"},
                       {"id", 3},
                       {"method", "tools/call"},
                       {"params", {{"name", "greet"}, {"arguments", {{"name", "Ada"}}}}}}));
  auto call = next_non_initialize(h.cli);
  EXPECT_EQ(call["response"]["response"]["mcp_response"]["result"]["content"][0]["text"], "Hi Ada");
  h.cli.push_json(mcp("m4", "nobody", {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/list"}}));
  auto missing = next_non_initialize(h.cli);
  EXPECT_EQ(missing["response"]["response"]["mcp_response"]["error"]["code"], -32601);
}

TEST(ClientTest, UnknownMcpServerIsAControlErrorInTheTsStyle) {
  Harness h;
  Options o;
  o.sdk_mcp_servers = {greeter()};
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(mcp("m5", "nobody", {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}));
  auto j = next_non_initialize(h.cli);
  EXPECT_EQ(j["response"]["error"], "SDK MCP server not found: nobody");
}

TEST(ClientTest, InactivityTimeoutFiresWithoutOutput) {
  Harness h;
  Options o;
  o.message_inactivity_timeout = 100ms;
  Client client(o, std::move(h.owned));
  client.connect();
  EXPECT_THROW(client.receive_message(), TimeoutError);
}

TEST(ClientTest, InactivityTimeoutIsPausedWhileACallbackRuns) {
  Harness h;
  Options o;
  // The callback outlasts the timeout several times over; the margin before it starts keeps the
  // test meaningful on slow (sanitizer) builds too.
  o.message_inactivity_timeout = 1000ms;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    std::this_thread::sleep_for(3000ms);
    return PermissionDecision::allowed();
  };
  Client client(o, std::move(h.owned));
  client.connect();
  h.cli.push_json(control_request("p", {{"subtype", "can_use_tool"},
                                        {"tool_name", "Bash"},
                                        {"input", json::object()},
                                        {"tool_use_id", "t"}}));
  std::thread cli([&] {
    next_non_initialize(h.cli);
    h.cli.push_json(result_line());
  });
  std::optional<Message> m;
  try {
    m = client.receive_message();
  } catch (...) {
    cli.join();
    throw;
  }
  cli.join();
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->is<ResultMessage>());
}

TEST(QueryTest, StdinClosesRightAfterThePromptWhenNothingCanCallBack) {
  Harness h;
  InMemoryTransport& cli = h.cli;
  auto q = query("hi", Options{}, std::move(h.owned));
  EXPECT_TRUE(cli.wait_input_ended(kWait));
  auto user = next_non_initialize(cli);
  EXPECT_EQ(user["session_id"], "");
  cli.push_json(result_line());
  cli.finish(ExitStatus{0, std::nullopt, false});
  auto all = q.collect();
  ASSERT_EQ(all.size(), 1u);
}

TEST(QueryTest, StdinStaysOpenUntilIdleWhenCallbacksAreSet) {
  Harness h;
  InMemoryTransport& cli = h.cli;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  auto q = query("hi", o, std::move(h.owned));
  EXPECT_EQ(next_non_initialize(cli)["type"], "user");
  cli.push_json(session_state("running"));
  cli.push_json(result_line());
  auto first = q.next();
  ASSERT_TRUE(first && first->is<ResultMessage>());
  EXPECT_FALSE(cli.wait_input_ended(100ms)) << "closed at result although the CLI reports state";
  cli.push_json(control_request("late", {{"subtype", "can_use_tool"},
                                         {"tool_name", "Bash"},
                                         {"input", json::object()},
                                         {"tool_use_id", "t"}}));
  auto answer = next_non_initialize(cli);
  EXPECT_EQ(answer["response"]["request_id"], "late");
  cli.push_json(session_state("idle"));
  EXPECT_TRUE(cli.wait_input_ended(kWait));
  cli.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_TRUE(q.collect().empty()) << "sdk_host_only frames must not reach the user";
}

// The reader thread can see the whole run end before query() has marked stdin for closing at
// run end (the thread that wrote the prompt was descheduled): stdin must still be closed.
TEST(QueryTest, RunThatEndsBeforeQueryReturnsStillClosesStdin) {
  auto slot = std::make_shared<InMemoryTransport*>(nullptr);
  InMemoryTransport::Config config;
  config.responder = [slot](const std::string& frame) {
    json j = json::parse(frame);
    if (j.value("type", "") == "control_request") {
      (*slot)->push_json({{"type", "control_response"},
                          {"response",
                           {{"subtype", "success"},
                            {"request_id", j["request_id"]},
                            {"response", {{"commands", json::array()}}}}}});
    } else if (j.value("type", "") == "user") {
      (*slot)->push_json(session_state("running"));
      (*slot)->push_json(result_line());
      (*slot)->push_json(session_state("idle"));
      // Hold the writing thread until the reader has taken every line, as a descheduled
      // thread would.
      std::this_thread::sleep_for(200ms);
    }
  };
  auto owned = std::make_unique<InMemoryTransport>(config);
  *slot = owned.get();
  InMemoryTransport& cli = *owned;
  Options o;
  o.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&) {
    return PermissionDecision::allowed();
  };
  auto q = query("hi", o, std::move(owned));
  EXPECT_TRUE(cli.wait_input_ended(kWait)) << "the run ended first and stdin stayed open";
  cli.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_EQ(q.collect().size(), 1u);
}

TEST(QueryTest, WithoutSessionStateStdinClosesAtTheFirstResultWithNoAgentRunning) {
  Harness h;
  InMemoryTransport& cli = h.cli;
  Options o;
  o.hooks[HookEvent::Stop] = {
      HookMatcher{std::nullopt,
                  {[](const HookInput&, const CancelToken&) { return HookOutput{}; }},
                  std::nullopt}};
  auto q = query("hi", o, std::move(h.owned));
  cli.push_json({{"type", "system"},
                 {"subtype", "task_started"},
                 {"task_id", "a1"},
                 {"task_type", "local_agent"},
                 {"uuid", "u"},
                 {"session_id", "s1"}});
  cli.push_json(result_line());
  EXPECT_FALSE(cli.wait_input_ended(100ms)) << "closed while a subagent was running";
  cli.push_json({{"type", "system"},
                 {"subtype", "task_notification"},
                 {"task_id", "a1"},
                 {"status", "completed"},
                 {"uuid", "u2"},
                 {"session_id", "s1"}});
  cli.push_json(result_line());
  EXPECT_TRUE(cli.wait_input_ended(kWait));
  cli.finish(ExitStatus{0, std::nullopt, false});
  EXPECT_EQ(q.collect().size(), 4u);
}

TEST(QueryTest, ErrorResultAndExitOneSurfaceAsResultErrorAfterTheMessages) {
  Harness h;
  InMemoryTransport& cli = h.cli;
  auto q = query("hi", Options{}, std::move(h.owned));
  cli.push_json(assistant_line("partial"));
  cli.push_json(result_line(true));
  cli.finish(ExitStatus{1, std::nullopt, false}, "Error: boom");
  ASSERT_TRUE(q.next());
  ASSERT_TRUE(q.next());
  EXPECT_THROW(q.next(), ResultError);
}

TEST(QueryTest, CrashWithoutResultIsProcessErrorWithStderrTail) {
  Harness h;
  InMemoryTransport& cli = h.cli;
  auto q = query("hi", Options{}, std::move(h.owned));
  cli.finish(ExitStatus{std::nullopt, 11, false}, "Segmentation fault");
  try {
    q.next();
    FAIL() << "no exception";
  } catch (const ProcessError& e) {
    EXPECT_EQ(e.status().term_signal, 11);
    EXPECT_EQ(e.stderr_tail(), "Segmentation fault");
  }
}

}  // namespace
}  // namespace claude::sdk
