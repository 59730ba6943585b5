// claude-sdk-tools PROMPT: a query with an in-process MCP tool and a PreToolUse hook.
//
// The tool `mcp__units__convert` (server "units") converts kilometres to miles in this process;
// the hook denies any Bash command that contains "rm " before it can run. Prints the answer.
//
// Exit codes: 0 answered, 1 error result, 2 usage, 3 the CLI could not be found or misbehaved.
// CLAUDE_CLI_PATH overrides discovery.
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>

#include "claude/sdk/errors.hpp"
#include "claude/sdk/query.hpp"

namespace sdk = claude::sdk;
using nlohmann::json;

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) == "--help") {
    std::cerr << "usage: claude-sdk-tools PROMPT\n"
                 "Query with an in-process MCP tool (units.convert) and a PreToolUse hook.\n"
                 "env: CLAUDE_CLI_PATH  the claude executable (default: discovery)\n"
                 "exit: 0 answered, 1 error result, 2 usage, 3 CLI not found or misbehaved\n";
    return argc == 2 ? 0 : 2;
  }
  auto units = std::make_shared<sdk::McpServer>("units");
  units->add_tool(
      {"convert",
       "Converts kilometres to miles",
       {{"type", "object"}, {"properties", {{"km", {{"type", "number"}}}}}, {"required", {"km"}}},
       [](const json& args) {
         double km = args.at("km").get<double>();
         return sdk::McpToolResult::text(std::to_string(km * 0.621371) + " miles");
       }});
  sdk::Options options;
  if (const char* cli = std::getenv("CLAUDE_CLI_PATH")) options.cli_path = cli;
  options.sdk_mcp_servers = {units};
  options.allowed_tools = {"mcp__units__convert"};
  options.hooks[sdk::HookEvent::PreToolUse] = {
      {.matcher = "Bash",
       .callbacks = {[](const sdk::HookInput& in, const sdk::CancelToken&) -> sdk::HookOutput {
         const auto* tool = in.get_if<sdk::PreToolUseInput>();
         if (!tool || tool->tool_input.value("command", "").find("rm ") == std::string::npos)
           return {};
         return {.specific = sdk::PreToolUseOutput{.decision = sdk::HookPermission::deny,
                                                   .reason = "rm is not allowed here"}};
       }}}};
  try {
    auto run = sdk::query(argv[1], options);
    while (auto message = run.next()) {
      if (const auto* r = message->get_if<sdk::ResultMessage>()) {
        std::cout << r->result.value_or("") << "\n";
        if (r->is_error) return 1;
      }
    }
    return 0;
  } catch (const sdk::ResultError& e) {
    std::cerr << "claude-sdk-tools: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "claude-sdk-tools: " << e.what() << "\n";
    return 3;
  }
}
