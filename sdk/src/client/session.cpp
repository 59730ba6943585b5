#include "client/session.hpp"

#include "claude/sdk/argv_builder.hpp"
#include "claude/sdk/cli_discovery.hpp"
#include "claude/sdk/frame_writer.hpp"
#include "claude/sdk/subprocess_transport.hpp"

namespace claude::sdk::client {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::unique_ptr<Transport> make_subprocess(const Options& o) {
  std::string cli = find_cli(o.cli_path, o.search_login_shell);
  ProcessLaunch launch{build_argv(o, cli), build_environment(o, host_environment()), o.cwd,
                       o.own_process_group};
  SubprocessOptions so;
  so.max_line_bytes = o.max_line_bytes;
  so.on_stderr_line = o.on_stderr;
  so.grace = o.close_grace;
  so.term_wait = o.term_wait;
  return std::make_unique<SubprocessTransport>(std::move(launch), std::move(so));
}

json parsed_or_null(const JsonText& text) {
  return text.present() ? text.value() : json();
}

bool is_terminal_task_status(const std::string& s) {
  return s == "completed" || s == "failed" || s == "stopped" || s == "killed";
}

}  // namespace

Session::Session(Options options, std::unique_ptr<Transport> transport)
    : options_(std::move(options)), transport_(std::move(transport)) {}

Session::~Session() {
  close();
}

void Session::connect() {
  if (connected_) return;
  // Argument errors and a missing CLI surface before anything starts.
  if (!transport_) transport_ = make_subprocess(options_);
  ControlProtocol::Config config;
  config.request_timeout = options_.control_timeout;
  config.max_line_bytes = options_.max_line_bytes;
  protocol_ = std::make_unique<ControlProtocol>(*transport_, config);
  install_handlers();
  transport_->connect();
  connected_ = true;
  protocol_->start(ControlListener{
      [this](Message&& m) { on_message(std::move(m)); },
      [this](std::exception_ptr error, const StreamEnd&) { on_end(std::move(error)); }, nullptr});
  server_info_ =
      protocol_->request("initialize", initialize_request(), options_.initialize_timeout);
}

json Session::initialize_request() const {
  json request = json::object();
  if (!options_.hooks.empty()) {
    json hooks = json::object();
    std::size_t n = 0;
    for (const auto& [event, matchers] : options_.hooks) {
      json list = json::array();
      for (const auto& m : matchers) {
        json ids = json::array();
        for (std::size_t i = 0; i < m.callbacks.size(); ++i)
          ids.push_back("hook_" + std::to_string(n++));
        json entry = {{"matcher", m.matcher ? json(*m.matcher) : json()}, {"hookCallbackIds", ids}};
        if (m.timeout_seconds) entry["timeout"] = *m.timeout_seconds;
        list.push_back(std::move(entry));
      }
      hooks[event] = std::move(list);
    }
    request["hooks"] = std::move(hooks);
  }
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
  std::size_t n = 0;
  for (const auto& [event, matchers] : options_.hooks)
    for (const auto& m : matchers)
      for (const auto& cb : m.callbacks) hook_callbacks_["hook_" + std::to_string(n++)] = cb;

  protocol_->set_handler("can_use_tool", [this](const ControlRequest& r, const CancelToken& c) {
    if (!options_.can_use_tool) throw std::runtime_error("canUseTool callback is not provided.");
    const auto* typed = std::get_if<CanUseToolRequest>(&r.typed);
    if (!typed) throw std::runtime_error("can_use_tool request without tool_name/input");
    ToolPermissionRequest request{
        typed->tool_name,    parsed_or_null(typed->input),
        typed->tool_use_id,  parsed_or_null(typed->permission_suggestions),
        typed->blocked_path, typed->agent_id};
    PermissionDecision d = options_.can_use_tool(request, c);
    json out = json::object();
    if (d.allow) {
      out["behavior"] = "allow";
      out["updatedInput"] =
          d.updated_input ? std::move(*d.updated_input) : std::move(request.input);
      if (d.updated_permissions) out["updatedPermissions"] = std::move(*d.updated_permissions);
    } else {
      out["behavior"] = "deny";
      out["message"] = std::move(d.message);
      if (d.interrupt) out["interrupt"] = true;
    }
    out["toolUseID"] = std::move(request.tool_use_id);
    return out;
  });

  protocol_->set_handler("hook_callback", [this](const ControlRequest& r, const CancelToken& c) {
    const auto* typed = std::get_if<HookCallbackRequest>(&r.typed);
    if (!typed) throw std::runtime_error("hook_callback request without callback_id");
    auto it = hook_callbacks_.find(typed->callback_id);
    if (it == hook_callbacks_.end())
      throw std::runtime_error("No hook callback found for ID: " + typed->callback_id);
    HookInput input{typed->hook_event_name, typed->tool_use_id, parsed_or_null(typed->input)};
    json out = it->second(input, c);
    return out.is_null() ? json::object() : out;
  });

  protocol_->set_handler("mcp_message", [this](const ControlRequest& r, const CancelToken&) {
    const auto* typed = std::get_if<McpMessageRequest>(&r.typed);
    if (!typed) throw std::runtime_error("mcp_message request without server_name/message");
    json message = parsed_or_null(typed->message);
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
  bool end_now = false;
  {
    std::lock_guard lock(run_mutex_);
    const bool was_over = run_over_;
    if (const auto* s = message.get_if<SystemMessage>()) {
      if (s->subtype == "session_state_changed") {
        reports_state_ = true;
        if (s->state == "idle" && saw_result_ && agent_tasks_.empty()) run_over_ = true;
      } else if (s->subtype == "task_started") {
        const json& j = message.json();
        std::string type = j.value("task_type", std::string());
        if (type == "local_agent" || type == "local_workflow") agent_tasks_.insert(s->task_id);
      } else if ((s->subtype == "task_notification" || s->subtype == "task_updated") &&
                 is_terminal_task_status(s->task_status)) {
        agent_tasks_.erase(s->task_id);
      }
    } else if (message.is<ResultMessage>()) {
      saw_result_ = true;
      if (!reports_state_ && agent_tasks_.empty()) run_over_ = true;
    } else if (message.is<AssistantMessage>() || message.is<StreamEvent>()) {
      saw_result_ = false;  // a new turn started (background agent follow-up)
      run_over_ = false;
    }
    end_now = run_over_ && !was_over && close_at_run_end_;
  }
  if (end_now) transport_->end_input();
}

void Session::on_message(Message&& message) {
  consider_run_end(message);
  if (const auto* s = message.get_if<SystemMessage>(); s && s->sdk_host_only) return;
  bool wake;
  {
    std::lock_guard lock(queue_mutex_);
    queue_.push_back(std::move(message));
    wake = waiting_;
  }
  if (wake) queue_cv_.notify_one();
}

void Session::on_end(std::exception_ptr error) {
  {
    std::lock_guard lock(queue_mutex_);
    ended_ = true;
    end_error_ = std::move(error);
  }
  queue_cv_.notify_all();
}

std::optional<Message> Session::next_message() {
  std::unique_lock lock(queue_mutex_);
  const auto limit = options_.message_inactivity_timeout;
  for (;;) {
    if (!queue_.empty()) {
      Message m = std::move(queue_.front());
      queue_.pop_front();
      return m;
    }
    if (ended_) {
      if (end_error_) std::rethrow_exception(end_error_);
      return std::nullopt;
    }
    if (!protocol_) throw ConnectionError("receive: the session is not connected");
    waiting_ = true;
    if (limit.count() > 0) {
      auto deadline = protocol_->last_activity() + limit;
      queue_cv_.wait_until(lock, deadline);
      if (queue_.empty() && !ended_ && protocol_->inbound_in_flight() == 0 &&
          Clock::now() >= protocol_->last_activity() + limit) {
        waiting_ = false;
        throw TimeoutError("no message from the CLI for " + std::to_string(limit.count()) +
                           " ms (Options::message_inactivity_timeout)");
      }
    } else {
      queue_cv_.wait(lock);
    }
    waiting_ = false;
  }
}

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
  if (!protocol_) throw ConnectionError("query: the session is not connected");
  protocol_->write(user_message_frame(text, session_id));
}

void Session::write_frame(const json& frame) {
  if (!protocol_) throw ConnectionError("write: the session is not connected");
  protocol_->write(serialize_frame(frame));
}

PendingControl Session::send_control(std::string_view subtype, json payload) {
  if (!protocol_) throw ConnectionError("control request: the session is not connected");
  return protocol_->send_request(subtype, std::move(payload));
}

json Session::control(std::string_view subtype, json payload) {
  return send_control(subtype, std::move(payload)).wait();
}

void Session::close() {
  if (closed_) return;
  closed_ = true;
  if (transport_) transport_->close();
  if (protocol_) protocol_->stop();
}

}  // namespace claude::sdk::client
