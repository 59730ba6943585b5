// ask_once PROMPT: sends PROMPT through claude::sdk::query() to the `claude` found on PATH and
// prints the answer. Exit 0 when the run ended with a successful result, 1 otherwise, 2 on usage.
#include <claude/sdk/query.hpp>
#include <exception>
#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) == "--help") {
    std::cerr << "usage: ask_once PROMPT\n";
    return 2;
  }
  try {
    auto run = claude::sdk::query(argv[1]);
    bool answered = false;
    while (auto message = run.next()) {
      if (const auto* result = message->get_if<claude::sdk::ResultMessage>()) {
        std::cout << "result: " << result->result.value_or("") << '\n';
        answered = !result->is_error;
      }
    }
    return answered ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "ask_once: " << e.what() << '\n';
    return 1;
  }
}
