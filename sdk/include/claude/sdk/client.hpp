// Client: a multi-turn conversation with one CLI process.
//
//   Client client({.can_use_tool = [](const ToolPermissionRequest&, const CancelToken&)
//                      -> PermissionDecision { return PermissionAllow{}; }});
//   client.connect();
//   client.query("Summarise README.md");
//   for (const Message& message : client.receive_response())  // ends at the turn's result
//     if (auto* result = message.get_if<ResultMessage>()) std::cout << *result->result;
//   client.set_model("claude-sonnet-4-5");
//   client.interrupt();
//
// What it is: `connect()` starts the CLI (or the given transport) and runs `initialize`; then
// any number of turns: `query(prompt)` writes a user message and `receive_response()` yields the
// turn's messages one by one, up to and including its `result`. Control calls (`interrupt`,
// `set_model`, …) may be made at any time, from any thread, and return the CLI's answer typed
// (with the payload as sent in `raw`). `disconnect()` (also run by the destructor) closes stdin,
// waits the grace period, then SIGTERM, then SIGKILL, and reaps the process.
//
// Threading model: callbacks from Options (can_use_tool, hooks, MCP tools) run concurrently on
// the engine's threads; they may block and should watch their CancelToken. `receive_*` are for
// one consumer thread; control calls and `query` are thread-safe. `on_stderr` runs on the
// transport's stderr thread.
//
// How it fails: `connect()` throws CLINotFoundError, ConnectionError, std::invalid_argument
// (contradictory options), ControlError or TimeoutError (initialize). `receive_*` throw the
// session's end error once its messages are consumed: ProcessError, ResultError,
// MessageParseError, or TimeoutError after `message_inactivity_timeout` without any CLI output
// (paused while a callback is running). Control calls throw ControlError, TimeoutError, or the
// end error when the CLI dies first.
//
// What it costs: one process, one stderr thread, one or more engine threads (one per callback
// running at the same time, plus the reader), and the queue of unread messages.
//
// Memory: the reader reads ahead of the consumer by at most `Options::max_queued_message_bytes`
// (see there); a consumer that stops calling `receive_*` therefore stalls the CLI, and
// `disconnect()` and the destructor always end it.
#pragma once

#include <chrono>
#include <cstdint>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/message.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/pending_control.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk {

namespace client {
class Session;
}
struct MessageQueueStats;  // internal: the session's queue counters, for our tests and benchmarks

// The answer to a control request that reports nothing but success; `raw` is the payload the CLI
// sent (interrupt's `still_queued`, set_model's `model`, …), `{}` or null when it sent none.
struct ControlAck {
  nlohmann::json raw;
};

struct McpServerStatus {
  std::string name;
  std::string status;  // "connected", "failed", "needs-auth", "pending", "disabled", …
  std::optional<std::string> error;
  std::optional<std::string> scope;
  nlohmann::json raw;  // the whole entry (serverInfo, tools, config, …)
};
struct McpStatus {
  std::vector<McpServerStatus> servers;  // `mcpServers`
  nlohmann::json raw;
};

struct RewindFilesResult {
  bool can_rewind = false;
  std::optional<std::string> error;
  std::vector<std::string> files_changed;
  std::int64_t insertions = 0;
  std::int64_t deletions = 0;
  nlohmann::json raw;
};

struct ContextUsageCategory {
  std::string name;
  std::int64_t tokens = 0;
};
struct ContextUsage {
  std::vector<ContextUsageCategory> categories;
  std::int64_t total_tokens = 0;
  std::int64_t max_tokens = 0;
  double percentage = 0;
  std::string model;
  nlohmann::json raw;
};

// One turn's messages, read as they come: an input range (one pass) whose last message is the
// turn's `result` (or the last one before the CLI's output ended). Valid while its Client is;
// throws what `Client::receive_message` throws.
class Turn {
 public:
  class iterator {
   public:
    using value_type = Message;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    Message& operator*() const { return *turn_->current_; }
    Message* operator->() const { return &*turn_->current_; }
    iterator& operator++() {
      turn_->advance();
      return *this;
    }
    void operator++(int) { turn_->advance(); }
    friend bool operator==(const iterator& it, std::default_sentinel_t) { return it.at_end(); }

   private:
    friend class Turn;
    explicit iterator(Turn* turn) : turn_(turn) {}
    [[nodiscard]] bool at_end() const { return !turn_->current_; }
    Turn* turn_ = nullptr;
  };

  [[nodiscard]] iterator begin();
  [[nodiscard]] std::default_sentinel_t end() const noexcept { return {}; }
  // The next message of the turn; nullopt after its result.
  std::optional<Message> next();
  // The rest of the turn.
  std::vector<Message> collect();

 private:
  friend class Client;
  explicit Turn(client::Session& session) : session_(&session) {}
  void advance();

  client::Session* session_;
  std::optional<Message> current_;
  bool started_ = false;
  bool over_ = false;
};

class Client {
 public:
  explicit Client(Options options = {});
  // A custom transport (in-memory, remote); Options' process settings are then unused.
  Client(Options options, std::unique_ptr<Transport> transport);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void connect();
  // The `initialize` answer (commands, models, account, …).
  [[nodiscard]] const nlohmann::json& server_info() const;

  // Starts a turn.
  void query(std::string_view prompt, std::string_view session_id = "default");
  // Writes a frame as is (content blocks, `uuid`, `priority`, …).
  void send_message(const nlohmann::json& frame);
  // Next message; nullopt once the CLI's output is over.
  std::optional<Message> receive_message();
  // The current turn's messages, one by one, up to and including its `result`.
  Turn receive_response();

  // Control requests (docs/protocol.md §6); each waits for the CLI's answer and returns it typed.
  ControlAck interrupt();
  ControlAck set_permission_mode(PermissionMode mode);
  ControlAck set_model(std::optional<std::string> model);
  RewindFilesResult rewind_files(std::string_view user_message_id, bool dry_run = false);
  McpStatus mcp_status();
  ContextUsage get_context_usage();
  ControlAck stop_task(std::string_view task_id);
  ControlAck mcp_reconnect(std::string_view server_name);
  ControlAck mcp_toggle(std::string_view server_name, bool enabled);
  // Open-ended: the answer's payload as sent.
  nlohmann::json background_tasks(std::optional<std::string> tool_use_id = std::nullopt);
  // Any subtype; `payload` holds the fields besides `subtype`. Cancel with the handle.
  PendingControl send_control_request(std::string_view subtype,
                                      nlohmann::json payload = nlohmann::json::object());

  // EOF on the CLI's stdin; it finishes what it has and exits.
  void end_input();
  void disconnect();

 private:
  friend MessageQueueStats message_queue_stats(const Client& client);
  std::unique_ptr<client::Session> session_;
};

}  // namespace claude::sdk
