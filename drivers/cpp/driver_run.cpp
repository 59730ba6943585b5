#include "driver_run.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

#include "claude/base/subprocess.hpp"
#include "claude/sdk/client.hpp"
#include "claude/sdk/errors.hpp"
#include "claude/sdk/query.hpp"
#include "json_superset.hpp"

namespace claude::driver {

using nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr auto kSettle = 2000ms;  // how long in-flight control calls may take to report

// --- options ------------------------------------------------------------------------------------

void apply_options(const json& options, sdk::Options& o) {
  for (const auto& [key, v] : options.items()) {
    if (key == "model") {
      o.model = v.get<std::string>();
    } else if (key == "fallback_model") {
      o.fallback_model = v.get<std::string>();
    } else if (key == "permission_mode") {
      // A mode newer than the SDK's enum still reaches the CLI, as the other drivers pass it.
      const auto name = v.get<std::string>();
      if (auto mode = sdk::permission_mode_from_string(name))
        o.permission_mode = *mode;
      else
        o.extra_args.emplace_back("permission-mode", name);
    } else if (key == "max_turns") {
      o.max_turns = v.get<int>();
    } else if (key == "max_budget_usd") {
      o.max_budget_usd = v.get<double>();
    } else if (key == "max_thinking_tokens") {
      o.thinking = sdk::ThinkingConfig{sdk::ThinkingConfig::Kind::enabled, v.get<int>()};
    } else if (key == "include_partial_messages") {
      o.include_partial_messages = v.get<bool>();
    } else if (key == "include_hook_events") {
      // Options has no member for it; the CLI flag is what that option would add.
      if (v.get<bool>()) o.extra_args.emplace_back("include-hook-events", std::nullopt);
    } else if (key == "allowed_tools") {
      o.allowed_tools = v.get<std::vector<std::string>>();
    } else if (key == "disallowed_tools") {
      o.disallowed_tools = v.get<std::vector<std::string>>();
    } else if (key == "tools") {
      o.tools = v.get<std::vector<std::string>>();
    } else if (key == "system_prompt") {
      if (v.is_string()) {
        o.system_prompt = {sdk::SystemPrompt::Kind::text, v.get<std::string>(), ""};
      } else {  // a preset object (the schema allows nothing else)
        o.system_prompt = {sdk::SystemPrompt::Kind::preset, "", v.value("append", "")};
      }
    } else if (key == "append_system_prompt") {
      o.system_prompt = {sdk::SystemPrompt::Kind::preset, "", v.get<std::string>()};
    } else if (key == "permission_prompt_tool_name") {
      o.permission_prompt_tool = v.get<std::string>();
    } else if (key == "setting_sources") {
      o.setting_sources = v.get<std::vector<std::string>>();
    } else if (key == "strict_mcp_config") {
      o.strict_mcp_config = v.get<bool>();
    } else if (key == "resume") {
      o.resume = v.get<std::string>();
    } else if (key == "continue") {
      o.continue_conversation = v.get<bool>();
    } else if (key == "fork_session") {
      o.fork_session = v.get<bool>();
    } else if (key == "session_id") {
      o.session_id = v.get<std::string>();
    } else if (key == "add_dirs") {
      o.add_dirs = v.get<std::vector<std::string>>();
    } else if (key == "cwd") {
      o.cwd = v.get<std::string>();
    } else if (key == "extra_args") {
      for (const auto& [flag, value] : v.items()) {
        if (value.is_null())
          o.extra_args.emplace_back(flag, std::nullopt);
        else
          o.extra_args.emplace_back(flag, value.get<std::string>());
      }
    } else if (key == "env") {
      for (const auto& [name, value] : v.items()) o.env[name] = value.get<std::string>();
    } else {
      throw UnsupportedFeature("options." + key);
    }
  }
}

// --- errors -------------------------------------------------------------------------------------

std::string error_name(const std::exception& e) {
  if (dynamic_cast<const sdk::ResultError*>(&e)) return "ResultError";
  if (dynamic_cast<const sdk::ProcessError*>(&e)) return "ProcessError";
  if (dynamic_cast<const sdk::ControlError*>(&e)) return "ControlError";
  if (dynamic_cast<const sdk::TimeoutError*>(&e)) return "TimeoutError";
  if (dynamic_cast<const sdk::CancelledError*>(&e)) return "CancelledError";
  if (dynamic_cast<const sdk::MessageParseError*>(&e)) return "MessageParseError";
  if (dynamic_cast<const sdk::CLINotFoundError*>(&e)) return "CLINotFoundError";
  if (dynamic_cast<const sdk::ConnectionError*>(&e)) return "ConnectionError";
  if (dynamic_cast<const sdk::SdkError*>(&e)) return "SdkError";
  if (dynamic_cast<const std::invalid_argument*>(&e)) return "InvalidArgument";
  return "Error";
}

// Kills the driver's own children (the CLI) so that a timed-out run leaves no orphan behind.
// The SDK cannot be torn down from another thread while it is blocked, and the driver's process
// group may be the grader's, so the children are found by parent pid.
void kill_children() {
  const pid_t self = ::getpid();
  for (const auto& process : claude::base::list_processes()) {
    if (process.ppid == self) ::kill(process.pid, SIGKILL);
  }
}

[[noreturn]] void exit_now(int code) {
  std::fflush(stdout);
  kill_children();
  std::_Exit(code);
}

// --- triggers -----------------------------------------------------------------------------------

// A one-shot event a thread can wait for; `abandon` releases waiters without firing.
class Latch {
 public:
  void fire() { set(fired_); }
  void abandon() { set(abandoned_); }
  // True when fired, false when abandoned.
  bool wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [&] { return fired_ || abandoned_; });
    return fired_;
  }

 private:
  void set(bool& flag) {
    {
      std::lock_guard lock(mutex_);
      flag = true;
    }
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  bool fired_ = false;
  bool abandoned_ = false;
};

// Arms every trigger when the session is created and counts matching messages from then on.
class TriggerBoard {
 public:
  std::shared_ptr<Latch> arm(const Trigger& trigger) {
    auto latch = std::make_shared<Latch>();
    std::lock_guard lock(mutex_);
    latches_.push_back(latch);
    switch (trigger.kind) {
      case Trigger::Kind::start:
        latch->fire();
        break;
      case Trigger::Kind::never:
        break;
      case Trigger::Kind::delay:
        fire_after(latch, trigger.delay_ms);
        break;
      case Trigger::Kind::message:
        waiting_.push_back({trigger.pattern, trigger.nth, trigger.delay_ms, latch});
        break;
    }
    return latch;
  }

  void on_message(const json& message) {
    std::lock_guard lock(mutex_);
    for (auto it = waiting_.begin(); it != waiting_.end();) {
      if (json_superset_match(it->pattern, message) && --it->remaining == 0) {
        fire_after(it->latch, it->delay_ms);
        it = waiting_.erase(it);
      } else {
        ++it;
      }
    }
  }

  // Releases every thread still waiting on a trigger, and stops pending delays.
  void abandon_all() {
    std::vector<std::thread> timers;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      for (auto& latch : latches_) latch->abandon();
      timers.swap(timers_);
    }
    stop_cv_.notify_all();
    for (auto& t : timers) t.join();
  }

  ~TriggerBoard() { abandon_all(); }

 private:
  struct Waiting {
    json pattern;
    int remaining;
    int delay_ms;
    std::shared_ptr<Latch> latch;
  };

  // Called with mutex_ held.
  void fire_after(const std::shared_ptr<Latch>& latch, int delay_ms) {
    if (delay_ms == 0) {
      latch->fire();
      return;
    }
    timers_.emplace_back([this, latch, delay_ms] {
      std::unique_lock lock(mutex_);
      if (!stop_cv_.wait_for(lock, std::chrono::milliseconds(delay_ms), [&] { return stopping_; }))
        latch->fire();
    });
  }

  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::vector<Waiting> waiting_;
  std::vector<std::shared_ptr<Latch>> latches_;
  std::vector<std::thread> timers_;
};

// --- the run ------------------------------------------------------------------------------------

class DriverRun {
 public:
  DriverRun(const DriverInvocation& invocation, ObservationLog& log)
      : inv_(invocation), spec_(invocation.spec), log_(log) {}

  sdk::Options build_options() {
    sdk::Options o;
    o.cli_path = inv_.fake_claude;
    if (inv_.scenario) o.cli_prefix_args = {"--scenario", *inv_.scenario};
    apply_options(spec_.options, o);
    if (spec_.can_use_tool) o.can_use_tool = permission_callback();
    for (const auto& hook : spec_.hooks) {
      sdk::HookMatcher matcher;
      matcher.matcher = hook.matcher;
      if (hook.timeout) matcher.timeout_seconds = *hook.timeout;
      matcher.callbacks.push_back(hook_callback(hook));
      auto event = sdk::hook_event_from_string(hook.event);
      if (!event) throw UnsupportedFeature("hooks." + hook.event);
      o.hooks[*event].push_back(std::move(matcher));
    }
    for (const auto& server : spec_.mcp_servers) o.sdk_mcp_servers.push_back(mcp_server(server));
    if (spec_.capture_stderr)
      o.on_stderr = [this](std::string_view line) {
        log_.write({{"obs", "stderr"}, {"data", std::string(line)}});
      };
    // The spec's timeout_ms bounds the session; the SDK's own timeouts must not fire first and
    // turn a hang into a different observation.
    const auto limit = std::chrono::milliseconds(spec_.timeout_ms) + 10s;
    o.initialize_timeout = limit;
    o.control_timeout = limit;
    o.message_inactivity_timeout = limit;
    return o;
  }

  int run(sdk::Options options) {
    std::jthread watchdog([this](const std::stop_token& done) { watch(done); });
    bool ok = true;
    try {
      if (spec_.prompt && spec_.control.empty())
        run_query(std::move(options));
      else
        run_client(std::move(options));
    } catch (const std::exception& e) {
      ok = false;
      log_.write({{"obs", "error"}, {"message", e.what()}, {"name", error_name(e)}});
    }
    // Calls whose trigger never fired stay unfired by design; the others get time to report.
    triggers_.abandon_all();
    const bool settled = wait_for_calls(kSettle);
    watchdog.request_stop();
    watchdog.join();
    if (!timed_out_) {
      log_.write({{"obs", "end"}, {"ok", ok}});
      // A control call still blocked inside the SDK cannot be joined; leave without it.
      if (!settled) exit_now(0);
    }
    for (auto& t : workers_) t.join();
    client_.reset();
    return timed_out_ ? 3 : 0;
  }

 private:
  // --- callbacks (run on SDK engine threads) ---

  sdk::CanUseTool permission_callback() {
    return [this](const sdk::ToolPermissionRequest& r,
                  const sdk::CancelToken& cancel) -> sdk::PermissionDecision {
      const InFlight busy(*this);
      const PermissionRule* rule = nullptr;
      for (const auto& candidate : *spec_.can_use_tool) {
        if (candidate.tool && *candidate.tool != r.tool_name) continue;
        if (candidate.input && !json_superset_match(*candidate.input, r.input)) continue;
        rule = &candidate;
        break;
      }
      json seen = {{"tool", r.tool_name}, {"input", r.input}, {"tool_use_id", r.tool_use_id}};
      if (!r.permission_suggestions.is_null()) seen["suggestions"] = r.permission_suggestions;
      if (cancelled_during(rule ? rule->delay_ms : 0, cancel, "can_use_tool", seen))
        return sdk::PermissionDecision::denied("cancelled");
      if (rule) throw_if_given("can_use_tool", seen, rule->throw_text);
      if (rule == nullptr) {
        const std::string why = "driver: no can_use_tool rule matches tool '" + r.tool_name + "'";
        observe("can_use_tool", seen, "returned", {{"behavior", "deny"}, {"message", why}});
        return sdk::PermissionDecision::denied(why);
      }
      if (rule->allow) {
        json returned = {{"behavior", "allow"}};
        if (rule->updated_input) returned["updatedInput"] = *rule->updated_input;
        if (rule->updated_permissions) returned["updatedPermissions"] = *rule->updated_permissions;
        observe("can_use_tool", seen, "returned", returned);
        return sdk::PermissionAllow{.updated_input = rule->updated_input,
                                    .updated_permissions = rule->updated_permissions};
      }
      json returned = {{"behavior", "deny"}, {"message", rule->message}};
      if (rule->interrupt) returned["interrupt"] = *rule->interrupt;
      observe("can_use_tool", seen, "returned", returned);
      return sdk::PermissionDeny{.message = rule->message,
                                 .interrupt = rule->interrupt.value_or(false)};
    };
  }

  sdk::HookCallback hook_callback(const HookSpec& hook) {
    // The spec gives the hook output in wire form, so it is sent as is (HookOutput::extra).
    return [this, &hook](const sdk::HookInput& input,
                         const sdk::CancelToken& cancel) -> sdk::HookOutput {
      const InFlight busy(*this);
      json seen = {{"event", hook.event},
                   {"input", input.raw},
                   {"tool_use_id", input.tool_use_id ? json(*input.tool_use_id) : json()}};
      if (hook.matcher) seen["matcher"] = *hook.matcher;
      if (cancelled_during(hook.delay_ms, cancel, "hook", seen)) return {};
      throw_if_given("hook", seen, hook.throw_text);
      observe("hook", seen, "returned", hook.returns);
      sdk::HookOutput output;
      output.extra = hook.returns;
      return output;
    };
  }

  std::shared_ptr<const sdk::McpServer> mcp_server(const McpServerSpec& spec) {
    auto server = std::make_shared<sdk::McpServer>(spec.name, spec.version);
    for (const auto& tool : spec.tools) {
      sdk::McpTool t;
      t.name = tool.name;
      t.description = tool.description;
      t.input_schema = tool.input_schema;
      t.run = [this, &tool, server_name = spec.name](const json& arguments) {
        const InFlight busy(*this);
        json seen = {{"server", server_name}, {"tool", tool.name}, {"arguments", arguments}};
        // McpTool::run gets no cancel token, so a delay cannot be cut short here.
        if (tool.delay_ms > 0)
          std::this_thread::sleep_for(std::chrono::milliseconds(tool.delay_ms));
        throw_if_given("mcp_tool", seen, tool.throw_text);
        observe("mcp_tool", seen, "returned", tool.returns);
        sdk::McpToolResult result;
        result.content = tool.returns.value("content", json::array());
        result.is_error = tool.returns.value("isError", false);
        return result;
      };
      server->add_tool(std::move(t));
    }
    return server;
  }

  void observe(const char* kind, json seen, const char* outcome, json value) {
    seen["obs"] = kind;
    seen[outcome] = std::move(value);
    log_.write(std::move(seen));
  }

  // Waits out a callback's delay; true, with the abort observed, when the SDK cancelled it.
  bool cancelled_during(int delay_ms, const sdk::CancelToken& cancel, const char* callback,
                        const json& seen) {
    if (!(delay_ms > 0 && cancel.wait_for(std::chrono::milliseconds(delay_ms))) &&
        !cancel.cancelled())
      return false;
    observe("callback_aborted", seen, "callback", callback);
    return true;
  }

  // Observes and throws the error the spec tells a callback to raise, if any.
  void throw_if_given(const char* kind, const json& seen, const std::optional<std::string>& text) {
    if (!text) return;
    observe(kind, seen, "threw", *text);
    throw std::runtime_error(*text);
  }

  // --- sessions ---

  void on_message(const sdk::Message& m) {
    const json& j = m.json();
    log_.write({{"obs", "message"}, {"message", j}});
    triggers_.on_message(j);
    if (m.is<sdk::ResultMessage>()) {
      std::lock_guard lock(mutex_);
      ++results_seen_;
    }
    maybe_end_input();
  }

  void run_query(sdk::Options options) {
    auto q = inv_.transport ? sdk::query(*spec_.prompt, std::move(options), inv_.transport())
                            : sdk::query(*spec_.prompt, std::move(options));
    while (auto m = q.next()) on_message(*m);
  }

  void run_client(sdk::Options options) {
    client_ = inv_.transport ? std::make_unique<sdk::Client>(std::move(options), inv_.transport())
                             : std::make_unique<sdk::Client>(std::move(options));
    client_->connect();
    // Arm everything at once so message triggers count from the session's start.
    std::vector<std::shared_ptr<Latch>> turn_latches;
    for (const auto& turn : spec_.turns) turn_latches.push_back(triggers_.arm(turn.when));
    std::shared_ptr<Latch> end_latch;
    if (spec_.end_input) end_latch = triggers_.arm(*spec_.end_input);
    for (const auto& call : spec_.control) {
      auto latch = triggers_.arm(call.when);
      start_worker([this, latch, &call] {
        if (latch->wait()) make_call(call);
      });
    }
    if (spec_.prompt) {
      client_->query(*spec_.prompt, "");
      request_end_input();
    } else {
      start_worker([this, turn_latches, end_latch] {
        for (std::size_t i = 0; i < spec_.turns.size(); ++i) {
          if (!turn_latches[i]->wait()) return;
          try {
            client_->send_message(spec_.turns[i].frame);
          } catch (const std::exception& e) {
            log_.write({{"obs", "error"}, {"message", e.what()}, {"name", error_name(e)}});
            return;
          }
          std::lock_guard lock(mutex_);
          ++turns_sent_;
        }
        if (end_latch && !end_latch->wait()) return;
        request_end_input();
      });
    }
    while (auto m = client_->receive_message()) on_message(*m);
  }

  // The input stream is over: stdin closes now when nothing can need it, else at the run end.
  void request_end_input() {
    {
      std::lock_guard lock(mutex_);
      input_over_ = true;
      if (!spec_.has_callbacks() && spec_.control.empty()) run_end_ = true;
    }
    maybe_end_input();
  }

  void maybe_end_input() {
    {
      std::lock_guard lock(mutex_);
      if (!input_over_ || stdin_closed_ || !client_) return;
      if (!run_end_ && results_seen_ < turns_sent_ + (spec_.prompt ? 1 : 0)) return;
      stdin_closed_ = true;
    }
    client_->end_input();
  }

  void make_call(const ControlCall& call) {
    json entry = {{"obs", "control"}, {"call", call.call}};
    try {
      json result = control_result(call);
      entry["ok"] = true;
      entry["result"] = std::move(result);
    } catch (const std::exception& e) {
      entry["ok"] = false;
      entry["error"] = e.what();
    }
    log_.write(std::move(entry));
  }

  json control_result(const ControlCall& call) {
    auto arg = [&](const char* key) { return call.args.value(key, json()); };
    sdk::Client& c = *client_;
    const std::string& n = call.call;
    // Observations are the answers' payloads as sent (`raw`), as every driver reports them.
    if (n == "interrupt") return c.interrupt().raw;
    if (n == "set_model") {
      json model = arg("model");
      return c.set_model(model.is_string() ? std::optional(model.get<std::string>()) : std::nullopt)
          .raw;
    }
    if (n == "set_permission_mode") {
      const auto name = arg("mode").get<std::string>();
      if (auto mode = sdk::permission_mode_from_string(name))
        return c.set_permission_mode(*mode).raw;
      return c.send_control_request("set_permission_mode", {{"mode", name}}).wait();
    }
    if (n == "set_max_thinking_tokens")
      return c
          .send_control_request("set_max_thinking_tokens",
                                {{"max_thinking_tokens", arg("max_thinking_tokens")}})
          .wait();
    if (n == "mcp_status") return c.mcp_status().raw;
    if (n == "get_context_usage") return c.get_context_usage().raw;
    if (n == "rewind_files")
      return c
          .rewind_files(arg("user_message_id").get<std::string>(),
                        arg("dry_run").is_boolean() && arg("dry_run").get<bool>())
          .raw;
    if (n == "stop_task") return c.stop_task(arg("task_id").get<std::string>()).raw;
    if (n == "reconnect_mcp_server")
      return c.mcp_reconnect(arg("server_name").get<std::string>()).raw;
    if (n == "toggle_mcp_server")
      return c.mcp_toggle(arg("server_name").get<std::string>(), arg("enabled").get<bool>()).raw;
    if (n == "initialization_result") return c.server_info();
    if (n == "supported_commands") return c.server_info().value("commands", json());
    if (n == "supported_models") return c.server_info().value("models", json());
    if (n == "close") {
      c.disconnect();
      return nullptr;
    }
    throw UnsupportedFeature("control." + n);
  }

  // --- threads ---

  // Counts a callback or control call as running, so `end` is written only after it reported
  // (an aborted callback may still be unwinding when the session has already ended).
  class InFlight {
   public:
    explicit InFlight(DriverRun& run) : run_(run) {
      std::lock_guard lock(run_.mutex_);
      ++run_.workers_running_;
    }
    ~InFlight() {
      {
        std::lock_guard lock(run_.mutex_);
        --run_.workers_running_;
      }
      run_.cv_.notify_all();
    }
    InFlight(const InFlight&) = delete;
    InFlight& operator=(const InFlight&) = delete;

   private:
    DriverRun& run_;
  };

  // The worker counts as running from now, not from when its thread starts.
  void start_worker(std::function<void()> body) {
    workers_.emplace_back(
        [body = std::move(body), busy = std::make_unique<InFlight>(*this)]() mutable {
          body();
          busy.reset();
        });
  }

  bool wait_for_calls(std::chrono::milliseconds limit) {
    std::unique_lock lock(mutex_);
    return cv_.wait_for(lock, limit, [&] { return workers_running_ == 0; });
  }

  // Until `done` is requested or the session outlives timeout_ms.
  void watch(const std::stop_token& done) {
    std::mutex mutex;
    std::unique_lock lock(mutex);
    if (std::condition_variable_any().wait_for(lock, done,
                                               std::chrono::milliseconds(spec_.timeout_ms),
                                               [&] { return done.stop_requested(); }))
      return;
    log_.write({{"obs", "error"},
                {"message", "driver: the session did not end within " +
                                std::to_string(spec_.timeout_ms) + " ms"},
                {"name", "Timeout"}});
    log_.write({{"obs", "end"}, {"ok", false}, {"timeout", true}});
    if (inv_.on_timeout) {
      timed_out_ = true;
      inv_.on_timeout();
      return;
    }
    exit_now(3);
  }

  const DriverInvocation& inv_;
  const DriverSpec& spec_;
  ObservationLog& log_;
  TriggerBoard triggers_;
  std::unique_ptr<sdk::Client> client_;

  std::mutex mutex_;
  std::condition_variable cv_;
  int results_seen_ = 0;
  int turns_sent_ = 0;
  bool input_over_ = false;
  bool run_end_ = false;
  bool stdin_closed_ = false;
  int workers_running_ = 0;
  std::vector<std::thread> workers_;

  std::atomic<bool> timed_out_{false};
};

}  // namespace

void check_options(const DriverSpec& spec) {
  sdk::Options o;
  apply_options(spec.options, o);
}

int run_driver(const DriverInvocation& invocation, ObservationLog& log) {
  DriverRun run(invocation, log);
  sdk::Options options = run.build_options();
  return run.run(std::move(options));
}

}  // namespace claude::driver
