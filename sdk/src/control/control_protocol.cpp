#include "claude/sdk/control_protocol.hpp"

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include "messages/frame_writer.hpp"
#include "messages/message_parser.hpp"
#include "messages/leading_type.hpp"
#include "messages/parse_inbound.hpp"
#include "threads/sigpipe.hpp"

namespace claude::sdk {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct PendingControl::State {
  std::string request_id;
  std::string subtype;
  std::optional<Clock::time_point> deadline;
  std::chrono::milliseconds timeout{0};
  std::weak_ptr<ControlProtocol::Engine> engine;

  std::mutex mutex;
  std::condition_variable cv;
  bool done = false;
  json response;
  std::exception_ptr error;

  void complete(json value, std::exception_ptr err) {
    {
      std::lock_guard lock(mutex);
      if (done) return;
      done = true;
      response = std::move(value);
      error = std::move(err);
    }
    cv.notify_all();
  }
};

struct ControlProtocol::Engine : std::enable_shared_from_this<ControlProtocol::Engine> {
  Transport& transport;
  Config config;
  ControlListener listener;
  std::unordered_map<std::string, ControlRequestHandler> handlers;

  // Reader-role pool (see worker_loop).
  static constexpr auto kPromoteAfter = std::chrono::microseconds(1000);
  static constexpr auto kDeepSleepAfter = std::chrono::milliseconds(100);
  std::mutex pool_mutex;
  std::condition_variable pool_cv;
  bool reading = false;  // some thread holds the reader role
  bool lent = false;     // its holder is running a handler; a follower may take the role over
  std::uint64_t lend_epoch = 0;
  Clock::time_point lent_at{};
  Clock::time_point last_lend{};
  bool stream_over = false;
  std::size_t idle = 0;
  std::size_t deep_sleepers = 0;
  std::vector<std::thread> threads;
  bool started = false;

  // Touched only by the current leader.
  MessageParser parser;
  std::size_t line_number = 0;
  std::optional<ResultMessage> last_result;
  // Set by the leader at a bad line, or by fail() when the consumer finds one; then lines are
  // drained, not routed.
  std::atomic<bool> fatal{false};
  bool batch_open = false;  // on_message ran since the last on_batch_end

  // Outbound requests and inbound handlers, by request_id.
  mutable std::mutex table_mutex;
  std::unordered_map<std::string, std::shared_ptr<PendingControl::State>> pending;
  std::unordered_map<std::string, CancelToken> inbound;
  bool ended = false;
  std::exception_ptr end_error;
  std::string end_stderr_tail;  // the CLI's stderr tail once its stream ended
  std::atomic<std::uint64_t> next_id{1};
  std::string id_salt;

  std::atomic<Clock::rep> last_activity{Clock::now().time_since_epoch().count()};
  std::atomic<std::size_t> in_flight{0};

  // Holds the parsed body itself: a ControlRequest is a dozen strings, and moving it from
  // message to local to Work to optional was a tenth of the round trip's instructions.
  struct Work {
    explicit Work(MessageBody&& b) : body(std::move(b)) {}
    [[nodiscard]] const ControlRequest& request() const { return std::get<ControlRequest>(body); }
    MessageBody body;
    const ControlRequestHandler* handler = nullptr;
    CancelToken token;
  };

  Engine(Transport& t, Config c) : transport(t), config(c) {
    std::random_device rd;
    char salt[9];
    std::snprintf(salt, sizeof salt, "%08x", static_cast<unsigned>(rd()));
    id_salt = salt;
  }

  void touch() { last_activity = Clock::now().time_since_epoch().count(); }

  void try_write(std::string_view frame) {
    try {
      transport.write(frame);
    } catch (const ConnectionError&) {
      // The CLI's stdin is gone: the answer has no reader. The end of the stream reports why.
    }
  }

  // ---- engine threads ------------------------------------------------------------------

  // One thread at a time holds the reader role. When it meets a control request it runs the
  // handler itself, without waking anyone (a wake-up costs more than a fast handler), and "lends"
  // the role: if the handler is still running kPromoteAfter later, an idle follower takes the
  // role over and reading goes on, so slow or blocking handlers run concurrently and a handler
  // that waits for one of our own control requests cannot deadlock the reader. Idle followers
  // check with a timed wait while handlers ran recently, and sleep until woken otherwise.
  void worker_loop() {
    detail::block_sigpipe_on_this_thread();
    std::unique_lock lock(pool_mutex);
    bool have_role = false;
    for (;;) {
      if (!have_role) {
        ++idle;
        for (;;) {
          if (stream_over) {
            --idle;
            return;
          }
          if (!reading) break;
          auto now = Clock::now();
          if (lent && now >= lent_at + kPromoteAfter) break;
          if (lent) {
            pool_cv.wait_until(lock, lent_at + kPromoteAfter);
          } else if (now - last_lend < kDeepSleepAfter) {
            pool_cv.wait_for(lock, kPromoteAfter);
          } else {
            ++deep_sleepers;
            pool_cv.wait(lock);
            --deep_sleepers;
          }
        }
        --idle;
        lent = false;  // taking over a lent role ends the lend
        reading = true;
      }
      lock.unlock();
      std::optional<Work> work = lead();
      lock.lock();
      if (!work) {
        reading = false;
        stream_over = true;
        pool_cv.notify_all();
        return;
      }
      lent = true;
      lent_at = last_lend = Clock::now();
      const std::uint64_t my_lend = ++lend_epoch;
      if (idle == 0)
        threads.emplace_back([self = shared_from_this()] { self->worker_loop(); });
      else if (deep_sleepers == idle)
        pool_cv.notify_one();  // after a quiet spell every follower sleeps untimed
      lock.unlock();
      run_handler(*work);
      lock.lock();
      // Still ours if no follower took it over meanwhile.
      have_role = lent && lend_epoch == my_lend;
      if (have_role) lent = false;
    }
  }

  // Reads and routes lines until a control request needs a handler (returned) or the stream
  // ends (nullopt).
  std::optional<Work> lead() {
    for (;;) {
      // Lines already buffered arrived with the read before them: the clock is read once per
      // read from the CLI, not once per line.
      const bool from_the_cli = !transport.has_buffered_line();
      if (batch_open && from_the_cli) end_batch();
      ReadResult r = transport.read();
      if (auto* end = std::get_if<StreamEnd>(&r)) {
        finish(*end);
        return std::nullopt;
      }
      auto& line = std::get<InboundLine>(r);
      ++line_number;
      if (from_the_cli) touch();
      if (fatal) continue;  // drain so the CLI never blocks on a full pipe
      if (line.oversized) {
        fail_fatal(std::make_exception_ptr(
            MessageParseError(line_number, line.size, config.max_line_bytes)));
        continue;
      }
      const std::string_view text = line.view();
      std::size_t first = text.find_first_not_of(" \t\r");
      if (first == std::string::npos || text[first] != '{') {
        if (listener.on_noise) listener.on_noise(text);
        continue;
      }
      if (listener.on_unparsed) {
        if (const std::optional<MessageType> bulk = bulk_type(text)) {
          listener.on_unparsed(std::move(line), line_number, *bulk);
          batch_open = true;
          continue;
        }
      }
      ParseResult parsed = detail::parse_inbound(parser, line);
      if (auto* err = std::get_if<ParseError>(&parsed)) {
        if (line.partial) {
          // A truncated last line (the CLI died mid-write) is not a frame; keep it visible.
          if (listener.on_noise) listener.on_noise(line.view());
        } else {
          fail_fatal(std::make_exception_ptr(
              MessageParseError(*err, line_number, std::string(line.view()))));
        }
        continue;
      }
      std::optional<Work> work = route(std::move(std::get<Message>(parsed)));
      if (work) {
        if (batch_open) end_batch();
        return work;
      }
    }
  }

  // The type of a line the listener's consumer parses (assistant, user, stream_event), when its
  // start says so with certainty; nullopt for every other line, which is parsed here.
  static std::optional<MessageType> bulk_type(std::string_view text) {
    const std::optional<std::string_view> type = detail::leading_type(text);
    if (!type) return std::nullopt;
    if (*type == "stream_event") return MessageType::stream_event;
    if (*type == "assistant") return MessageType::assistant;
    if (*type == "user") return MessageType::user;
    return std::nullopt;
  }

  void end_batch() {
    batch_open = false;
    if (listener.on_batch_end) listener.on_batch_end();
  }

  std::optional<Work> route(Message&& message) {
    if (const auto* response = message.get_if<ControlResponse>()) {
      resolve(*response);
      return std::nullopt;
    }
    if (const auto* cancel = message.get_if<ControlCancelRequest>()) {
      std::optional<CancelToken> token;
      {
        std::lock_guard lock(table_mutex);
        auto it = inbound.find(cancel->request_id);
        if (it != inbound.end()) token = it->second;
      }
      if (token) token->cancel();
      return std::nullopt;
    }
    if (message.is<ControlRequest>()) {
      std::optional<Work> work(std::in_place, std::move(message).take_body());
      const ControlRequest& request = work->request();
      auto handler = handlers.find(request.subtype);
      if (handler == handlers.end()) {
        try_write(control_error_frame(request.request_id,
                                      "Unsupported control request subtype: " + request.subtype,
                                      "unsupported_request"));
        return std::nullopt;
      }
      work->handler = &handler->second;
      {
        std::lock_guard lock(table_mutex);
        // A repeated id while the first is still being handled is the same request again.
        if (!inbound.emplace(request.request_id, work->token).second) return std::nullopt;
      }
      ++in_flight;
      return work;
    }
    if (const auto* result = message.get_if<ResultMessage>()) last_result = *result;
    if (listener.on_message) {
      listener.on_message(std::move(message));
      batch_open = true;
    }
    return std::nullopt;
  }

  void run_handler(Work& work) {
    const ControlRequest& request = work.request();
    const std::string& id = request.request_id;
    std::string frame;
    try {
      ControlPayload payload = (*work.handler)(request, work.token);
      frame = payload.text ? control_success_frame_serialized(id, *payload.text)
                           : control_success_frame(id, payload.value);
    } catch (const ControlError& e) {
      frame = control_error_frame(id, e.error(), e.error_code());
    } catch (const std::exception& e) {
      frame = control_error_frame(id, e.what());
    } catch (...) {
      frame = control_error_frame(
          id, "handler for " + request.subtype + " threw a non-standard exception");
    }
    bool answer;
    {
      std::lock_guard lock(table_mutex);
      inbound.erase(id);
      answer = !work.token.cancelled();
    }
    if (answer) try_write(frame);
    // Activity first: a consumer that sees no handler in flight must also see this answer's time,
    // or it could count the handler's whole run as inactivity.
    touch();
    if (--in_flight == 0 && listener.on_handlers_idle) listener.on_handlers_idle();
  }

  // ---- outbound ---------------------------------------------------------------------------

  void resolve(const ControlResponse& response) {
    std::shared_ptr<PendingControl::State> state;
    {
      std::lock_guard lock(table_mutex);
      auto it = pending.find(response.request_id);
      if (it == pending.end()) return;  // late, cancelled or never ours
      state = std::move(it->second);
      pending.erase(it);
    }
    if (response.success) {
      json payload = response.response.present() ? response.response.value() : json::object();
      state->complete(std::move(payload), nullptr);
    } else {
      state->complete(nullptr,
                      std::make_exception_ptr(ControlError(state->subtype, state->request_id,
                                                           response.error, response.error_code)));
    }
  }

  std::shared_ptr<PendingControl::State> register_request(
      std::string_view subtype, std::optional<std::chrono::milliseconds> timeout) {
    auto state = std::make_shared<PendingControl::State>();
    state->request_id = "req_" + std::to_string(next_id++) + "_" + id_salt;
    state->subtype = std::string(subtype);
    state->timeout = timeout.value_or(config.request_timeout);
    if (state->timeout.count() > 0) state->deadline = Clock::now() + state->timeout;
    state->engine = weak_from_this();
    std::lock_guard lock(table_mutex);
    if (ended) {
      state->complete(nullptr, pending_end_error(*state));
      return state;
    }
    pending.emplace(state->request_id, state);
    return state;
  }

  bool forget(const std::string& request_id) {
    std::lock_guard lock(table_mutex);
    return pending.erase(request_id) > 0;
  }

  // ---- end of stream ----------------------------------------------------------------------

  std::exception_ptr pending_end_error(const PendingControl::State& state) const {
    if (end_error) return end_error;
    return std::make_exception_ptr(ConnectionError("the CLI's stream ended before it answered " +
                                                       state.subtype + " (request_id " +
                                                       state.request_id + ")",
                                                   end_stderr_tail));
  }

  std::exception_ptr classify(const StreamEnd& end) const {
    if (end.status.ended_by_host) return nullptr;
    if (!end.error.empty())
      return std::make_exception_ptr(
          ConnectionError("reading the CLI's stdout failed: " + end.error, end.stderr_tail));
    if (!end.status.known() || end.status.exit_code == 0) return nullptr;
    if (end.status.exit_code && last_result && last_result->is_error)
      return std::make_exception_ptr(ResultError(*last_result, end.status, end.stderr_tail));
    return std::make_exception_ptr(
        ProcessError("the Claude Code CLI ended unexpectedly", end.status, end.stderr_tail));
  }

  // Ends the session for every waiter; returns false if it had already ended.
  bool end_session(std::exception_ptr error) {
    std::unordered_map<std::string, std::shared_ptr<PendingControl::State>> failed;
    std::vector<CancelToken> tokens;
    {
      std::lock_guard lock(table_mutex);
      if (ended) return false;
      ended = true;
      end_error = std::move(error);
      failed.swap(pending);
      for (auto& [id, token] : inbound) tokens.push_back(token);
    }
    for (auto& [id, state] : failed) state->complete(nullptr, pending_end_error(*state));
    for (auto& token : tokens) token.cancel();
    return true;
  }

  void fail_fatal(const std::exception_ptr& error) {
    fatal = true;
    if (end_session(error) && listener.on_end) listener.on_end(error, StreamEnd{});
  }

  void finish(const StreamEnd& end) {
    {
      std::lock_guard lock(table_mutex);
      end_stderr_tail = end.stderr_tail;
    }
    std::exception_ptr error = classify(end);
    if (end_session(error) && listener.on_end) listener.on_end(error, end);
  }
};

// ---- PendingControl -----------------------------------------------------------------------

const std::string& PendingControl::request_id() const {
  return state_->request_id;
}
const std::string& PendingControl::subtype() const {
  return state_->subtype;
}

bool PendingControl::ready() const {
  std::lock_guard lock(state_->mutex);
  return state_->done;
}

json PendingControl::wait() {
  auto& s = *state_;
  std::unique_lock lock(s.mutex);
  bool done = s.deadline ? s.cv.wait_until(lock, *s.deadline, [&] { return s.done; })
                         : (s.cv.wait(lock, [&] { return s.done; }), true);
  if (!done) {
    lock.unlock();
    auto engine = s.engine.lock();
    if (engine && engine->forget(s.request_id))
      engine->try_write(control_cancel_frame(s.request_id));
    s.complete(nullptr,
               std::make_exception_ptr(TimeoutError(
                   "control request " + s.subtype + " (request_id " + s.request_id +
                   ") got no answer within " + std::to_string(s.timeout.count()) + " ms")));
    lock.lock();
  }
  if (s.error) std::rethrow_exception(s.error);
  return s.response;
}

void PendingControl::cancel() {
  auto& s = *state_;
  auto engine = s.engine.lock();
  if (engine && engine->forget(s.request_id)) engine->try_write(control_cancel_frame(s.request_id));
  s.complete(nullptr, std::make_exception_ptr(CancelledError("control request " + s.subtype +
                                                             " (request_id " + s.request_id +
                                                             ") was cancelled by the host")));
}

// ---- ControlProtocol ----------------------------------------------------------------------

ControlProtocol::ControlProtocol(Transport& transport, Config config)
    : engine_(std::make_shared<Engine>(transport, config)) {}

ControlProtocol::~ControlProtocol() {
  stop();
}

void ControlProtocol::set_handler(std::string subtype, ControlRequestHandler handler) {
  engine_->handlers[std::move(subtype)] = std::move(handler);
}

void ControlProtocol::start(ControlListener listener) {
  auto& e = *engine_;
  std::lock_guard lock(e.pool_mutex);
  if (e.started) return;
  e.started = true;
  e.listener = std::move(listener);
  e.threads.emplace_back([engine = engine_] { engine->worker_loop(); });
}

void ControlProtocol::stop() {
  auto& e = *engine_;
  std::vector<std::thread> threads;
  {
    std::unique_lock lock(e.pool_mutex);
    if (!e.started) return;
    // Threads started by other threads may appear while we wait; take them all.
    e.pool_cv.wait(lock, [&] { return e.stream_over; });
  }
  for (;;) {
    {
      std::lock_guard lock(e.pool_mutex);
      if (e.threads.empty()) break;
      threads.swap(e.threads);
    }
    for (auto& t : threads)
      if (t.joinable()) t.join();
    threads.clear();
  }
}

PendingControl ControlProtocol::send_request(std::string_view subtype, json payload,
                                             std::optional<std::chrono::milliseconds> timeout) {
  auto state = engine_->register_request(subtype, timeout);
  if (state->done) return PendingControl(state);
  json request = payload.is_object() ? std::move(payload) : json::object();
  request["subtype"] = subtype;
  try {
    engine_->transport.write(control_request_frame(state->request_id, request));
  } catch (const ConnectionError&) {
    engine_->forget(state->request_id);
    state->complete(nullptr, std::current_exception());
  }
  return PendingControl(state);
}

json ControlProtocol::request(std::string_view subtype, json payload,
                              std::optional<std::chrono::milliseconds> timeout) {
  return send_request(subtype, std::move(payload), timeout).wait();
}

void ControlProtocol::fail(const std::exception_ptr& error) {
  engine_->fail_fatal(error);
}

void ControlProtocol::write(std::string_view frame) {
  engine_->transport.write(frame);
}

bool ControlProtocol::ended() const {
  std::lock_guard lock(engine_->table_mutex);
  return engine_->ended;
}

std::exception_ptr ControlProtocol::end_error() const {
  std::lock_guard lock(engine_->table_mutex);
  return engine_->end_error;
}

std::size_t ControlProtocol::inbound_in_flight() const {
  return engine_->in_flight.load();
}

std::chrono::steady_clock::time_point ControlProtocol::last_activity() const {
  return Clock::time_point(Clock::duration(engine_->last_activity.load()));
}

}  // namespace claude::sdk
