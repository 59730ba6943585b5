// CancelToken: how a control-request handler learns that its request was withdrawn.
//
//   options.can_use_tool = [](const ToolPermissionRequest&, const CancelToken& cancel)
//       -> PermissionDecision {
//     if (cancel.wait_for(std::chrono::seconds(30))) return PermissionDeny{.message = "withdrawn"};
//     return PermissionAllow{};
//   };
//
// What it is: a shared flag plus callbacks. The engine cancels the token when the CLI sends
// `control_cancel_request` for the request being handled, or when the session ends. C++ cannot
// stop a running function, so handlers that may take long (asking a human, calling a service)
// poll `cancelled()`, sleep with `wait_for`, or register `on_cancel`; once the token is
// cancelled, whatever the handler returns is discarded and no answer is sent.
//
// How it fails: never; callbacks registered with `on_cancel` must not throw (a throw is caught
// and ignored, since the canceller cannot act on it).
// Threading: all members are thread-safe; copies share the same state.
// What it costs: one small shared allocation per inbound request.
#pragma once

#include <chrono>
#include <functional>
#include <memory>

namespace claude::sdk {

class CancelToken {
 public:
  CancelToken();

  [[nodiscard]] bool cancelled() const noexcept;
  // Runs `callback` once on cancellation, on the cancelling thread (now, if already cancelled).
  void on_cancel(std::function<void()> callback) const;
  // Sleeps until cancelled or `timeout`; returns `cancelled()`.
  bool wait_for(std::chrono::milliseconds timeout) const;
  // Cancels; the first call runs the callbacks, later calls do nothing.
  void cancel() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace claude::sdk
