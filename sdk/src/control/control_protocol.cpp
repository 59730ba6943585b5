#include "control/control_protocol.hpp"

#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <vector>

#include "control/control_core.hpp"
#include "threads/sigpipe.hpp"

namespace claude::sdk {

using control::Clock;
using control::ControlCore;
using control::Event;
using nlohmann::json;
namespace event = control::event;

struct PendingControl::State {
  std::string request_id;
  std::string subtype;
  std::optional<Clock::time_point> deadline;
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

namespace {

std::string random_salt() {
  char salt[9];
  std::snprintf(salt, sizeof salt, "%08x", static_cast<unsigned>(std::random_device()()));
  return salt;
}

}  // namespace

struct ControlProtocol::Engine : std::enable_shared_from_this<ControlProtocol::Engine> {
  Transport& transport;
  control::CoreConfig config;
  ControlListener listener;
  std::unordered_map<std::string, ControlRequestHandler> handlers;

  // Guards the core and the two tables beside it.
  mutable std::mutex mutex;
  std::optional<ControlCore> core;  // made by start(), once the handlers are known
  std::unordered_map<std::string, std::shared_ptr<PendingControl::State>> waiters;
  std::unordered_map<std::string, CancelToken> tokens;

  // What one call into the core handed back, taken while the mutex is held and acted on after.
  struct Output {
    std::vector<std::string> frames;
    std::vector<Event> events;
    std::vector<std::pair<std::shared_ptr<PendingControl::State>, event::Outcome>> outcomes;
    std::vector<CancelToken> cancels;
  };

  // Threads (the header's threading model): the reader runs a handler itself because a hand-off
  // costs a cross-CPU wake-up, most of a control round trip (docs/sdk.md "Threading model").
  // Idle threads poll with a timed wait while handlers ran recently, and sleep until woken
  // otherwise: a wake-up per request would cost the round trip a second CPU.
  static constexpr auto kTakeOverAfter = std::chrono::microseconds(1000);
  static constexpr auto kDeepSleepAfter = std::chrono::milliseconds(100);
  std::mutex pool_mutex;
  std::condition_variable pool_cv;
  bool reading = false;  // some thread holds the reader role
  bool lent = false;     // its holder is running a handler; an idle thread may take the role over
  std::uint64_t lend_epoch = 0;
  Clock::time_point lent_at{};
  Clock::time_point last_lend{};
  bool stream_over = false;
  std::size_t idle = 0;
  std::size_t deep_sleepers = 0;
  std::vector<std::thread> threads;
  bool started = false;
  bool batch_open = false;  // reader only: on_message ran since the last on_batch_end

  Engine(Transport& t, control::CoreConfig c) : transport(t), config(std::move(c)) {}

  void try_write(std::string_view frame) {
    try {
      transport.write(frame);
    } catch (const ConnectionError&) {
      // The CLI's stdin is gone: the answer has no reader. The end of the stream reports why.
    }
  }

  // mutex held: moves the core's output into `out`, resolving what needs the tables.
  void collect(Output& out) {
    while (auto frame = core->next_frame()) out.frames.push_back(std::move(*frame));
    while (auto e = core->next_event()) {
      if (auto* outcome = std::get_if<event::Outcome>(&*e)) {
        auto it = waiters.find(outcome->request_id);
        if (it == waiters.end()) continue;
        out.outcomes.emplace_back(std::move(it->second), std::move(*outcome));
        waiters.erase(it);
      } else if (auto* request = std::get_if<event::Request>(&*e)) {
        tokens.emplace(request->request().request_id, CancelToken());
        out.events.push_back(std::move(*e));
      } else if (auto* cancel = std::get_if<event::Cancel>(&*e)) {
        auto it = tokens.find(cancel->request_id);
        if (it != tokens.end()) out.cancels.push_back(it->second);
      } else {
        out.events.push_back(std::move(*e));
      }
    }
  }

  // Acts on `out` outside the mutex; returns the inbound request to run, if any (at most one per
  // line).
  std::optional<event::Request> deliver(Output& out) {
    for (const auto& frame : out.frames) try_write(frame);
    for (auto& [state, outcome] : out.outcomes)
      state->complete(std::move(outcome.payload), std::move(outcome.error));
    for (auto& token : out.cancels) token.cancel();
    std::optional<event::Request> work;
    for (auto& e : out.events) {
      if (auto* data = std::get_if<event::Data>(&e)) {
        if (listener.on_message) {
          listener.on_message(std::move(data->message));
          batch_open = true;
        }
      } else if (auto* unparsed = std::get_if<event::Unparsed>(&e)) {
        listener.on_unparsed(std::move(unparsed->line), unparsed->line_number, unparsed->type);
        batch_open = true;
      } else if (auto* noise = std::get_if<event::Noise>(&e)) {
        if (listener.on_noise) listener.on_noise(noise->line);
      } else if (auto* request = std::get_if<event::Request>(&e)) {
        work.emplace(std::move(*request));
      } else if (auto* end = std::get_if<event::End>(&e)) {
        if (listener.on_end) listener.on_end(end->error, end->end);
      }
    }
    return work;
  }

  // Runs `call` on the core under the mutex and acts on what it handed back.
  template <class Call>
  void with_core(Call&& call) {
    Output out;
    {
      std::lock_guard lock(mutex);
      call(*core);
      collect(out);
    }
    deliver(out);
  }

  // ---- threads -------------------------------------------------------------------------------

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
          const auto now = Clock::now();
          if (lent && now >= lent_at + kTakeOverAfter) break;
          if (lent) {
            pool_cv.wait_until(lock, lent_at + kTakeOverAfter);
          } else if (now - last_lend < kDeepSleepAfter) {
            pool_cv.wait_for(lock, kTakeOverAfter);
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
      std::optional<event::Request> work = read_until_request();
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
        pool_cv.notify_one();  // after a quiet spell every idle thread sleeps untimed
      lock.unlock();
      run_handler(*work);
      lock.lock();
      // Still ours if no idle thread took it over meanwhile.
      have_role = lent && lend_epoch == my_lend;
      if (have_role) lent = false;
    }
  }

  // Reads and routes lines until an inbound request needs its handler (returned) or the stream
  // ends (nullopt).
  std::optional<event::Request> read_until_request() {
    for (;;) {
      // Lines already buffered arrived with the read before them: a waiting consumer is woken
      // once per read from the CLI, not once per line.
      const bool from_the_cli = !transport.has_buffered_line();
      if (batch_open && from_the_cli) end_batch();
      ReadResult r = transport.read();
      Output out;
      {
        std::lock_guard lock(mutex);
        if (auto* end = std::get_if<StreamEnd>(&r))
          core->feed_end(*end);
        else
          core->feed_line(std::move(std::get<InboundLine>(r)), Clock::now());
        collect(out);
      }
      std::optional<event::Request> work = deliver(out);
      if (work) {
        if (batch_open) end_batch();
        return work;
      }
      if (std::holds_alternative<StreamEnd>(r)) return std::nullopt;
    }
  }

  void end_batch() {
    batch_open = false;
    if (listener.on_batch_end) listener.on_batch_end();
  }

  void run_handler(const event::Request& work) {
    const ControlRequest& request = work.request();
    const std::string& id = request.request_id;
    CancelToken token;
    {
      std::lock_guard lock(mutex);
      token = tokens.at(id);
    }
    std::optional<ControlPayload> payload;
    std::string error;
    std::optional<std::string> error_code;
    try {
      payload.emplace((handlers.at(request.subtype))(request, token));
    } catch (const ControlError& e) {
      error = e.error();
      error_code = e.error_code();
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "handler for " + request.subtype + " threw a non-standard exception";
    }
    bool idle_now = false;
    with_core([&](ControlCore& c) {
      tokens.erase(id);
      if (payload)
        c.answer(id, *payload, Clock::now());
      else
        c.answer_error(id, error, error_code, Clock::now());
      idle_now = c.inbound_in_flight() == 0;
    });
    if (idle_now && listener.on_handlers_idle) listener.on_handlers_idle();
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
  while (!s.done) {
    if (!s.deadline) {
      s.cv.wait(lock);
      continue;
    }
    if (s.cv.wait_until(lock, *s.deadline) != std::cv_status::timeout) continue;
    // The deadline passed: the core expires the request (cancel frame, TimeoutError).
    lock.unlock();
    if (auto engine = s.engine.lock())
      engine->with_core([](ControlCore& core) { core.advance(Clock::now()); });
    else
      s.complete(nullptr, std::make_exception_ptr(
                              TimeoutError("control request " + s.subtype + " (request_id " +
                                           s.request_id + ") got no answer: the session is gone")));
    lock.lock();
    s.deadline.reset();  // the outcome came with advance()
  }
  if (s.error) std::rethrow_exception(s.error);
  return s.response;
}

void PendingControl::cancel() {
  auto& s = *state_;
  if (auto engine = s.engine.lock())
    engine->with_core([&](ControlCore& core) { core.cancel_request(s.request_id); });
  s.complete(nullptr, std::make_exception_ptr(CancelledError("control request " + s.subtype +
                                                             " (request_id " + s.request_id +
                                                             ") was cancelled by the host")));
}

// ---- ControlProtocol ----------------------------------------------------------------------

ControlProtocol::ControlProtocol(Transport& transport, Config config)
    : engine_(std::make_shared<Engine>(
          transport, control::CoreConfig{.request_timeout = config.request_timeout,
                                         .max_line_bytes = config.max_line_bytes,
                                         .id_salt = random_salt(),
                                         .handled_subtypes = {}})) {}

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
  {
    std::lock_guard core_lock(e.mutex);
    if (!e.core) {
      e.config.pass_bulk_unparsed = static_cast<bool>(e.listener.on_unparsed);
      for (const auto& [subtype, handler] : e.handlers) e.config.handled_subtypes.insert(subtype);
      e.core.emplace(e.config, Clock::now());
    }
  }
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
  auto& e = *engine_;
  auto state = std::make_shared<PendingControl::State>();
  state->subtype = std::string(subtype);
  state->engine = engine_;
  Engine::Output out;
  {
    std::lock_guard lock(e.mutex);
    if (!e.core) e.core.emplace(e.config, Clock::now());  // a request before start()
    const auto now = Clock::now();
    state->request_id = e.core->start_request(subtype, std::move(payload), timeout, now);
    const auto t = timeout.value_or(e.config.request_timeout);
    if (t.count() > 0) state->deadline = now + t;
    e.waiters.emplace(state->request_id, state);
    e.collect(out);
  }
  // Our own frame first: the only frame this call queued, unless the session had ended.
  for (auto& [waiter, outcome] : out.outcomes)
    waiter->complete(std::move(outcome.payload), std::move(outcome.error));
  for (const auto& frame : out.frames) {
    try {
      e.transport.write(frame);
    } catch (const ConnectionError&) {
      auto error = std::current_exception();
      e.with_core([&](ControlCore& core) { core.fail_request(state->request_id, error); });
    }
  }
  return PendingControl(state);
}

void ControlProtocol::fail(const std::exception_ptr& error) {
  engine_->with_core([&](ControlCore& core) { core.fail(error); });
}

std::size_t ControlProtocol::inbound_in_flight() const {
  std::lock_guard lock(engine_->mutex);
  return engine_->core ? engine_->core->inbound_in_flight() : 0;
}

std::size_t ControlProtocol::outbound_pending() const {
  std::lock_guard lock(engine_->mutex);
  return engine_->core ? engine_->core->outbound_pending() : 0;
}

std::chrono::steady_clock::time_point ControlProtocol::last_activity() const {
  std::lock_guard lock(engine_->mutex);
  return engine_->core ? engine_->core->last_activity() : Clock::now();
}

}  // namespace claude::sdk
