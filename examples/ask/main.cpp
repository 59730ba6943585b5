// claude-sdk-ask PROMPT: one-shot query(); prints the answer and what it cost.
//
// Exit codes: 0 answered, 1 the run ended with an error result, 2 usage, 3 the CLI could not be
// found or misbehaved (crash, non-zero exit, timeout). CLAUDE_CLI_PATH overrides discovery.
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <string_view>

#include "claude/sdk/errors.hpp"
#include "claude/sdk/query.hpp"

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) == "--help") {
    std::cerr << "usage: claude-sdk-ask PROMPT\n"
                 "Sends PROMPT to Claude Code and prints the answer and its cost.\n"
                 "env: CLAUDE_CLI_PATH  the claude executable (default: discovery)\n"
                 "exit: 0 answered, 1 error result, 2 usage, 3 CLI not found or misbehaved\n";
    return argc == 2 ? 0 : 2;
  }
  claude::sdk::Options options;
  if (const char* cli = std::getenv("CLAUDE_CLI_PATH")) options.cli_path = cli;
  try {
    auto run = claude::sdk::query(argv[1], options);
    while (auto message = run.next()) {
      if (const auto* a = message->get_if<claude::sdk::AssistantMessage>()) {
        for (const auto& block : a->content)
          if (block.kind == claude::sdk::ContentBlock::Kind::text) std::cout << block.text;
      } else if (const auto* r = message->get_if<claude::sdk::ResultMessage>()) {
        std::cout << "\n";
        std::cerr << "cost: $" << std::fixed << std::setprecision(4)
                  << r->total_cost_usd.value_or(0.0) << ", " << r->num_turns << " turn(s), "
                  << r->duration_ms << " ms\n";
        if (r->is_error) return 1;
      }
    }
    return 0;
  } catch (const claude::sdk::ResultError& e) {
    std::cerr << "claude-sdk-ask: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "claude-sdk-ask: " << e.what() << "\n";
    return 3;
  }
}
