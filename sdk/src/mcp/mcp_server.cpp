#include "claude/sdk/mcp_server.hpp"

#include "api/json_fields.hpp"

namespace claude::sdk {

using nlohmann::json;

namespace {
// The MCP revision this server speaks when the client names none.
constexpr const char* kDefaultProtocolVersion = "2025-06-18";

json rpc_error(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}
}  // namespace

McpToolResult McpToolResult::text(std::string text, bool is_error) {
  McpToolResult r;
  r.content = json::array({{{"type", "text"}, {"text", std::move(text)}}});
  r.is_error = is_error;
  return r;
}

McpServer::McpServer(std::string name, std::string version)
    : name_(std::move(name)), version_(std::move(version)) {}

McpServer& McpServer::add_tool(McpTool tool) {
  tools_.push_back(std::move(tool));
  return *this;
}

json McpServer::initialize_result(const std::string& protocol_version) const {
  return {{"protocolVersion", protocol_version},
          {"capabilities", {{"tools", json::object()}}},
          {"serverInfo", {{"name", name_}, {"version", version_}}}};
}

json McpServer::tools_list_result() const {
  json tools = json::array();
  for (const auto& t : tools_)
    tools.push_back(
        {{"name", t.name}, {"description", t.description}, {"inputSchema", t.input_schema}});
  return {{"tools", std::move(tools)}};
}

json McpServer::call_tool(const json& params) const {
  std::string name = params.is_object() ? params.value("name", std::string()) : std::string();
  json arguments =
      params.is_object() && params.contains("arguments") ? params["arguments"] : json::object();
  McpToolResult result;
  const McpTool* tool = nullptr;
  for (const auto& t : tools_)
    if (t.name == name) tool = &t;
  if (!tool) {
    result =
        McpToolResult::text("Tool '" + name + "' not found on MCP server '" + name_ + "'", true);
  } else {
    try {
      result = tool->run(arguments);
    } catch (const std::exception& e) {
      result = McpToolResult::text("Tool '" + name + "' failed: " + e.what(), true);
    }
  }
  return {{"content", result.content}, {"isError", result.is_error}};
}

std::optional<json> McpServer::handle(const json& message) const {
  if (!message.is_object()) return rpc_error(nullptr, -32600, "Invalid Request: not an object");
  const bool is_request = message.contains("id") && !message["id"].is_null();
  const json id = message.value("id", json());
  if (!message.contains("method") || !message["method"].is_string()) {
    if (!is_request) return std::nullopt;  // a response or junk without id: nothing to answer
    return rpc_error(id, -32600, "Invalid Request: no method");
  }
  const std::string method = message["method"].get<std::string>();
  if (!is_request) return std::nullopt;  // notifications/* carry no id and get no reply
  const json params = message.value("params", json::object());
  json result;
  if (method == "initialize") {
    result = initialize_result(
        api::Fields(params).string_or("protocolVersion").value_or(kDefaultProtocolVersion));
  } else if (method == "tools/list") {
    result = tools_list_result();
  } else if (method == "tools/call") {
    result = call_tool(params);
  } else if (method == "ping") {
    result = json::object();
  } else {
    return rpc_error(id, -32601, "Method not found: " + method);
  }
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json McpServer::manifest() const {
  return {{"initializeResult", initialize_result(kDefaultProtocolVersion)},
          {"toolsListResult", tools_list_result()}};
}

}  // namespace claude::sdk
