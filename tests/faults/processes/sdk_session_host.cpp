// sdk_session_host: an SDK process for the fault tests, to be killed mid-session. Connects a
// claude::sdk::Client to CLI (argv[1]) playing SCENARIO (argv[2]), sends one prompt, prints
// "ready" once the first assistant message arrives, then waits for a message that never comes.
#include <iostream>

#include "claude/sdk/client.hpp"
#include "claude/sdk/message.hpp"
#include "claude/sdk/options.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: sdk_session_host CLI SCENARIO\n";
    return 2;
  }
  claude::sdk::Options options;
  options.cli_path = argv[1];
  options.extra_args.emplace_back("scenario", argv[2]);
  claude::sdk::Client client(options);
  client.connect();
  client.query("first");
  while (auto message = client.receive_message()) {
    if (message->type() == claude::sdk::MessageType::assistant) {
      std::cout << "ready" << std::endl;
      break;
    }
  }
  // Killed here by the test.
  while (client.receive_message()) {
  }
  return 0;
}
