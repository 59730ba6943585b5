// Session: one CLI conversation — transport, control engine, inbound handlers, message queue.
// Client and query() are thin layers over it; they differ only in when stdin is closed.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "claude/sdk/control_protocol.hpp"
#include "claude/sdk/options.hpp"
#include "claude/sdk/transport.hpp"

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
  [[nodiscard]] bool connected() const { return connected_; }
  void close();

 private:
  void install_handlers();
  nlohmann::json initialize_request() const;
  void on_message(Message&& message);
  void on_end(std::exception_ptr error);
  void consider_run_end(const Message& message);

  Options options_;
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<ControlProtocol> protocol_;
  std::unordered_map<std::string, HookCallback> hook_callbacks_;
  nlohmann::json server_info_ = nlohmann::json::object();
  bool connected_ = false;
  bool closed_ = false;

  std::mutex queue_mutex_;
  std::condition_variable queue_cv_;
  std::deque<Message> queue_;
  bool waiting_ = false;
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
