// query() and Client against fake-claude: each test plays one scenario from scenarios/ and
// checks both sides — what the SDK surfaced, and fake-claude's verdict on what the SDK sent
// (its JSON report; fake-claude exits 1 on a mismatch, which query() reports as ProcessError).
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "claude/sdk/client.hpp"
#include "claude/sdk/query.hpp"

namespace claude::sdk {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

class SdkIntegrationTest : public ::testing::Test {
 protected:
  Options options_for(const std::string& scenario) {
    report = fs::temp_directory_path() /
             ("sdk-it-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
    fs::remove(report);
    Options o;
    o.cli_path = FAKE_CLAUDE_PATH;
    o.cli_prefix_args = {"--scenario", std::string(SDK_SCENARIO_DIR) + "/" + scenario};
    o.env["FAKE_CLAUDE_REPORT"] = report.string();
    o.initialize_timeout = 10s;
    o.control_timeout = 10s;
    o.message_inactivity_timeout = 20s;
    o.on_stderr = [this](std::string_view line) { stderr_lines.emplace_back(line); };
    return o;
  }
  // fake-claude's verdict, for the failure message.
  std::string verdict() const {
    std::ifstream in(report);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.empty() ? "(no report)" : text;
  }
  void TearDown() override { fs::remove(report); }

  fs::path report;
  std::vector<std::string> stderr_lines;
};

std::string text_of(const std::vector<Message>& messages) {
  std::string out;
  for (const auto& m : messages)
    if (const auto* a = m.get_if<AssistantMessage>())
      for (const auto& b : a->content) out += b.text;
  return out;
}

TEST_F(SdkIntegrationTest, QueryWithoutCallbacksClosesStdinAfterThePromptAndEndsCleanly) {
  Options o = options_for("query-basic.ndjson");
  std::vector<Message> messages;
  try {
    messages = query("What is 2+2?", o).collect();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_TRUE(messages[0].get_if<SystemMessage>()->init.has_value());
  EXPECT_EQ(text_of(messages), "4");
  EXPECT_EQ(messages[2].get_if<ResultMessage>()->total_cost_usd, 0.0025);
}

TEST_F(SdkIntegrationTest, PermissionCallbackAnswersAndStdinStaysOpenUntilIdle) {
  Options o = options_for("permission-allow.ndjson");
  std::atomic<int> calls{0};
  o.can_use_tool = [&](const ToolPermissionRequest& r, const CancelToken&) {
    ++calls;
    if (r.input.value("command", "") == "rm -rf /") return PermissionDecision::denied("dangerous");
    return PermissionDecision::allowed();
  };
  try {
    auto messages = query("touch it", o).collect();
    EXPECT_EQ(messages.size(), 3u) << "the idle frame is sdk_host_only and must be filtered";
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
  EXPECT_EQ(calls.load(), 2);
}

TEST_F(SdkIntegrationTest, HookCallbacksRunConcurrentlyAndUnknownIdsGetAnError) {
  Options o = options_for("hooks.ndjson");
  std::atomic<bool> second_done{false};
  o.hooks[HookEvent::PreToolUse] = {
      HookMatcher{"Bash",
                  {[&](const HookInput&, const CancelToken& c) -> HookOutput {
                     // Answers only after the second callback has: proves they run at the same
                     // time.
                     for (int i = 0; i < 500 && !second_done; ++i) c.wait_for(10ms);
                     return {.specific = PreToolUseOutput{.decision = HookPermission::allow}};
                   },
                   [&](const HookInput& in, const CancelToken&) -> HookOutput {
                     const auto* tool = in.get_if<PreToolUseInput>();
                     EXPECT_TRUE(tool && tool->tool_input["command"] == "ls");
                     second_done = true;
                     return {.system_message = "second"};
                   }},
                  std::nullopt}};
  try {
    query("run ls", o).collect();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
  EXPECT_TRUE(second_done.load());
}

std::shared_ptr<McpServer> calculator() {
  auto s = std::make_shared<McpServer>("calc");
  s->add_tool({"add",
               "Adds a and b",
               {{"type", "object"},
                {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}}},
               [](const json& args) {
                 return McpToolResult::text(
                     std::to_string(args.at("a").get<int>() + args.at("b").get<int>()));
               }});
  return s;
}

TEST_F(SdkIntegrationTest, InProcessMcpServerInPythonStyleAnswersTheHandshakeAndCalls) {
  Options o = options_for("mcp-python-style.ndjson");
  o.sdk_mcp_servers = {calculator()};
  o.sdk_mcp_style = SdkMcpStyle::mcp_config;
  try {
    query("add", o).collect();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
}

TEST_F(SdkIntegrationTest, InProcessMcpServerInTsStyleSendsManifestsInInitialize) {
  Options o = options_for("mcp-ts-style.ndjson");
  o.sdk_mcp_servers = {calculator()};
  try {
    query("add", o).collect();
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
}

TEST_F(SdkIntegrationTest, ErrorResultWithExitOneIsResultErrorCarryingTheResult) {
  Options o = options_for("error-result.ndjson");
  auto q = query("loop", o);
  std::size_t seen = 0;
  try {
    while (q.next()) ++seen;
    FAIL() << "no ResultError\n" << verdict();
  } catch (const ResultError& e) {
    EXPECT_EQ(e.result().subtype, "error_max_turns");
    EXPECT_EQ(e.exit_code(), 1);
    EXPECT_NE(e.stderr_tail().find("max turns reached"), std::string::npos);
  }
  EXPECT_EQ(seen, 2u);
}

TEST_F(SdkIntegrationTest, CliCrashFailsThePendingControlCallAtOnce) {
  Options o = options_for("crash-mid-request.ndjson");
  Client client(o);
  client.connect();
  client.query("status");
  auto begin = std::chrono::steady_clock::now();
  EXPECT_THROW(client.mcp_status(), ProcessError);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 5s);
  try {
    while (client.receive_message()) {
    }
    FAIL() << "the message stream ended without an error";
  } catch (const ProcessError& e) {
    EXPECT_EQ(e.status().term_signal, 9);
    EXPECT_NE(e.stderr_tail().find("simulated crash"), std::string::npos);
  }
}

TEST_F(SdkIntegrationTest, ClientRunsTwoTurnsWithControlCallsOnOneProcess) {
  Options o = options_for("client-two-turns.ndjson");
  Client client(o);
  try {
    client.connect();
    client.query("first");
    auto first = client.receive_response().collect();
    EXPECT_EQ(text_of(first), "one");
    EXPECT_EQ(client.set_model("claude-other").raw, (json{{"model", "claude-other"}}));
    try {
      client.get_context_usage();
      ADD_FAILURE() << "error reply not raised";
    } catch (const ControlError& e) {
      EXPECT_EQ(e.error(), "not available here");
    }
    client.query("second");
    auto second = client.receive_response().collect();
    EXPECT_EQ(text_of(second), "two");
    client.end_input();
    EXPECT_FALSE(client.receive_message());
  } catch (const std::exception& e) {
    FAIL() << e.what() << "\n" << verdict();
  }
}

TEST_F(SdkIntegrationTest, DisconnectEndsACliThatNeverExits) {
  Options o = options_for("cli-hangs.ndjson");
  o.close_grace = 200ms;
  o.term_wait = 1s;
  Client client(o);
  client.connect();
  client.query("hi");
  auto turn = client.receive_response().collect();
  ASSERT_FALSE(turn.empty());
  auto begin = std::chrono::steady_clock::now();
  client.disconnect();
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 3s);
  EXPECT_FALSE(client.receive_message()) << "a close we asked for is not an error";
}

TEST_F(SdkIntegrationTest, MissingCliIsCliNotFoundError) {
  Options o;
  o.cli_path = "/nonexistent/claude";
  EXPECT_THROW(query("hi", o), CLINotFoundError);
}

}  // namespace
}  // namespace claude::sdk
