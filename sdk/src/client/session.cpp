#include "client/session.hpp"

#include <algorithm>

#include "api/callback_answers.hpp"
#include "messages/frame_writer.hpp"
#include "process/argv_builder.hpp"
#include "process/cli_discovery.hpp"
#include "process/subprocess_transport.hpp"

namespace claude::sdk::client {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::unique_ptr<Transport> make_subprocess(const Options& o) {
  std::string cli = find_cli(o.cli_path, o.search_login_shell);
  ProcessLaunch launch{build_argv(o, cli), build_environment(o, host_environment()), o.cwd,
                       o.own_process_group};
  return std::make_unique<SubprocessTransport>(std::move(launch),
                                               SubprocessOptions{.max_line_bytes = o.max_line_bytes,
                                                                 .on_stderr_line = o.on_stderr,
                                                                 .grace = o.close_grace,
                                                                 .term_wait = o.term_wait});
}

bool is_terminal_task_status(const std::string& s) {
  return s == "completed" || s == "failed" || s == "stopped" || s == "killed";
}

// How long the reader, at the cap, waits while one of our writes is under way before it reads on:
// longer than a write that does not block takes, scheduling delays included (the consumer may lose
// its CPU to the CLI it just woke before it counts the write as done), and short enough for a
// write that blocks on a CLI that is itself waiting for us to read its stdout.
constexpr auto kWriteGrace = std::chrono::milliseconds(50);

// A waiting consumer is woken at the end of each batch of lines; within a long batch (a transport
// that buffers a lot, or none that reports its buffer) also after this many bytes, so it can work
// while the reader goes on.
constexpr std::size_t kMaxWakeBytes = 1u << 20;

std::size_t wake_bytes_for(std::size_t cap) {
  return cap == 0 ? kMaxWakeBytes : std::clamp<std::size_t>(cap / 4, 1, kMaxWakeBytes);
}

}  // namespace

// Runs one write of ours (`step`, for the error when not connected) to the CLI's stdin; a reader
// waiting for room meanwhile waits at most kWriteGrace (wait_for_room).
template <class Write>
auto Session::writing(std::string_view step, Write&& write) {
  if (!protocol_) throw ConnectionError(std::string(step) + ": the session is not connected");
  {
    std::lock_guard lock(queue_mutex_);
    ++writes_in_progress_;
  }
  room_cv_.notify_one();  // a reader waiting for room starts its grace period
  struct Done {
    Session& session;
    ~Done() {
      {
        std::lock_guard lock(session.queue_mutex_);
        if (--session.writes_in_progress_ == 0) session.read_through_writes_ = false;
      }
      session.room_cv_.notify_one();  // a reader in its grace period waits as usual again
    }
  } done{*this};
  return write();
}

Session::Session(Options options, std::unique_ptr<Transport> transport)
    : options_(std::move(options)),
      transport_(std::move(transport)),
      wake_bytes_(wake_bytes_for(options_.max_queued_message_bytes)) {}

Session::~Session() {
  close();
}

void Session::connect() {
  if (connected_) return;
  // Argument errors and a missing CLI surface before anything starts.
  if (!transport_) transport_ = make_subprocess(options_);
  protocol_ = std::make_unique<ControlProtocol>(
      *transport_, ControlProtocol::Config{.request_timeout = options_.control_timeout,
                                           .max_line_bytes = options_.max_line_bytes});
  install_handlers();
  transport_->connect();
  connected_ = true;
  protocol_->start(ControlListener{
      [this](Message&& m) { on_message(std::move(m)); },
      [this](std::exception_ptr error, const StreamEnd&) { on_end(std::move(error)); }, nullptr,
      [this] { on_batch_end(); },
      [this](InboundLine&& line, std::size_t line_number, MessageType type) {
        on_unparsed(std::move(line), line_number, type);
      },
      [this] { on_handlers_idle(); }});
  PendingControl initialize = writing("initialize", [&] {
    return protocol_->send_request("initialize", initialize_request(), options_.initialize_timeout);
  });
  server_info_ = initialize.wait();
}

json Session::initialize_request() const {
  json request = json::object();
  if (json hooks = api::register_hooks(options_.hooks).wire; !hooks.is_null())
    request["hooks"] = std::move(hooks);
  if (!options_.agents.is_null()) request["agents"] = options_.agents;
  if (options_.system_prompt_in_initialize) {
    const auto& sp = options_.system_prompt;
    if (sp.kind == SystemPrompt::Kind::text) request["systemPrompt"] = json::array({sp.value});
    if (sp.kind == SystemPrompt::Kind::preset && !sp.append.empty())
      request["appendSystemPrompt"] = sp.append;
  }
  if (options_.sdk_mcp_style == SdkMcpStyle::initialize_manifests &&
      !options_.sdk_mcp_servers.empty()) {
    json names = json::array();
    json manifests = json::object();
    for (const auto& server : options_.sdk_mcp_servers) {
      names.push_back(server->name());
      manifests[server->name()] = server->manifest();
    }
    request["sdkMcpServers"] = std::move(names);
    request["sdkMcpServerManifests"] = std::move(manifests);
  }
  return request;
}

void Session::install_handlers() {
  auto hooks = api::register_hooks(options_.hooks);
  for (std::size_t i = 0; i < hooks.callbacks.size(); ++i)
    hook_callbacks_["hook_" + std::to_string(i)] = std::move(hooks.callbacks[i]);

  protocol_->set_handler("can_use_tool", [this](const ControlRequest& r, const CancelToken& c) {
    if (!options_.can_use_tool) throw std::runtime_error("canUseTool callback is not provided.");
    const auto* typed = std::get_if<CanUseToolRequest>(&r.typed);
    if (!typed) throw std::runtime_error("can_use_tool request without tool_name/input");
    return ControlPayload::serialized(api::answer_permission(options_.can_use_tool, *typed, c));
  });

  protocol_->set_handler("hook_callback", [this](const ControlRequest& r, const CancelToken& c) {
    const auto* typed = std::get_if<HookCallbackRequest>(&r.typed);
    if (!typed) throw std::runtime_error("hook_callback request without callback_id");
    auto it = hook_callbacks_.find(typed->callback_id);
    if (it == hook_callbacks_.end())
      throw std::runtime_error("No hook callback found for ID: " + typed->callback_id);
    return ControlPayload(api::answer_hook(it->second, *typed, c));
  });

  protocol_->set_handler("mcp_message", [this](const ControlRequest& r, const CancelToken&) {
    const auto* typed = std::get_if<McpMessageRequest>(&r.typed);
    if (!typed) throw std::runtime_error("mcp_message request without server_name/message");
    json message = typed->message.value();
    for (const auto& server : options_.sdk_mcp_servers) {
      if (server->name() != typed->server_name) continue;
      auto reply = server->handle(message);
      if (!reply)
        return json{{"mcp_response", {{"jsonrpc", "2.0"}, {"result", json::object()}, {"id", 0}}}};
      return json{{"mcp_response", *reply}};
    }
    if (options_.sdk_mcp_style == SdkMcpStyle::mcp_config)
      return json{
          {"mcp_response",
           {{"jsonrpc", "2.0"},
            {"id", message.is_object() ? message.value("id", json()) : json()},
            {"error",
             {{"code", -32601}, {"message", "Server '" + typed->server_name + "' not found"}}}}}};
    throw std::runtime_error("SDK MCP server not found: " + typed->server_name);
  });
}

void Session::consider_run_end(const Message& message) {
  if (message.is<AssistantMessage>() || message.is<StreamEvent>()) {
    consider_run_end(message.type());
    return;
  }
  bool end_now = false;
  {
    std::lock_guard lock(run_mutex_);
    const bool was_over = run_over_;
    if (const auto* s = message.get_if<SystemMessage>()) {
      if (s->subtype == "session_state_changed") {
        reports_state_ = true;
        if (s->state == "idle" && saw_result_ && agent_tasks_.empty()) run_over_ = true;
      } else if (s->subtype == "task_started") {
        // A task_type that is not a string (a CLI bug, a newer CLI) names no agent task.
        const json& j = message.json();
        const auto type = j.find("task_type");
        if (type != j.end() && (*type == "local_agent" || *type == "local_workflow"))
          agent_tasks_.insert(s->task_id);
      } else if ((s->subtype == "task_notification" || s->subtype == "task_updated") &&
                 is_terminal_task_status(s->task_status)) {
        agent_tasks_.erase(s->task_id);
      }
    } else if (message.is<ResultMessage>()) {
      saw_result_ = true;
      if (!reports_state_ && agent_tasks_.empty()) run_over_ = true;
    }
    end_now = run_over_ && !was_over && close_at_run_end_;
  }
  if (end_now) transport_->end_input();
}

// By type alone, for lines still unparsed: an assistant message or a stream event starts a new
// turn (a background agent's follow-up), so the run is not over; it never ends one.
void Session::consider_run_end(MessageType type) {
  if (type != MessageType::assistant && type != MessageType::stream_event) return;
  std::lock_guard lock(run_mutex_);
  saw_result_ = false;
  run_over_ = false;
}

// ---- hand-off: reader side -------------------------------------------------------------------

void Session::on_message(Message&& message) {
  consider_run_end(message);
  if (const auto* s = message.get_if<SystemMessage>(); s && s->sdk_host_only) return;
  const std::size_t bytes = message.line_size();
  enqueue(std::move(message), bytes);
}

void Session::on_unparsed(InboundLine&& line, std::size_t line_number, MessageType type) {
  consider_run_end(type);
  const std::size_t bytes = line.view().size();
  enqueue(UnparsedLine{std::move(line), line_number, type}, bytes);
}

void Session::enqueue(Queued&& item, std::size_t bytes) {
  std::unique_lock lock(queue_mutex_);
  queue_.push_back(std::move(item));
  const std::size_t queued = queued_bytes_.fetch_add(bytes) + bytes;
  stats_.peak_queued_bytes = std::max(stats_.peak_queued_bytes, queued);
  unsignalled_ = true;
  unsignalled_bytes_ += bytes;
  const std::size_t cap = options_.max_queued_message_bytes;
  if (cap != 0 && queued >= cap) {
    wait_for_room(lock);
    return;
  }
  if (unsignalled_bytes_ < wake_bytes_ || !consumer_owed_wake()) return;
  lock.unlock();
  queue_cv_.notify_one();
}

void Session::on_batch_end() {
  std::unique_lock lock(queue_mutex_);
  if (!consumer_owed_wake()) return;
  lock.unlock();
  queue_cv_.notify_one();
}

void Session::on_handlers_idle() {
  {
    std::lock_guard lock(queue_mutex_);
    if (!consumer_waiting_) return;
  }
  queue_cv_.notify_one();
}

// queue_mutex_ held: whether a waiting consumer is to be woken for what was pushed since it was
// last woken (then counted as woken).
bool Session::consumer_owed_wake() {
  if (!consumer_waiting_ || !unsignalled_) return false;
  unsignalled_ = false;
  unsignalled_bytes_ = 0;
  return true;
}

// The queue is full: stop reading (the CLI's pipe fills and the CLI waits) until the consumer has
// taken half of it. `reader_waiting_` and `queued_bytes_` are set and read in opposite orders by
// this thread and release(), so one of the two always sees the other's change.
void Session::wait_for_room(std::unique_lock<std::mutex>& lock) {
  const std::size_t low_water = options_.max_queued_message_bytes / 2;
  if (consumer_owed_wake()) queue_cv_.notify_one();
  while (reader_may_wait()) {
    reader_waiting_.store(true);
    if (queued_bytes_.load() <= low_water) break;
    ++stats_.reader_waits;
    if (writes_in_progress_ == 0) {
      room_cv_.wait(lock);
    } else if (room_cv_.wait_for(lock, kWriteGrace) == std::cv_status::timeout &&
               writes_in_progress_ > 0) {
      read_through_writes_ = true;  // the write may be waiting for us: read on until it ends
    }
  }
  reader_waiting_.store(false);
}

// queue_mutex_ held. An answer to one of our requests is somewhere behind the queued lines; a
// reader that stopped would never get to it. A CLI blocked on its full stdout pipe may stop reading
// its stdin (Node writes to a pipe synchronously), so a write of ours can block until the reader
// reads on; when the writer is the consumer, a waiting reader would wait for ever: once a write
// has outlasted kWriteGrace, the reader reads on until no write is under way. (A request is
// pending before its frame is written, and writing() wakes the reader when the write is over.)
bool Session::reader_may_wait() {
  return !abandoned_ && !read_through_writes_ && protocol_->outbound_pending() == 0;
}

void Session::on_end(std::exception_ptr error) {
  {
    std::lock_guard lock(queue_mutex_);
    ended_ = true;
    end_error_ = std::move(error);
  }
  queue_cv_.notify_all();
}

// ---- hand-off: consumer side -----------------------------------------------------------------

std::optional<Message> Session::next_message() {
  if (consumer_error_) std::rethrow_exception(consumer_error_);
  // One object returned on every path, so that it is built in the caller's place: each move of a
  // Message (over 600 bytes) costs as much as a small parse.
  std::optional<Message> m;
  while (!m) {
    if (taken_next_ == taken_.size() && !take_batch()) return m;
    Queued& item = taken_[taken_next_++];
    if (auto* message = std::get_if<Message>(&item)) {
      m.emplace(std::move(*message));
    } else {
      parse_unparsed(std::get<UnparsedLine>(item), m);
    }
  }
  release(m->line_size());
  return m;
}

// Parses a line the reader passed on unparsed into `out`; leaves `out` empty for a truncated last
// line that is not a message (as the reader skips one). Throws the MessageParseError that ends the
// session when the line is not a message of the type its start announced.
void Session::parse_unparsed(UnparsedLine& unparsed, std::optional<Message>& out) {
  if (!parser_) parser_.emplace();
  InboundLine& line = unparsed.line;
  const std::size_t bytes = line.view().size();
  ParseResult parsed = parser_->parse_moving(std::move(line.text));
  if (auto* error = std::get_if<ParseError>(&parsed)) {
    if (!line.partial) fail_at(unparsed.line_number, *error, line.view());
    release(bytes);
    return;
  }
  auto& message = std::get<Message>(parsed);
  // Only duplicate "type" members make the parse disagree with the line's start (the parser
  // takes the last); a control message among them would have bypassed the control engine.
  if (message.type() != unparsed.type) {
    fail_at(unparsed.line_number,
            ParseError{ParseError::Kind::wrong_type, "/type",
                       "field /type has the wrong type (more than one \"type\" member)"},
            message.line());
  }
  out.emplace(std::move(message));
}

// Ends the session at a bad unparsed line, as the reader ends it at a bad line it parses itself:
// the engine drains the rest of the stream, what was queued after the line is dropped, and this
// and every later call throw the same MessageParseError.
void Session::fail_at(std::size_t line_number, const ParseError& error, std::string_view line) {
  consumer_error_ =
      std::make_exception_ptr(MessageParseError(error, line_number, std::string(line)));
  protocol_->fail(consumer_error_);
  taken_.clear();
  taken_next_ = 0;
  {
    std::lock_guard lock(queue_mutex_);
    queue_.clear();
    queued_bytes_ = 0;
    abandoned_ = true;  // nothing will be taken again: the reader must never wait for room
  }
  room_cv_.notify_all();  // a reader waiting for room drains the stream instead
  std::rethrow_exception(consumer_error_);
}

// Swaps everything queued into `taken_` (all handed out); false at a clean end; throws the end
// error. The emptied slots go back to the reader, unless a burst of small messages made them
// many: then they are freed, so memory follows the byte cap rather than the longest burst.
bool Session::take_batch() {
  constexpr std::size_t kKeptSlots = 1024;
  taken_.clear();
  taken_next_ = 0;
  if (taken_.capacity() > kKeptSlots) taken_ = std::vector<Queued>();
  std::unique_lock lock(queue_mutex_);
  const auto limit = options_.message_inactivity_timeout;
  for (;;) {
    if (!queue_.empty()) {
      taken_.swap(queue_);
      unsignalled_ = false;
      unsignalled_bytes_ = 0;
      return true;
    }
    if (ended_) {
      if (end_error_) std::rethrow_exception(end_error_);
      return false;
    }
    if (!protocol_) throw ConnectionError("receive: the session is not connected");
    consumer_waiting_ = true;
    // While a callback runs the timer is paused: the wait has no deadline (a passed one would
    // return at once, every time, for as long as the callback takes) and on_handlers_idle() ends
    // it. It reads in_flight under queue_mutex_, which that call takes, so the wake-up is not lost.
    if (limit.count() > 0 && protocol_->inbound_in_flight() == 0) {
      auto deadline = protocol_->last_activity() + limit;
      queue_cv_.wait_until(lock, deadline);
      if (queue_.empty() && !ended_ && protocol_->inbound_in_flight() == 0 &&
          Clock::now() >= protocol_->last_activity() + limit) {
        consumer_waiting_ = false;
        throw TimeoutError("no message from the CLI for " + std::to_string(limit.count()) +
                           " ms (Options::message_inactivity_timeout)");
      }
    } else {
      queue_cv_.wait(lock);
    }
    consumer_waiting_ = false;
    ++stats_.consumer_wakeups;
  }
}

void Session::release(std::size_t bytes) {
  const std::size_t left = queued_bytes_.fetch_sub(bytes) - bytes;
  if (left > options_.max_queued_message_bytes / 2 || !reader_waiting_.load() ||
      !reader_waiting_.exchange(false))
    return;
  { std::lock_guard lock(queue_mutex_); }  // the reader is inside room_cv_.wait now
  room_cv_.notify_one();
}

MessageQueueStats Session::queue_stats() const {
  std::lock_guard lock(queue_mutex_);
  MessageQueueStats stats = stats_;
  stats.queued_bytes = queued_bytes_.load();
  return stats;
}

// ---- input, control, teardown ---------------------------------------------------------------

void Session::end_input_at_run_end() {
  bool needs_answers = static_cast<bool>(options_.can_use_tool) || !options_.hooks.empty() ||
                       !options_.sdk_mcp_servers.empty();
  if (!needs_answers) {
    end_input();
    return;
  }
  // The run may already be over: the reader thread can see the result (and idle) before this
  // thread, which wrote the prompt, gets here.
  bool end_now;
  {
    std::lock_guard lock(run_mutex_);
    close_at_run_end_ = true;
    end_now = run_over_;
  }
  if (end_now) end_input();
}

void Session::end_input() {
  if (transport_) transport_->end_input();
}

void Session::write_user_message(std::string_view text, std::string_view session_id) {
  writing("query", [&] { transport_->write(user_message_frame(text, session_id)); });
}

void Session::write_frame(const json& frame) {
  writing("write", [&] { transport_->write(serialize_frame(frame)); });
}

PendingControl Session::send_control(std::string_view subtype, json payload) {
  return writing("control request",
                 [&] { return protocol_->send_request(subtype, std::move(payload)); });
}

json Session::control(std::string_view subtype, json payload) {
  return send_control(subtype, std::move(payload)).wait();
}

void Session::close() {
  if (closed_) return;
  closed_ = true;
  {
    std::lock_guard lock(queue_mutex_);
    abandoned_ = true;
  }
  room_cv_.notify_all();  // a reader waiting for room must go on, to see the end
  if (transport_) transport_->close();
  if (protocol_) protocol_->stop();
}

}  // namespace claude::sdk::client
