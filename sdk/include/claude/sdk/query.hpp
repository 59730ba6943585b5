// query(): one prompt, one run, the messages as they come.
//
//   auto run = claude::sdk::query("What is 2 + 2?", {.model = "claude-sonnet-4-5"});
//   while (auto message = run.next())
//     if (auto* result = message->get_if<claude::sdk::ResultMessage>())
//       std::cout << result->result.value_or("") << "\n";
//
// What it is: the one-shot form. It starts the CLI, runs `initialize`, writes the prompt, and
// returns a `Query` whose `next()` yields every message (system/init, assistant, user, result,
// …; frames the CLI marks `sdk_host_only` are consumed internally) until the CLI exits.
//
// When stdin is closed (docs/protocol.md §8.3): at once after the prompt when nothing can call back
// (no can_use_tool, no hooks, no in-process MCP servers); otherwise only when the run is over —
// at `session_state_changed: idle` after a `result` when the CLI reports its state, else at a
// `result` while no subagent or workflow task is running — so hooks, permission prompts and MCP
// calls can still be answered.
//
// Threading model: as Client (client.hpp). `next()` is for one consumer thread.
//
// How it fails: the constructor-side errors of Client::connect; `next()` throws ResultError when
// the run ended with an error result and a non-zero exit, ProcessError on another non-zero exit
// or a crash, MessageParseError, TimeoutError (inactivity).
//
// What it costs: as Client, memory included: at most `Options::max_queued_message_bytes` of
// lines are read ahead of `next()`, then the CLI waits for the consumer. Destroying a Query
// before the end tears the process down (grace → SIGTERM → SIGKILL), also while the reader waits.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "claude/sdk/message.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk {

namespace client {
class Session;
}
struct MessageQueueStats;  // internal: the session's queue counters, for our tests and benchmarks

class Query {
 public:
  explicit Query(std::unique_ptr<client::Session> session);
  ~Query();
  Query(Query&&) noexcept;
  Query& operator=(Query&&) noexcept;

  // The next message; nullopt after the CLI ended cleanly.
  std::optional<Message> next();
  // Every remaining message.
  std::vector<Message> collect();

 private:
  friend MessageQueueStats message_queue_stats(const Query& query);
  std::unique_ptr<client::Session> session_;
};

Query query(std::string_view prompt, Options options = {});
Query query(std::string_view prompt, Options options, std::unique_ptr<Transport> transport);

}  // namespace claude::sdk
