// Client::receive_response(): a turn consumed message by message, ending at its result.
#include <gtest/gtest.h>

#include "claude/sdk/client.hpp"
#include "scripted_cli.hpp"

namespace claude::sdk {
namespace {

using namespace testing;

TEST(Turn, YieldsEachMessageBeforeTheNextArrivesAndEndsAtTheResult) {
  auto slot = std::make_shared<InMemoryTransport*>(nullptr);
  auto owned = answering_initialize(slot);
  InMemoryTransport& cli = *owned;
  Client client(Options{}, std::move(owned));
  client.connect();
  client.query("hello");
  cli.push_json(assistant_line("one"));
  std::vector<std::string> seen;
  for (const Message& message : client.receive_response()) {
    seen.emplace_back(message.type_name());
    // Only now does the CLI finish the turn: the first message was handed out on its own.
    if (seen.size() == 1) {
      cli.push_json(result_line());
      cli.push_json(assistant_line("next turn"));
    }
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"assistant", "result"}));
  auto after = client.receive_message();
  ASSERT_TRUE(after);
  EXPECT_EQ(after->get_if<AssistantMessage>()->content[0].text, "next turn");
}

TEST(Turn, EndsWhenTheOutputEndsWithoutAResult) {
  auto slot = std::make_shared<InMemoryTransport*>(nullptr);
  auto owned = answering_initialize(slot);
  InMemoryTransport& cli = *owned;
  Client client(Options{}, std::move(owned));
  client.connect();
  cli.push_json(assistant_line("one"));
  cli.finish(ExitStatus{.exit_code = 0});
  auto turn = client.receive_response();
  EXPECT_TRUE(turn.next());
  EXPECT_FALSE(turn.next());
  EXPECT_FALSE(turn.next()) << "an ended turn stays ended";
}

}  // namespace
}  // namespace claude::sdk
