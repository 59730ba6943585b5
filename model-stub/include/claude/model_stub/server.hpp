// Server: the Boost.Beast HTTP/1.1 shell around ScriptedModel, listening on 127.0.0.1 only.
//
// What it is: reads keep-alive requests, hands each to ScriptedModel as an ApiRequest and writes
// the ApiResponse: a JSON body, or `text/event-stream` with one HTTP chunk per SSE event, pausing
// and dropping the connection where the response says so; each exchange goes to the RequestLog
// when one is given. Everything runs on the io_context's thread (coroutines, no locks).
//
// How it fails: the constructor throws boost::system::system_error when the port cannot be
// bound. A connection that fails (peer gone, write or log error) is closed and reported on
// stderr; the others go on. A request Beast cannot parse gets a 400 Anthropic-style error, one
// past the body budget a 529 overloaded_error, and its connection is closed; a connection too
// slow for its timeout (ServerLimits) is closed. When accept(2) fails (the descriptor limit), the
// loop backs off (10 ms doubling to 1 s) and logs at most once per 10 s.
// What it costs: two coroutines, a timer and a buffer per connection; request bodies up to
// ServerLimits::max_body_bytes each and body_budget_bytes in all.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>

#include "claude/model_stub/request_log.hpp"
#include "claude/model_stub/scripted_model.hpp"

namespace claude::model_stub {

struct ServerLimits {
  // A connection waiting for the first byte of its next request (keep-alive between requests).
  std::chrono::milliseconds idle_timeout{300'000};
  // From a request's first byte to the end of its header.
  std::chrono::milliseconds header_timeout{30'000};
  // From the end of a request's header to the end of its body.
  std::chrono::milliseconds body_timeout{60'000};
  std::uint64_t max_body_bytes = std::uint64_t{64} << 20;  // one request (larger: 400)
  // All bodies being received at once, counted by their declared length (chunked: the maximum).
  std::uint64_t body_budget_bytes = std::uint64_t{256} << 20;
};

// The bytes of request bodies being received now, against ServerLimits::body_budget_bytes.
struct BodyBudget {
  std::uint64_t in_use = 0;
  std::uint64_t limit = 0;
};

class Server {
 public:
  // Binds 127.0.0.1:`port`; port 0 lets the kernel choose a free one (see port()).
  Server(boost::asio::io_context& io, ScriptedModel& model, RequestLog* log, std::uint16_t port,
         ServerLimits limits = {});

  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }

  // Starts accepting; connections are served while the io_context runs.
  void start();
  // Stops accepting new connections (open ones finish their current exchange).
  void stop();

 private:
  ScriptedModel& model_;
  RequestLog* log_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  ServerLimits limits_;
  BodyBudget budget_;
};

}  // namespace claude::model_stub
