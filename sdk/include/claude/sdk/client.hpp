// Client: a multi-turn conversation with one CLI process.
//
// What it is: `connect()` starts the CLI (or the given transport) and runs `initialize`; then
// any number of turns: `query(prompt)` writes a user message and `receive_response()` returns the
// turn's messages up to and including its `result`. Control calls (`interrupt`, `set_model`, …)
// may be made at any time, from any thread. `disconnect()` (also run by the destructor) closes
// stdin, waits the grace period, then SIGTERM, then SIGKILL, and reaps the process.
//
// Threading model: callbacks from Options (can_use_tool, hooks, MCP tools) run on the engine's
// threads, concurrently with each other and with the host's threads; they may block (the engine
// starts another reader) and should watch their CancelToken. `receive_*` are for one consumer
// thread. Control calls, `query` and `send_control_request` are thread-safe. `on_stderr` runs on
// the transport's stderr thread.
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
// of lines (2 MiB by default); then it stops reading until `receive_*` has taken half of them,
// so the CLI's stdout pipe fills and the CLI waits. A consumer that stops calling `receive_*`
// therefore stalls the CLI; `disconnect()` and the destructor always end it. While one of our
// control requests awaits its answer (from any thread: `interrupt()` from the consumer thread
// included) the reader does not stop, since the answer is behind the queued lines; nor while
// `query`/`send_message`/a control call is writing (a CLI blocked on its stdout may not read its
// stdin). The queue may then exceed the cap by what the CLI sends meanwhile.
// `message_queue_stats()` shows it.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "claude/sdk/control_protocol.hpp"
#include "claude/sdk/message.hpp"
#include "claude/sdk/message_queue_stats.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk {

namespace client {
class Session;
}

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
  // The current turn's messages, up to and including its `result`.
  std::vector<Message> receive_response();
  // The unread-message queue's counters (thread-safe).
  [[nodiscard]] MessageQueueStats message_queue_stats() const;

  // Control requests (docs/protocol.md §6); each returns the answer's payload.
  nlohmann::json interrupt();
  nlohmann::json set_permission_mode(std::string_view mode);
  nlohmann::json set_model(std::optional<std::string> model);
  nlohmann::json rewind_files(std::string_view user_message_id, bool dry_run = false);
  nlohmann::json mcp_status();
  nlohmann::json get_context_usage();
  nlohmann::json stop_task(std::string_view task_id);
  nlohmann::json mcp_reconnect(std::string_view server_name);
  nlohmann::json mcp_toggle(std::string_view server_name, bool enabled);
  nlohmann::json background_tasks(std::optional<std::string> tool_use_id = std::nullopt);
  // Any subtype; `payload` holds the fields besides `subtype`. Cancel with the handle.
  PendingControl send_control_request(std::string_view subtype,
                                      nlohmann::json payload = nlohmann::json::object());

  // EOF on the CLI's stdin; it finishes what it has and exits.
  void end_input();
  void disconnect();

 private:
  std::unique_ptr<client::Session> session_;
};

}  // namespace claude::sdk
