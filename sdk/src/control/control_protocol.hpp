// ControlProtocol: the control layer of a session (docs/protocol.md §5–§7), above a Transport.
//
// What it is: the threaded driver around ControlCore (control/control_core.hpp), which makes every
// protocol decision without threads, locks or clocks. This class reads the transport, feeds the
// core under one mutex, writes the frames it hands back and delivers its events: messages to the
// listener in stdout order, inbound requests to the handler for their subtype (its return value
// is the success payload; a throw becomes an error answer with the exception's text, a thrown
// `ControlError` keeps its `error_code`), cancels to the handler's `CancelToken`, and outcomes to
// our `PendingControl`s.
//
// Threading model: one engine thread at a time reads and routes lines; at a control request it
// runs the handler itself (no thread hop on the answer path). If the handler is still running
// 1 ms later, an idle engine thread takes the reading over (one is started if none is idle), so
// handlers run concurrently, may answer out of order, may block, and may wait for our own control
// requests. Listener callbacks run on an engine thread, in stdout order, and must not call
// `stop()`; while `on_message` blocks nothing is read (backpressure, if it never blocks while an
// answer it waits for is unread). `send_request`, `fail` and `PendingControl::*` are thread-safe.
// Engine threads block SIGPIPE (a handler's write to a closed pipe fails with EPIPE).
//
// How it fails: as the core decides (a bad line or fail() ends the session with
// `MessageParseError`; at the end every pending request fails with the end error; an unanswered
// request with `TimeoutError`); stdout noise goes to `on_noise`.
// What it costs: the core's; handler threads are kept and reused for the session's life.
#pragma once

#include <chrono>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "claude/sdk/cancel_token.hpp"
#include "claude/sdk/errors.hpp"
#include "claude/sdk/message.hpp"
#include "claude/sdk/pending_control.hpp"
#include "claude/sdk/transport.hpp"

namespace claude::sdk {

// The success payload a handler returns: a JSON value, or the same already written as JSON text
// (can_use_tool's hot path writes its answer around values it already holds as text).
struct ControlPayload {
  ControlPayload(nlohmann::json v) : value(std::move(v)) {}  // NOLINT(google-explicit-constructor)
  // `json_text` must be one complete JSON value; it is written into the frame as it is.
  static ControlPayload serialized(std::string json_text) {
    ControlPayload p(nullptr);
    p.text = std::move(json_text);
    return p;
  }
  nlohmann::json value;
  std::optional<std::string> text;
};

// Handler for one inbound subtype: returns the success payload.
using ControlRequestHandler =
    std::function<ControlPayload(const ControlRequest& request, const CancelToken& cancel)>;

struct ControlListener {
  std::function<void(Message&& message)> on_message;
  // Called once: `error` is null for a clean end (exit 0, or a close the host asked for).
  std::function<void(std::exception_ptr error, const StreamEnd& end)> on_end;
  // Stdout lines that are not protocol frames (debug output leaking onto stdout).
  std::function<void(std::string_view line)> on_noise;
  // Optional. Called on the reading thread after one or more `on_message` calls, once the reader
  // may stop for a while (no buffered line left, or before it runs a handler): a listener that
  // defers its wake-ups while lines keep coming does them here.
  std::function<void()> on_batch_end = nullptr;
  // Optional. When set, a line whose start shows it is an `assistant`, `user` or `stream_event`
  // message (messages/leading_type.hpp) comes here unparsed, in stdout order, instead of to
  // `on_message`: the listener parses it on its consumer's thread, which then frees what it
  // allocated. Other lines (control messages above all) are still parsed here. A listener that
  // finds such a line invalid reports it with fail().
  std::function<void(InboundLine&& line, std::size_t line_number, MessageType type)> on_unparsed =
      nullptr;
  // Optional. Called on the handler's thread when the last inbound handler running ends
  // (inbound_in_flight() drops to 0, after last_activity() has the end's time). A consumer that
  // paused its inactivity timer for the handlers sleeps without a deadline until this call.
  std::function<void()> on_handlers_idle = nullptr;
};

class ControlProtocol {
 public:
  struct Config {
    std::chrono::milliseconds request_timeout{60000};  // 0 disables
    std::size_t max_line_bytes = 32u << 20;            // for the error text of oversized lines
  };

  ControlProtocol(Transport& transport, Config config);
  ~ControlProtocol();  // stop()
  ControlProtocol(const ControlProtocol&) = delete;
  ControlProtocol& operator=(const ControlProtocol&) = delete;

  // Registers the handler for an inbound subtype. Call before start().
  void set_handler(std::string subtype, ControlRequestHandler handler);
  // Starts the engine threads (the transport must be connected).
  void start(ControlListener listener);
  // Waits for the engine threads to end. The stream must end first (close the transport).
  void stop();

  // Writes a control_request; `payload` holds the request fields besides `subtype`.
  // `timeout` overrides Config::request_timeout (0 disables).
  PendingControl send_request(std::string_view subtype, nlohmann::json payload = {},
                              std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // Ends the session with `error` (a MessageParseError the listener found in a line passed to
  // `on_unparsed`): pending requests fail with it, `on_end` gets it unless the session had
  // already ended, and later lines are read and dropped. Thread-safe.
  void fail(const std::exception_ptr& error);

  // Inbound handlers running now; consumers pause inactivity timeouts while it is non-zero.
  [[nodiscard]] std::size_t inbound_in_flight() const;
  // Our requests still awaiting their outcome (a reader must not stop reading while one does).
  [[nodiscard]] std::size_t outbound_pending() const;
  // When the last stdout line arrived or the last inbound handler finished.
  [[nodiscard]] std::chrono::steady_clock::time_point last_activity() const;

  struct Engine;  // opaque; public only so PendingControl can refer to it

 private:
  std::shared_ptr<Engine> engine_;
};

}  // namespace claude::sdk
