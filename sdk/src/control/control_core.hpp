// ControlCore: the SDK's side of one session's protocol as a pure state machine (like
// fake-claude's Engine and Boost.Beast's parsers): in, stdout lines, the stream's end, the time
// and the user side's calls; out, frames for the CLI's stdin (`next_frame`) and events for the
// user side (`next_event`).
//
// What it decides: the pending-request table keyed by request_id (`req_<n>_<salt>`) with
// deadlines; late or unknown answers are dropped; an inbound `control_request` is answered exactly
// once (`unsupported_request` when no handler has its subtype), a repeated id while the first is
// handled is ignored, and a `control_cancel_request` suppresses its answer; the end error fails
// every pending request at once. No threads, locks or clocks: the driver (ControlProtocol) calls
// it under a mutex, and time is a parameter, so tests and the fuzz target use a virtual clock.
//
// How it fails: never throws for any input line or call order; bad lines become the session's end
// error (MessageParseError) and later lines are dropped.
// What it costs: one parse per routed line (none for a bulk line passed on unparsed), one map
// insert/erase per request, one event (a queue slot) per line.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>

#include "claude/sdk/message.hpp"
#include "claude/sdk/transport.hpp"
#include "control/control_protocol.hpp"
#include "messages/message_parser.hpp"

namespace claude::sdk::control {

using Clock = std::chrono::steady_clock;
using TimePoint = Clock::time_point;

struct CoreConfig {
  std::chrono::milliseconds request_timeout{60000};  // 0 disables
  std::size_t max_line_bytes = 32u << 20;            // for the error text of oversized lines
  // Pass assistant/user/stream_event lines whose start names their type as `Unparsed` events.
  bool pass_bulk_unparsed = false;
  std::string id_salt = "00000000";        // the last part of our request ids
  std::set<std::string> handled_subtypes;  // inbound subtypes the user side has a handler for
};

namespace event {
struct Data {  // a message for the user (not a control message)
  Message message;
};
struct Unparsed {  // a bulk line for the consumer to parse (CoreConfig::pass_bulk_unparsed)
  InboundLine line;
  std::size_t line_number = 0;
  MessageType type = MessageType::unknown;
};
struct Noise {  // a stdout line that is not a protocol frame
  std::string line;
};
struct Request {  // run the handler for `request()`, then call answer() with its request_id
  explicit Request(MessageBody&& b) : body(std::move(b)) {}
  [[nodiscard]] const ControlRequest& request() const { return std::get<ControlRequest>(body); }
  MessageBody body;
};
struct Cancel {  // the CLI withdrew inbound request `request_id`: its answer will not be sent
  std::string request_id;
};
struct Outcome {  // one of our requests is over: `payload` on success, else `error`
  std::string request_id;
  nlohmann::json payload;
  std::exception_ptr error;
};
struct End {  // the session is over; `error` null for a clean end
  std::exception_ptr error;
  StreamEnd end;
};
}  // namespace event

using Event = std::variant<event::Data, event::Unparsed, event::Noise, event::Request,
                           event::Cancel, event::Outcome, event::End>;

class ControlCore {
 public:
  explicit ControlCore(CoreConfig config, TimePoint now = {});

  // ---- from the CLI ----
  void feed_line(InboundLine&& line, TimePoint now);
  void feed_end(const StreamEnd& end);
  // Ends the session with `error` (a MessageParseError the consumer found in an unparsed line):
  // pending requests fail with it, inbound handlers are cancelled, later lines are dropped.
  void fail(const std::exception_ptr& error);

  // ---- time ----
  // Expires our requests whose deadline is at or before `now` (a cancel frame each, and an
  // Outcome with TimeoutError).
  void advance(TimePoint now);
  [[nodiscard]] std::optional<TimePoint> next_deadline() const;

  // ---- from the user side ----
  // Queues a control_request frame; `payload` holds the fields besides `subtype`; `timeout`
  // overrides CoreConfig::request_timeout (0 disables). Returns the request_id. After the end it
  // queues no frame and an Outcome with the end error at once.
  std::string start_request(std::string_view subtype, nlohmann::json payload,
                            std::optional<std::chrono::milliseconds> timeout, TimePoint now);
  // Withdraws one of ours: a control_cancel_request frame and an Outcome with CancelledError;
  // nothing once it is over.
  void cancel_request(const std::string& request_id);
  // Ends one of ours with `error` without a frame (its frame could not be written).
  void fail_request(const std::string& request_id, std::exception_ptr error);
  // The handler of inbound request `request_id` returned `payload` (or threw: `error` and
  // `error_code`). Queues the answer unless the request was cancelled or the session ended.
  void answer(const std::string& request_id, const ControlPayload& payload, TimePoint now);
  void answer_error(const std::string& request_id, std::string_view error,
                    std::optional<std::string_view> error_code, TimePoint now);

  // ---- output ----
  [[nodiscard]] std::optional<std::string> next_frame();
  [[nodiscard]] std::optional<Event> next_event();

  // ---- state ----
  [[nodiscard]] bool ended() const { return ended_; }
  [[nodiscard]] std::size_t inbound_in_flight() const { return inbound_.size(); }
  [[nodiscard]] std::size_t outbound_pending() const { return pending_.size(); }
  // When the last stdout line arrived or the last inbound handler finished.
  [[nodiscard]] TimePoint last_activity() const { return last_activity_; }

 private:
  struct Pending {
    std::string subtype;
    std::optional<TimePoint> deadline;
    std::chrono::milliseconds timeout{0};
  };

  void route(Message&& message);
  void resolve(const ControlResponse& response);
  bool finish_inbound(const std::string& request_id, TimePoint now);
  void end_session(std::exception_ptr error, const StreamEnd& end);
  [[nodiscard]] std::exception_ptr pending_end_error(const std::string& request_id,
                                                     const std::string& subtype) const;
  [[nodiscard]] std::exception_ptr classify(const StreamEnd& end) const;

  CoreConfig config_;
  MessageParser parser_;
  std::size_t line_number_ = 0;
  std::optional<ResultMessage> last_result_;
  bool fatal_ = false;  // a bad line or fail(): later lines are dropped
  bool ended_ = false;
  std::exception_ptr end_error_;
  std::string end_stderr_tail_;
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::string, Pending> pending_;
  std::unordered_map<std::string, bool> inbound_;  // handlers running; true once cancelled
  TimePoint last_activity_;
  std::deque<std::string> frames_;
  std::deque<Event> events_;
};

}  // namespace claude::sdk::control
