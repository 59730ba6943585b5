// McpServer: an in-process MCP server whose tools are C++ functions (docs/protocol.md §7.3).
//
//   auto units = std::make_shared<claude::sdk::McpServer>("units");
//   units->add_tool({.name = "km_to_miles",
//                    .description = "Converts kilometres to miles",
//                    .input_schema = {{"type", "object"},
//                                     {"properties", {{"km", {{"type", "number"}}}}}},
//                    .run = [](const nlohmann::json& args) {
//                      return claude::sdk::McpToolResult::text(
//                          std::to_string(args.at("km").get<double>() * 0.621371));
//                    }});
//   options.sdk_mcp_servers = {units};  // the model calls it as mcp__units__km_to_miles
//
// What it is: the JSON-RPC 2.0 side of an "SDK" MCP server. The CLI reaches it through
// `mcp_message` control requests; `handle()` answers `initialize` (echoing the client's protocol
// version), acknowledges notifications (`notifications/initialized`, `notifications/cancelled`),
// lists tools (`tools/list`, each with its JSON-Schema input) and calls them (`tools/call`).
// `manifest()` gives the handshake results up front for the TS-style `initialize` request
// (`sdkMcpServerManifests`).
//
// How it fails: an unknown tool, or a tool function that throws, gives a normal result with
// `isError: true` and the reason as text (tool errors are results, not protocol errors). An
// unknown method gives JSON-RPC error -32601; a request without a method gives -32600.
//
// Threading: `handle` may run concurrently (the CLI may call several tools at once); tools are
// registered before the session starts and the tool functions must be thread-safe.
// What it costs: one JSON value per call, plus whatever the tool does.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace claude::sdk {

struct McpToolResult {
  nlohmann::json content = nlohmann::json::array();  // MCP content blocks
  bool is_error = false;

  static McpToolResult text(std::string text, bool is_error = false);
};

struct McpTool {
  std::string name;
  std::string description;
  nlohmann::json input_schema = {{"type", "object"}};
  std::function<McpToolResult(const nlohmann::json& arguments)> run;
};

class McpServer {
 public:
  explicit McpServer(std::string name, std::string version = "1.0.0");

  McpServer& add_tool(McpTool tool);
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  [[nodiscard]] const std::vector<McpTool>& tools() const noexcept { return tools_; }

  // Answers one JSON-RPC message; nullopt for notifications (no JSON-RPC reply due).
  [[nodiscard]] std::optional<nlohmann::json> handle(const nlohmann::json& message) const;
  // {"initializeResult":…,"toolsListResult":…} for `sdkMcpServerManifests`.
  [[nodiscard]] nlohmann::json manifest() const;

 private:
  [[nodiscard]] nlohmann::json initialize_result(const std::string& protocol_version) const;
  [[nodiscard]] nlohmann::json tools_list_result() const;
  [[nodiscard]] nlohmann::json call_tool(const nlohmann::json& params) const;

  std::string name_;
  std::string version_;
  std::vector<McpTool> tools_;
};

}  // namespace claude::sdk
