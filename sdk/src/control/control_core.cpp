#include "control/control_core.hpp"

#include "messages/frame_writer.hpp"
#include "messages/leading_type.hpp"

namespace claude::sdk::control {

using nlohmann::json;

namespace {

// The type of a line the consumer parses (assistant, user, stream_event), when its start says so
// with certainty; nullopt for every other line, which the core parses itself.
std::optional<MessageType> bulk_type(std::string_view text) {
  const std::optional<std::string_view> type = detail::leading_type(text);
  if (!type) return std::nullopt;
  if (*type == "stream_event") return MessageType::stream_event;
  if (*type == "assistant") return MessageType::assistant;
  if (*type == "user") return MessageType::user;
  return std::nullopt;
}

std::string describe(const std::string& subtype, const std::string& request_id) {
  return "control request " + subtype + " (request_id " + request_id + ")";
}

}  // namespace

ControlCore::ControlCore(CoreConfig config, TimePoint now)
    : config_(std::move(config)), last_activity_(now) {}

// ---- from the CLI ------------------------------------------------------------------------------

void ControlCore::feed_line(InboundLine&& line, TimePoint now) {
  ++line_number_;
  last_activity_ = now;
  if (fatal_) return;  // the driver drains the rest so the CLI never blocks on a full pipe
  if (line.oversized) {
    fail(std::make_exception_ptr(
        MessageParseError(line_number_, line.size, config_.max_line_bytes)));
    return;
  }
  const std::string_view text = line.view();
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos || text[first] != '{') {
    events_.emplace_back(event::Noise{std::string(text)});
    return;
  }
  if (config_.pass_bulk_unparsed) {
    if (const std::optional<MessageType> bulk = bulk_type(text)) {
      events_.emplace_back(event::Unparsed{std::move(line), line_number_, *bulk});
      return;
    }
  }
  ParseResult parsed = parser_.parse_moving(std::move(line.text));
  if (auto* err = std::get_if<ParseError>(&parsed)) {
    if (line.partial) {
      // A truncated last line (the CLI died mid-write) is not a frame; keep it visible.
      events_.emplace_back(event::Noise{std::string(line.view())});
    } else {
      fail(
          std::make_exception_ptr(MessageParseError(*err, line_number_, std::string(line.view()))));
    }
    return;
  }
  route(std::move(std::get<Message>(parsed)));
}

void ControlCore::route(Message&& message) {
  if (const auto* response = message.get_if<ControlResponse>()) {
    resolve(*response);
    return;
  }
  if (const auto* cancel = message.get_if<ControlCancelRequest>()) {
    auto it = inbound_.find(cancel->request_id);
    if (it != inbound_.end() && !it->second) {
      it->second = true;
      events_.emplace_back(event::Cancel{cancel->request_id});
    }
    return;
  }
  if (const auto* request = message.get_if<ControlRequest>()) {
    if (!config_.handled_subtypes.contains(request->subtype)) {
      frames_.push_back(control_error_frame(
          request->request_id, "Unsupported control request subtype: " + request->subtype,
          "unsupported_request"));
      return;
    }
    // A repeated id while the first is still being handled is the same request again.
    if (!inbound_.emplace(request->request_id, false).second) return;
    events_.emplace_back(std::in_place_type<event::Request>, std::move(message).take_body());
    return;
  }
  if (const auto* result = message.get_if<ResultMessage>()) last_result_ = *result;
  events_.emplace_back(event::Data{std::move(message)});
}

void ControlCore::resolve(const ControlResponse& response) {
  auto it = pending_.find(response.request_id);
  if (it == pending_.end()) return;  // late, cancelled or never ours
  const std::string subtype = std::move(it->second.subtype);
  pending_.erase(it);
  if (response.success) {
    json payload = response.response.present() ? response.response.value() : json::object();
    events_.emplace_back(event::Outcome{response.request_id, std::move(payload), nullptr});
  } else {
    events_.emplace_back(
        event::Outcome{response.request_id, nullptr,
                       std::make_exception_ptr(ControlError(subtype, response.request_id,
                                                            response.error, response.error_code))});
  }
}

void ControlCore::feed_end(const StreamEnd& end) {
  if (ended_) return;
  end_stderr_tail_ = end.stderr_tail;
  end_session(classify(end), end);
}

void ControlCore::fail(const std::exception_ptr& error) {
  fatal_ = true;
  if (!ended_) end_session(error, StreamEnd{});
}

std::exception_ptr ControlCore::classify(const StreamEnd& end) const {
  if (end.status.ended_by_host) return nullptr;
  if (!end.error.empty())
    return std::make_exception_ptr(
        ConnectionError("reading the CLI's stdout failed: " + end.error, end.stderr_tail));
  if (!end.status.known() || end.status.exit_code == 0) return nullptr;
  if (end.status.exit_code && last_result_ && last_result_->is_error)
    return std::make_exception_ptr(ResultError(*last_result_, end.status, end.stderr_tail));
  return std::make_exception_ptr(
      ProcessError("the Claude Code CLI ended unexpectedly", end.status, end.stderr_tail));
}

std::exception_ptr ControlCore::pending_end_error(const std::string& request_id,
                                                  const std::string& subtype) const {
  if (end_error_) return end_error_;
  return std::make_exception_ptr(ConnectionError(
      "the CLI's stream ended before it answered " + subtype + " (request_id " + request_id + ")",
      end_stderr_tail_));
}

void ControlCore::end_session(std::exception_ptr error, const StreamEnd& end) {
  ended_ = true;
  end_error_ = std::move(error);
  for (auto& [id, pending] : pending_)
    events_.emplace_back(event::Outcome{id, nullptr, pending_end_error(id, pending.subtype)});
  pending_.clear();
  for (auto& [id, cancelled] : inbound_) {
    if (cancelled) continue;
    cancelled = true;
    events_.emplace_back(event::Cancel{id});
  }
  events_.emplace_back(event::End{end_error_, end});
}

// ---- time --------------------------------------------------------------------------------------

void ControlCore::advance(TimePoint now) {
  for (auto it = pending_.begin(); it != pending_.end();) {
    const Pending& p = it->second;
    if (!p.deadline || *p.deadline > now) {
      ++it;
      continue;
    }
    frames_.push_back(control_cancel_frame(it->first));
    events_.emplace_back(
        event::Outcome{it->first, nullptr,
                       std::make_exception_ptr(
                           TimeoutError(describe(p.subtype, it->first) + " got no answer within " +
                                        std::to_string(p.timeout.count()) + " ms"))});
    it = pending_.erase(it);
  }
}

std::optional<TimePoint> ControlCore::next_deadline() const {
  std::optional<TimePoint> next;
  for (const auto& [id, p] : pending_)
    if (p.deadline && (!next || *p.deadline < *next)) next = p.deadline;
  return next;
}

// ---- from the user side ------------------------------------------------------------------------

std::string ControlCore::start_request(std::string_view subtype, json payload,
                                       std::optional<std::chrono::milliseconds> timeout,
                                       TimePoint now) {
  std::string id = "req_" + std::to_string(next_id_++) + "_" + config_.id_salt;
  if (ended_) {
    events_.emplace_back(event::Outcome{id, nullptr, pending_end_error(id, std::string(subtype))});
    return id;
  }
  Pending p{std::string(subtype), std::nullopt, timeout.value_or(config_.request_timeout)};
  if (p.timeout.count() > 0) p.deadline = now + p.timeout;
  json request = payload.is_object() ? std::move(payload) : json::object();
  request["subtype"] = subtype;
  frames_.push_back(control_request_frame(id, request));
  pending_.emplace(id, std::move(p));
  return id;
}

void ControlCore::cancel_request(const std::string& request_id) {
  auto it = pending_.find(request_id);
  if (it == pending_.end()) return;
  frames_.push_back(control_cancel_frame(request_id));
  events_.emplace_back(event::Outcome{
      request_id, nullptr,
      std::make_exception_ptr(CancelledError(describe(it->second.subtype, request_id) +
                                             " was cancelled by the host"))});
  pending_.erase(it);
}

void ControlCore::fail_request(const std::string& request_id, std::exception_ptr error) {
  if (pending_.erase(request_id) == 0) return;
  events_.emplace_back(event::Outcome{request_id, nullptr, std::move(error)});
}

// True when the answer is to be sent.
bool ControlCore::finish_inbound(const std::string& request_id, TimePoint now) {
  last_activity_ = now;
  auto it = inbound_.find(request_id);
  if (it == inbound_.end()) return false;
  const bool cancelled = it->second;
  inbound_.erase(it);
  return !cancelled && !ended_;
}

void ControlCore::answer(const std::string& request_id, const ControlPayload& payload,
                         TimePoint now) {
  if (!finish_inbound(request_id, now)) return;
  frames_.push_back(payload.text ? control_success_frame_serialized(request_id, *payload.text)
                                 : control_success_frame(request_id, payload.value));
}

void ControlCore::answer_error(const std::string& request_id, std::string_view error,
                               std::optional<std::string_view> error_code, TimePoint now) {
  if (!finish_inbound(request_id, now)) return;
  frames_.push_back(control_error_frame(request_id, error, error_code));
}

// ---- output ------------------------------------------------------------------------------------

std::optional<std::string> ControlCore::next_frame() {
  if (frames_.empty()) return std::nullopt;
  std::string frame = std::move(frames_.front());
  frames_.pop_front();
  return frame;
}

std::optional<Event> ControlCore::next_event() {
  if (events_.empty()) return std::nullopt;
  Event e = std::move(events_.front());
  events_.pop_front();
  return e;
}

}  // namespace claude::sdk::control
