// PendingControl: one of our control requests in flight (`Client::send_control_request`).
//
// What it is: a handle on the request: its id and subtype, `wait()` for the CLI's answer,
// `cancel()` to withdraw it (a `control_cancel_request` is sent). Copies share the request;
// every member is thread-safe.
// How it fails: `wait()` throws ControlError (the CLI answered with an error), TimeoutError (no
// answer in time; the request is withdrawn), CancelledError (`cancel()`), or the session's end
// error (ProcessError, ResultError, ConnectionError) when the CLI's output ends first.
// What it costs: one shared state per request; `wait()` sleeps until the outcome.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace claude::sdk {

class PendingControl {
 public:
  struct State;
  explicit PendingControl(std::shared_ptr<State> state) : state_(std::move(state)) {}

  [[nodiscard]] const std::string& request_id() const;
  [[nodiscard]] const std::string& subtype() const;
  // Blocks until the answer, the request's timeout, cancellation or the end of the session.
  // Returns the success payload (`{}` when absent).
  nlohmann::json wait();
  // True once an outcome is known (wait() then returns at once).
  [[nodiscard]] bool ready() const;
  // Withdraws the request: sends control_cancel_request; wait() throws CancelledError.
  void cancel();

 private:
  std::shared_ptr<State> state_;
};

}  // namespace claude::sdk
