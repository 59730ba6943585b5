// Session: one CLI conversation — transport, control engine, inbound handlers, message queue.
// Client and query() are thin layers over it; they differ only in when stdin is closed.
//
// Message hand-off: the reader (an engine thread) pushes parsed messages into `queue_`, and bulk
// lines (assistant, user, stream_event) unparsed (ControlListener::on_unparsed), which the consumer
// parses as it hands them out: glibc takes the allocating thread's arena lock for every
// cross-thread free, and with the reader allocating while the consumer freed, that lock was
// contended on most rounds. An invalid bulk line ends the session when the consumer reaches it.
// The consumer swaps the whole queue into `taken_` and pops without locking; the vectors trade
// places, so there is no allocation per line. A waiting consumer is woken once per batch
// (on_batch_end) or every `wake_bytes_`, not per message. At Options::max_queued_message_bytes
// the reader waits until the consumer has taken half (backpressure down to the CLI's pipe), but
// never while one of our control requests awaits its answer, nor after close(), and only briefly
// while we write to the CLI's stdin (a CLI blocked on stdout may not read its stdin).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "claude/sdk/options.hpp"
#include "claude/sdk/transport.hpp"
#include "client/message_queue_stats.hpp"
#include "control/control_protocol.hpp"
#include "messages/message_parser.hpp"

namespace claude::sdk::client {

class Session {
 public:
  // `transport` null: a SubprocessTransport built from `options`.
  Session(Options options, std::unique_ptr<Transport> transport);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Starts the CLI and runs `initialize` (waits for its answer).
  void connect();
  // Closes stdin as soon as the run is over (query()): at once when nothing can call back.
  void end_input_at_run_end();
  void end_input();
  void write_user_message(std::string_view text, std::string_view session_id);
  void write_frame(const nlohmann::json& frame);

  // Next message for the user; nullopt at a clean end; throws the end error.
  std::optional<Message> next_message();

  PendingControl send_control(std::string_view subtype, nlohmann::json payload);
  nlohmann::json control(std::string_view subtype, nlohmann::json payload);
  [[nodiscard]] const nlohmann::json& server_info() const { return server_info_; }
  [[nodiscard]] MessageQueueStats queue_stats() const;
  void close();

 private:
  void install_handlers();
  nlohmann::json initialize_request() const;
  // A line the reader passed on unparsed, and what its start said it is.
  struct UnparsedLine {
    InboundLine line;
    std::size_t line_number = 0;
    MessageType type = MessageType::unknown;
  };
  using Queued = std::variant<UnparsedLine, Message>;

  void on_message(Message&& message);
  void on_unparsed(InboundLine&& line, std::size_t line_number, MessageType type);
  void enqueue(Queued&& item, std::size_t bytes);
  void parse_unparsed(UnparsedLine& unparsed, std::optional<Message>& out);
  [[noreturn]] void fail_at(std::size_t line_number, const ParseError& error,
                            std::string_view line);
  void on_batch_end();
  void on_handlers_idle();
  void on_end(std::exception_ptr error);
  void consider_run_end(const Message& message);
  void consider_run_end(MessageType type);
  template <class Write>
  auto writing(std::string_view step, Write&& write);
  bool take_batch();
  void release(std::size_t bytes);
  void wait_for_room(std::unique_lock<std::mutex>& lock);
  bool reader_may_wait();
  bool consumer_owed_wake();

  Options options_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<ControlProtocol> protocol_;
  std::unordered_map<std::string, HookCallback> hook_callbacks_;
  nlohmann::json server_info_ = nlohmann::json::object();
  bool connected_ = false;
  bool closed_ = false;

  mutable std::mutex queue_mutex_;
  std::condition_variable queue_cv_;  // the consumer waits for messages
  std::condition_variable room_cv_;   // the reader waits for room
  std::vector<Queued> queue_;
  std::vector<Queued> taken_;                 // consumer thread only
  std::size_t taken_next_ = 0;                // the next message of taken_ to hand out
  std::optional<MessageParser> parser_;       // consumer thread only: parses unparsed lines
  std::exception_ptr consumer_error_;         // consumer thread only: a bad unparsed line
  std::atomic<std::size_t> queued_bytes_{0};  // line bytes in queue_ and taken_
  std::atomic<bool> reader_waiting_{false};
  std::size_t wake_bytes_;             // wake a waiting consumer mid-batch after this many
  std::size_t unsignalled_bytes_ = 0;  // pushed since the consumer was last woken
  bool unsignalled_ = false;
  bool consumer_waiting_ = false;
  bool abandoned_ = false;  // close() ran, or the consumer failed: the reader never waits again
  bool read_through_writes_ = false;  // a write outlasted kWriteGrace: read on until none
  int writes_in_progress_ = 0;        // ours to the CLI's stdin (see wait_for_room)
  MessageQueueStats stats_;
  bool ended_ = false;
  std::exception_ptr end_error_;

  // Run-end tracking (engine thread only, except the flag).
  std::mutex run_mutex_;
  bool close_at_run_end_ = false;
  bool saw_result_ = false;
  bool reports_state_ = false;
  bool run_over_ = false;  // result seen (and idle, when the CLI reports state), no agents left
  std::set<std::string> agent_tasks_;
};

}  // namespace claude::sdk::client
