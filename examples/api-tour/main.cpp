// api-tour: the C++ SDK in one program. A query; then a Client with a permission callback, a
// hook and an in-process MCP tool, `set_model` and `interrupt`. It runs whatever `claude` is on
// PATH; its test replays scenarios/tour.ndjson through fake-claude (tests/install/).
#include <claude/sdk/client.hpp>
#include <claude/sdk/query.hpp>
#include <iostream>

namespace sdk = claude::sdk;

int main() try {
  for (auto run = sdk::query("What is 2 + 2?"); auto m = run.next();)
    if (auto* result = m->get_if<sdk::ResultMessage>())
      std::cout << result->result.value_or("") << "\n";

  auto units = std::make_shared<sdk::McpServer>("units");
  units->add_tool(
      {.name = "km_to_miles",
       .description = "Converts kilometres to miles",
       .input_schema = {{"type", "object"}, {"properties", {{"km", {{"type", "number"}}}}}},
       .run = [](const nlohmann::json& args) {
         return sdk::McpToolResult::text(std::to_string(args["km"].get<double>() * 0.621371));
       }});
  sdk::Client client(
      {.can_use_tool = [](const sdk::ToolPermissionRequest& request,
                          const sdk::CancelToken&) -> sdk::PermissionDecision {
         if (request.tool_name == "Bash") return sdk::PermissionDeny{.message = "no shell here"};
         return sdk::PermissionAllow{};
       },
       .hooks = {{sdk::HookEvent::PreToolUse,
                  {{.callbacks = {[](const sdk::HookInput& in, const sdk::CancelToken&) {
                      std::cout << "hook: " << in.get_if<sdk::PreToolUseInput>()->tool_name << "\n";
                      return sdk::HookOutput{};
                    }}}}}},
       .sdk_mcp_servers = {units}});
  client.connect();
  client.query("Convert 5 km to miles");
  for (const sdk::Message& m : client.receive_response())
    if (auto* result = m.get_if<sdk::ResultMessage>())
      std::cout << result->result.value_or("") << "\n";
  client.set_model("claude-fake-2");
  client.query("Count to a million");
  for (const sdk::Message& m : client.receive_response())
    if (m.is<sdk::AssistantMessage>()) client.interrupt();
  client.disconnect();
} catch (const std::exception& e) {
  std::cerr << "api-tour: " << e.what() << "\n";
  return 1;
}
