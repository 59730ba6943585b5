// Server: the Boost.Beast HTTP/1.1 shell around ScriptedModel, listening on 127.0.0.1 only.
//
// What it is: accepts connections on the loopback address (never any other interface), reads
// requests with keep-alive, hands each one to ScriptedModel as an ApiRequest and writes the
// ApiResponse: a JSON body, or `text/event-stream` with one HTTP chunk per SSE event, pausing and
// dropping the connection where the response says so. Each request is recorded in the RequestLog
// when one is given. A request Beast cannot parse gets a 400 Anthropic-style error and the
// connection is closed. Everything runs on the io_context's thread (coroutines, no locks).
//
// How it fails: the constructor throws boost::system::system_error when the port cannot be
// bound. A connection that fails (peer gone, write error) is closed and reported on stderr; the
// server keeps serving the others. A RequestLog write failure is reported the same way.
// What it costs: one coroutine and one buffer per connection; request bodies up to 64 MiB.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>

#include "claude/model_stub/request_log.hpp"
#include "claude/model_stub/scripted_model.hpp"

namespace claude::model_stub {

class Server {
 public:
  // Binds 127.0.0.1:`port`; port 0 lets the kernel choose a free one (see port()).
  Server(boost::asio::io_context& io, ScriptedModel& model, RequestLog* log, std::uint16_t port);

  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }

  // Starts accepting; connections are served while the io_context runs.
  void start();
  // Stops accepting new connections (open ones finish their current exchange).
  void stop();

 private:
  boost::asio::io_context& io_;
  ScriptedModel& model_;
  RequestLog* log_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
};

}  // namespace claude::model_stub
