#include "claude/sdk/client.hpp"

#include "api/control_results.hpp"
#include "client/session.hpp"

namespace claude::sdk {

using nlohmann::json;

Client::Client(Options options)
    : session_(std::make_unique<client::Session>(std::move(options), nullptr)) {}

Client::Client(Options options, std::unique_ptr<Transport> transport)
    : session_(std::make_unique<client::Session>(std::move(options), std::move(transport))) {}

Client::~Client() = default;

void Client::connect() {
  session_->connect();
}
const json& Client::server_info() const {
  return session_->server_info();
}

void Client::query(std::string_view prompt, std::string_view session_id) {
  session_->write_user_message(prompt, session_id);
}

void Client::send_message(const json& frame) {
  session_->write_frame(frame);
}

std::optional<Message> Client::receive_message() {
  return session_->next_message();
}

Turn Client::receive_response() {
  return Turn(*session_);
}

Turn::iterator Turn::begin() {
  if (!started_) advance();
  return iterator(this);
}

void Turn::advance() {
  started_ = true;
  current_ = next();
}

std::optional<Message> Turn::next() {
  if (over_) return std::nullopt;
  auto message = session_->next_message();
  if (!message || message->is<ResultMessage>()) over_ = true;
  return message;
}

std::vector<Message> Turn::collect() {
  std::vector<Message> out;
  if (started_ && current_) out.push_back(std::move(*current_));
  started_ = true;
  current_.reset();
  while (auto m = next()) out.push_back(std::move(*m));
  return out;
}

MessageQueueStats message_queue_stats(const Client& client) {
  return client.session_->queue_stats();
}

ControlAck Client::interrupt() {
  return {session_->control("interrupt", json::object())};
}
ControlAck Client::set_permission_mode(PermissionMode mode) {
  return {session_->control("set_permission_mode", {{"mode", to_string(mode)}})};
}
ControlAck Client::set_model(std::optional<std::string> model) {
  return {session_->control("set_model", {{"model", model ? json(*model) : json()}})};
}
RewindFilesResult Client::rewind_files(std::string_view user_message_id, bool dry_run) {
  json payload = {{"user_message_id", user_message_id}};
  if (dry_run) payload["dry_run"] = true;
  return api::rewind_files_result_from(session_->control("rewind_files", std::move(payload)));
}
McpStatus Client::mcp_status() {
  return api::mcp_status_from(session_->control("mcp_status", json::object()));
}
ContextUsage Client::get_context_usage() {
  return api::context_usage_from(session_->control("get_context_usage", json::object()));
}
ControlAck Client::stop_task(std::string_view task_id) {
  return {session_->control("stop_task", {{"task_id", task_id}})};
}
ControlAck Client::mcp_reconnect(std::string_view server_name) {
  return {session_->control("mcp_reconnect", {{"serverName", server_name}})};
}
ControlAck Client::mcp_toggle(std::string_view server_name, bool enabled) {
  return {session_->control("mcp_toggle", {{"serverName", server_name}, {"enabled", enabled}})};
}
json Client::background_tasks(std::optional<std::string> tool_use_id) {
  json payload = json::object();
  if (tool_use_id) payload["tool_use_id"] = *tool_use_id;
  return session_->control("background_tasks", std::move(payload));
}
PendingControl Client::send_control_request(std::string_view subtype, json payload) {
  return session_->send_control(subtype, std::move(payload));
}

void Client::end_input() {
  session_->end_input();
}
void Client::disconnect() {
  session_->close();
}

}  // namespace claude::sdk
