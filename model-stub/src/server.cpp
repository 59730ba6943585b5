#include "claude/model_stub/server.hpp"

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <iostream>
#include <memory>

#include "accept_backoff.hpp"

namespace claude::model_stub {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

constexpr std::uint32_t kMaxHeaderBytes = 1u << 20;

template <class Body>
void set_head(http::response<Body>& head, const ApiResponse& response, unsigned version,
              bool keep_alive, const char* content_type) {
  head.version(version);
  head.result(static_cast<unsigned>(response.status));
  // Beast knows no reason phrase for the API's own 529.
  if (response.status == 529) head.reason("Overloaded");
  head.set(http::field::content_type, content_type);
  for (const auto& [name, value] : response.headers) head.set(name, value);
  head.keep_alive(keep_alive);
}

void close_socket(tcp::socket& socket) {
  boost::system::error_code ignored;
  socket.shutdown(tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

asio::awaitable<void> write_json(tcp::socket& socket, const ApiResponse& response, unsigned version,
                                 bool keep_alive) {
  http::response<http::string_body> res;
  set_head(res, response, version, keep_alive, "application/json");
  res.body() = response.body;
  res.prepare_payload();
  co_await http::async_write(socket, res, asio::use_awaitable);
}

// Returns false when the connection was dropped on purpose.
asio::awaitable<bool> write_stream(tcp::socket& socket, const ApiResponse& response,
                                   unsigned version, bool keep_alive) {
  http::response<http::empty_body> head;
  set_head(head, response, version, keep_alive, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
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

// One connection's socket and its deadline. The watchdog closes the socket when the deadline
// passes, which ends whatever read is pending with operation_aborted.
struct Connection {
  explicit Connection(tcp::socket s) : socket(std::move(s)), deadline(socket.get_executor()) {}
  void arm(std::chrono::milliseconds after, const char* what) {
    phase = what;
    limit = after;
    deadline.expires_after(after);
  }
  void disarm() { deadline.expires_at(asio::steady_timer::time_point::max()); }

  tcp::socket socket;
  asio::steady_timer deadline;
  const char* phase = "";              // what the armed deadline waits for
  const char* expired = nullptr;       // set when the watchdog closed the socket
  std::chrono::milliseconds limit{0};  // of the armed deadline, for the message
  bool done = false;
};

asio::awaitable<void> watchdog(std::shared_ptr<Connection> c) {
  while (!c->done) {
    boost::system::error_code ec;
    // A new deadline cancels this wait (operation_aborted); the loop then waits for the new one.
    co_await c->deadline.async_wait(asio::redirect_error(asio::use_awaitable, ec));
    if (c->done) break;
    if (c->deadline.expiry() <= asio::steady_timer::clock_type::now()) {
      c->expired = c->phase;
      close_socket(c->socket);
      break;
    }
  }
}

// Takes `bytes` of the budget for as long as it lives.
class BudgetHold {
 public:
  BudgetHold(BodyBudget& budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {
    budget_.in_use += bytes_;
  }
  ~BudgetHold() { budget_.in_use -= bytes_; }
  BudgetHold(const BudgetHold&) = delete;
  BudgetHold& operator=(const BudgetHold&) = delete;

 private:
  BodyBudget& budget_;
  std::uint64_t bytes_;
};

std::string mib(std::uint64_t bytes) {
  return std::to_string(bytes >> 20) + " MiB";
}

asio::awaitable<void> serve_connection(std::shared_ptr<Connection> c, ScriptedModel& model,
                                       RequestLog* log, const ServerLimits& limits,
                                       BodyBudget& budget) {
  tcp::socket& socket = c->socket;
  boost::beast::flat_buffer buffer;
  try {
    for (;;) {
      http::request_parser<http::string_body> parser;
      parser.body_limit(limits.max_body_bytes);
      parser.header_limit(kMaxHeaderBytes);
      boost::system::error_code ec;
      if (buffer.size() == 0) {
        c->arm(limits.idle_timeout, "the next request");
        co_await socket.async_wait(tcp::socket::wait_read,
                                   asio::redirect_error(asio::use_awaitable, ec));
        if (ec) break;
      }
      c->arm(limits.header_timeout, "the request header");
      co_await http::async_read_header(socket, buffer, parser,
                                       asio::redirect_error(asio::use_awaitable, ec));
      if (c->expired != nullptr || peer_closed(ec)) break;
      if (!ec) {
        // Reserved before the body is read, so stalled uploads cannot together hold more.
        const std::uint64_t declared = std::min(
            parser.content_length().value_or(limits.max_body_bytes), limits.max_body_bytes);
        if (budget.in_use + declared > budget.limit) {
          const ApiResponse response = model.answer_overloaded(
              "request bodies being received would exceed model-stub's budget of " +
              mib(budget.limit));
          if (log != nullptr) log->record(ApiRequest{"", "", {}, ""}, response);
          c->disarm();
          co_await write_json(socket, response, parser.get().version(), false);
          break;
        }
        const BudgetHold hold(budget, declared);
        c->arm(limits.body_timeout, "the request body");
        co_await http::async_read(socket, buffer, parser,
                                  asio::redirect_error(asio::use_awaitable, ec));
        if (c->expired != nullptr || peer_closed(ec)) break;
      }
      c->disarm();
      if (ec) {
        const ApiResponse response =
            model.answer_unreadable("malformed HTTP request: " + ec.message());
        if (log != nullptr) log->record(ApiRequest{"", "", {}, ""}, response);
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
  if (c->expired != nullptr) {
    std::cerr << "model-stub: connection closed: waited " << c->limit.count() << " ms for "
              << c->expired << '\n';
  }
  c->done = true;
  c->deadline.cancel();
  close_socket(socket);
}

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, ScriptedModel& model, RequestLog* log,
                                  const ServerLimits& limits, BodyBudget& budget) {
  AcceptBackoff backoff;
  asio::steady_timer pause(acceptor.get_executor());
  for (;;) {
    boost::system::error_code ec;
    tcp::socket socket =
        co_await acceptor.async_accept(asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) co_return;
    if (ec) {
      // At the descriptor limit the listening socket stays readable: retrying at once spins.
      AcceptBackoff::Step step = backoff.on_failure(ec.message(), AcceptBackoff::Clock::now());
      if (step.log) std::cerr << *step.log << '\n';
      pause.expires_after(step.wait);
      co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    backoff.on_success();
    // Events are small separate writes; without no_delay, Nagle's algorithm holds each one back
    // until the previous is acknowledged (40 ms per event with delayed ACKs).
    socket.set_option(tcp::no_delay(true), ec);
    auto connection = std::make_shared<Connection>(std::move(socket));
    asio::co_spawn(acceptor.get_executor(), watchdog(connection), asio::detached);
    asio::co_spawn(acceptor.get_executor(),
                   serve_connection(std::move(connection), model, log, limits, budget),
                   asio::detached);
  }
}

}  // namespace

Server::Server(asio::io_context& io, ScriptedModel& model, RequestLog* log, std::uint16_t port,
               ServerLimits limits)
    : model_(model), log_(log), acceptor_(io), limits_(limits) {
  budget_.limit = limits_.body_budget_bytes;
  const tcp::endpoint endpoint(asio::ip::address_v4::loopback(), port);
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint);
  acceptor_.listen();
  port_ = acceptor_.local_endpoint().port();
}

void Server::start() {
  asio::co_spawn(acceptor_.get_executor(), accept_loop(acceptor_, model_, log_, limits_, budget_),
                 asio::detached);
}

void Server::stop() {
  boost::system::error_code ignored;
  acceptor_.close(ignored);
}

}  // namespace claude::model_stub
