#include "claude/model_stub/server.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <iostream>

namespace claude::model_stub {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

constexpr std::uint64_t kMaxBodyBytes = 64u << 20;
constexpr std::uint32_t kMaxHeaderBytes = 1u << 20;

void set_status(http::response_header<>& head, int status) {
  head.result(static_cast<unsigned>(status));
  // Beast knows no reason phrase for the API's own 529.
  if (status == 529) head.reason("Overloaded");
}

void close_socket(tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

asio::awaitable<void> write_json(tcp::socket& socket, const ApiResponse& response, unsigned version,
                                 bool keep_alive) {
  http::response<http::string_body> res;
  res.version(version);
  set_status(res.base(), response.status);
  res.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : response.headers) res.set(name, value);
  res.keep_alive(keep_alive);
  res.body() = response.body;
  res.prepare_payload();
  co_await http::async_write(socket, res, asio::use_awaitable);
}

// Returns false when the connection was dropped on purpose.
asio::awaitable<bool> write_stream(tcp::socket& socket, const ApiResponse& response,
                                   unsigned version, bool keep_alive) {
  http::response<http::empty_body> head;
  head.version(version);
  set_status(head.base(), response.status);
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  for (const auto& [name, value] : response.headers) head.set(name, value);
  head.keep_alive(keep_alive);
  head.chunked(true);
  http::response_serializer<http::empty_body> serializer(head);
  co_await http::async_write_header(socket, serializer, asio::use_awaitable);

  asio::steady_timer pause(socket.get_executor());
  for (std::size_t i = 0; i < response.events.size(); ++i) {
    if (response.drop_after && i == *response.drop_after) co_return false;
    if (response.event_delay.count() > 0) {
      pause.expires_after(response.event_delay);
      co_await pause.async_wait(asio::use_awaitable);
    }
    const std::string text = encode_sse(response.events[i]);
    co_await asio::async_write(socket, http::make_chunk(asio::buffer(text)), asio::use_awaitable);
  }
  if (response.drop_after && *response.drop_after >= response.events.size()) co_return false;
  co_await asio::async_write(socket, http::make_chunk_last(), asio::use_awaitable);
  co_return true;
}

HeaderList headers_of(const http::request<http::string_body>& req) {
  HeaderList headers;
  for (const auto& field : req)
    headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  return headers;
}

bool peer_closed(const boost::system::error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == asio::error::connection_reset || ec == asio::error::operation_aborted;
}

asio::awaitable<void> serve_connection(tcp::socket socket, ScriptedModel& model, RequestLog* log) {
  boost::beast::flat_buffer buffer;
  try {
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(kMaxBodyBytes);
      parser.header_limit(kMaxHeaderBytes);
      boost::system::error_code ec;
      co_await http::async_read(socket, buffer, parser,
                                asio::redirect_error(asio::use_awaitable, ec));
      if (peer_closed(ec)) break;
      if (ec) {
        ApiRequest unreadable{"", "", {}, ""};
        const ApiResponse response =
            model.answer_unreadable("malformed HTTP request: " + ec.message());
        if (log != nullptr) log->record(unreadable, response);
        co_await write_json(socket, response, 11, false);
        break;
      }
      auto& req = parser.get();
      const bool keep_alive = req.keep_alive();
      const unsigned version = req.version();
      ApiRequest request{std::string(req.method_string()), std::string(req.target()),
                         headers_of(req), std::move(req.body())};
      const ApiResponse response = model.answer(request);
      if (log != nullptr) log->record(request, response);
      if (!response.streaming) {
        if (response.drop_after) break;
        co_await write_json(socket, response, version, keep_alive);
      } else if (!co_await write_stream(socket, response, version, keep_alive)) {
        break;
      }
      if (!keep_alive) break;
    }
  } catch (const std::exception& e) {
    std::cerr << "model-stub: connection closed: " << e.what() << '\n';
  }
  close_socket(socket);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, ScriptedModel& model, RequestLog* log) {
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket =
        co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {
      std::cerr << "model-stub: accept failed: " << ec.message() << '\n';
      continue;
    }
    // Events are small separate writes; without no_delay, Nagle's algorithm holds each one back
    // until the previous is acknowledged (40 ms per event with delayed ACKs).
    socket.set_option(tcp::no_delay(true), ec);
    asio::co_spawn(acceptor.get_executor(), serve_connection(std::move(socket), model, log),
                   asio::detached);
  }
}

}  // namespace

Server::Server(asio::io_context& io, ScriptedModel& model, RequestLog* log, std::uint16_t port)
    : io_(io), model_(model), log_(log), acceptor_(io) {
  const tcp::endpoint endpoint(asio::ip::address_v4::loopback(), port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen();
  port_ = acceptor_.local_endpoint().port();
}

void Server::start() {
  asio::co_spawn(io_, accept_loop(acceptor_, model_, log_), asio::detached);
}

void Server::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
}

}  // namespace claude::model_stub
