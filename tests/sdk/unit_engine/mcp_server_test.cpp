// The in-process MCP server's JSON-RPC answers.
#include "claude/sdk/mcp_server.hpp"

#include <gtest/gtest.h>

namespace claude::sdk {
namespace {

using nlohmann::json;

McpServer calculator() {
  McpServer s("calc", "2.0.0");
  s.add_tool({"add",
              "Adds two numbers",
              {{"type", "object"},
               {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}}},
              [](const json& args) {
                return McpToolResult::text(
                    std::to_string(args.at("a").get<int>() + args.at("b").get<int>()));
              }});
  s.add_tool({"fail", "Always throws", {{"type", "object"}}, [](const json&) -> McpToolResult {
                throw std::runtime_error("disk on fire");
              }});
  return s;
}

TEST(McpServerTest, InitializeEchoesTheClientProtocolVersionAndNamesTheServer) {
  auto r = calculator().handle({{"jsonrpc", "2.0"},
                                {"id", 1},
                                {"method", "initialize"},
                                {"params", {{"protocolVersion", "2024-11-05"}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["id"], 1);
  EXPECT_EQ((*r)["result"]["protocolVersion"], "2024-11-05");
  EXPECT_EQ((*r)["result"]["serverInfo"], (json{{"name", "calc"}, {"version", "2.0.0"}}));
  EXPECT_TRUE((*r)["result"]["capabilities"].contains("tools"));
}

TEST(McpServerTest, NotificationsGetNoReply) {
  EXPECT_FALSE(calculator().handle({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}));
  EXPECT_FALSE(calculator().handle(
      {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 3}}}}));
}

TEST(McpServerTest, ToolsListCarriesEachInputSchema) {
  auto r = calculator().handle({{"jsonrpc", "2.0"}, {"id", "x"}, {"method", "tools/list"}});
  ASSERT_TRUE(r);
  const json& tools = (*r)["result"]["tools"];
  ASSERT_EQ(tools.size(), 2u);
  EXPECT_EQ(tools[0]["name"], "add");
  EXPECT_EQ(tools[0]["inputSchema"]["properties"]["a"]["type"], "number");
}

TEST(McpServerTest, ToolsCallRunsTheFunction) {
  auto r =
      calculator().handle({{"jsonrpc", "2.0"},
                           {"id", 2},
                           {"method", "tools/call"},
                           {"params", {{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3}}}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["content"][0]["text"], "5");
  EXPECT_EQ((*r)["result"]["isError"], false);
}

TEST(McpServerTest, UnknownToolIsAnIsErrorResult) {
  auto r = calculator().handle(
      {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", {{"name", "mul"}}}});
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->contains("error"));
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE((*r)["result"]["content"][0]["text"].get<std::string>().find("mul"), std::string::npos);
}

TEST(McpServerTest, ThrowingToolIsAnIsErrorResultWithTheReason) {
  auto r = calculator().handle(
      {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/call"}, {"params", {{"name", "fail"}}}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["result"]["isError"], true);
  EXPECT_NE((*r)["result"]["content"][0]["text"].get<std::string>().find("disk on fire"),
            std::string::npos);
}

TEST(McpServerTest, UnknownMethodIsJsonRpcMethodNotFound) {
  auto r = calculator().handle({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "resources/list"}});
  ASSERT_TRUE(r);
  EXPECT_EQ((*r)["error"]["code"], -32601);
}

TEST(McpServerTest, ManifestHoldsBothHandshakeResults) {
  json m = calculator().manifest();
  EXPECT_EQ(m["initializeResult"]["serverInfo"]["name"], "calc");
  EXPECT_EQ(m["toolsListResult"]["tools"].size(), 2u);
}

}  // namespace
}  // namespace claude::sdk
