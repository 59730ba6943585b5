#include "claude/sdk/query.hpp"

#include "client/session.hpp"

namespace claude::sdk {

Query::Query(std::unique_ptr<client::Session> session) : session_(std::move(session)) {}
Query::~Query() = default;
Query::Query(Query&&) noexcept = default;
Query& Query::operator=(Query&&) noexcept = default;

std::optional<Message> Query::next() {
  if (!session_) return std::nullopt;
  return session_->next_message();
}

std::vector<Message> Query::collect() {
  std::vector<Message> out;
  while (auto m = next()) out.push_back(std::move(*m));
  return out;
}

MessageQueueStats message_queue_stats(const Query& query) {
  return query.session_ ? query.session_->queue_stats() : MessageQueueStats{};
}

Query query(std::string_view prompt, Options options) {
  return query(prompt, std::move(options), nullptr);
}

Query query(std::string_view prompt, Options options, std::unique_ptr<Transport> transport) {
  auto session = std::make_unique<client::Session>(std::move(options), std::move(transport));
  session->connect();
  session->write_user_message(prompt, "");
  session->end_input_at_run_end();
  return Query(std::move(session));
}

}  // namespace claude::sdk
