// claude-sdk-chat: a multi-turn REPL on one CLI process. Before a tool runs, it asks on the
// terminal ("Allow Bash: {...}? [y/N]"). The CLI runs in its own process group, so Ctrl-C reaches
// only this program; an empty line or EOF ends the chat.
//
// Threading: the permission callback runs on an SDK engine thread while the main thread waits in
// receive_response(), so reading the terminal there does not race with the prompt reader.
//
// Exit codes: 0 ok, 2 usage, 3 the CLI could not be found or misbehaved. CLAUDE_CLI_PATH
// overrides discovery.
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <string>
#include <string_view>

#include "claude/sdk/client.hpp"

int main(int argc, char** argv) {
  if (argc > 1) {
    std::cerr << "usage: claude-sdk-chat\n"
                 "Multi-turn chat with Claude Code; asks before each tool runs.\n"
                 "env: CLAUDE_CLI_PATH  the claude executable (default: discovery)\n"
                 "exit: 0 ok, 2 usage, 3 CLI not found or misbehaved\n";
    return std::string_view(argv[1]) == "--help" ? 0 : 2;
  }
  std::mutex terminal;
  claude::sdk::Options options;
  if (const char* cli = std::getenv("CLAUDE_CLI_PATH")) options.cli_path = cli;
  options.own_process_group = true;
  options.can_use_tool = [&terminal](const claude::sdk::ToolPermissionRequest& request,
                                     const claude::sdk::CancelToken&) {
    std::lock_guard lock(terminal);
    std::cout << "\nAllow " << request.tool_name << ": " << request.input.dump() << "? [y/N] "
              << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    if (answer == "y" || answer == "Y") return claude::sdk::PermissionDecision::allowed();
    return claude::sdk::PermissionDecision::denied("The user declined.");
  };
  try {
    claude::sdk::Client client(options);
    client.connect();
    for (;;) {
      std::string prompt;
      {
        std::lock_guard lock(terminal);
        std::cout << "\nyou> " << std::flush;
        if (!std::getline(std::cin, prompt) || prompt.empty()) break;
      }
      client.query(prompt);
      for (const auto& message : client.receive_response()) {
        if (const auto* a = message.get_if<claude::sdk::AssistantMessage>()) {
          std::lock_guard lock(terminal);
          for (const auto& block : a->content)
            if (block.kind == claude::sdk::ContentBlock::Kind::text) std::cout << block.text;
          std::cout << std::flush;
        }
      }
    }
    client.disconnect();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "claude-sdk-chat: " << e.what() << "\n";
    return 3;
  }
}
