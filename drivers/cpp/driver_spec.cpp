#include "driver_spec.hpp"

#include <set>
#include <string_view>

namespace claude::driver {

using nlohmann::json;

namespace {

// Spec option names this driver maps onto claude::sdk::Options (see driver_run.cpp).
const std::set<std::string, std::less<>> kSupportedOptions = {"model",
                                                              "fallback_model",
                                                              "permission_mode",
                                                              "max_turns",
                                                              "max_budget_usd",
                                                              "max_thinking_tokens",
                                                              "include_partial_messages",
                                                              "include_hook_events",
                                                              "allowed_tools",
                                                              "disallowed_tools",
                                                              "tools",
                                                              "system_prompt",
                                                              "append_system_prompt",
                                                              "permission_prompt_tool_name",
                                                              "setting_sources",
                                                              "strict_mcp_config",
                                                              "resume",
                                                              "continue",
                                                              "fork_session",
                                                              "session_id",
                                                              "add_dirs",
                                                              "cwd",
                                                              "extra_args",
                                                              "env"};

const std::set<std::string, std::less<>> kControlCalls = {"interrupt",
                                                          "set_model",
                                                          "set_permission_mode",
                                                          "set_max_thinking_tokens",
                                                          "mcp_status",
                                                          "get_context_usage",
                                                          "rewind_files",
                                                          "stop_task",
                                                          "reconnect_mcp_server",
                                                          "toggle_mcp_server",
                                                          "initialization_result",
                                                          "supported_commands",
                                                          "supported_models",
                                                          "close"};

void require_object(const json& value, const std::string& where) {
  if (!value.is_object()) throw SpecError(where + ": must be a JSON object");
}

void check_members(const json& object, const std::string& where,
                   std::initializer_list<std::string_view> known) {
  for (const auto& [key, value] : object.items()) {
    bool found = false;
    for (auto k : known) found = found || k == key;
    if (!found) throw UnsupportedFeature(where + "." + key);
  }
}

std::string string_member(const json& object, const char* key, const std::string& where) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string())
    throw SpecError(where + ": \"" + key + "\" must be a string");
  return it->get<std::string>();
}

std::optional<std::string> optional_string(const json& object, const char* key,
                                           const std::string& where) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (!it->is_string()) throw SpecError(where + ": \"" + key + "\" must be a string");
  return it->get<std::string>();
}

int non_negative_int(const json& object, const char* key, const std::string& where, int fallback) {
  auto it = object.find(key);
  if (it == object.end()) return fallback;
  if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 86400000)
    throw SpecError(where + ": \"" + key + "\" must be an integer >= 0");
  return it->get<int>();
}

Trigger parse_trigger(const json& value, const std::string& where) {
  Trigger t;
  if (value.is_string()) {
    if (value == "start") return t;
    if (value == "never") {
      t.kind = Trigger::Kind::never;
      return t;
    }
    throw SpecError(where + ": a trigger is \"start\", \"never\" or an object");
  }
  if (!value.is_object())
    throw SpecError(where + ": a trigger is \"start\", \"never\" or an object");
  for (const auto& [key, v] : value.items())
    if (key != "message" && key != "nth" && key != "delay_ms")
      throw SpecError(where + ": unknown trigger member '" + key + "'");
  t.delay_ms = non_negative_int(value, "delay_ms", where, 0);
  if (value.contains("message")) {
    t.kind = Trigger::Kind::message;
    t.pattern = value["message"];
    t.nth = non_negative_int(value, "nth", where, 1);
    if (t.nth < 1) throw SpecError(where + ": \"nth\" must be an integer >= 1");
  } else {
    if (value.contains("nth")) throw SpecError(where + ": \"nth\" needs \"message\"");
    t.kind = Trigger::Kind::delay;
  }
  return t;
}

std::vector<Turn> parse_turns(const json& turns) {
  if (!turns.is_array() || turns.empty())
    throw SpecError("driver spec: \"turns\" must be a non-empty array");
  std::vector<Turn> out;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const std::string where = "driver spec: turns[" + std::to_string(i) + "]";
    const json& turn = turns[i];
    require_object(turn, where);
    check_members(turn, "turns[" + std::to_string(i) + "]", {"text", "message", "when"});
    Turn t;
    const bool has_text = turn.contains("text");
    if (has_text == turn.contains("message"))
      throw SpecError(where + ": needs exactly one of \"text\" or \"message\"");
    if (has_text) {
      t.frame = {
          {"type", "user"},
          {"session_id", ""},
          {"message",
           {{"role", "user"},
            {"content",
             json::array({{{"type", "text"}, {"text", string_member(turn, "text", where)}}})}}},
          {"parent_tool_use_id", nullptr}};
    } else {
      require_object(turn["message"], where + ".message");
      t.frame = turn["message"];
    }
    if (turn.contains("when")) {
      t.when = parse_trigger(turn["when"], where + ".when");
    } else if (i > 0) {
      t.when.kind = Trigger::Kind::message;
      t.when.pattern = {{"type", "result"}};
      t.when.nth = static_cast<int>(i);
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<PermissionRule> parse_rules(const json& rules) {
  if (!rules.is_array()) throw SpecError("driver spec: \"can_use_tool\" must be an array");
  std::vector<PermissionRule> out;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const std::string name = "can_use_tool[" + std::to_string(i) + "]";
    const std::string where = "driver spec: " + name;
    const json& r = rules[i];
    require_object(r, where);
    check_members(r, name,
                  {"tool", "input", "behavior", "updated_input", "updated_permissions", "message",
                   "interrupt", "delay_ms", "throw"});
    PermissionRule rule;
    rule.tool = optional_string(r, "tool", where);
    if (r.contains("input")) rule.input = r["input"];
    rule.throw_text = optional_string(r, "throw", where);
    rule.delay_ms = non_negative_int(r, "delay_ms", where, 0);
    if (!rule.throw_text) {
      const std::string behavior = r.value("behavior", std::string());
      if (behavior != "allow" && behavior != "deny")
        throw SpecError(where + ": \"behavior\" must be \"allow\" or \"deny\" (or give \"throw\")");
      rule.allow = behavior == "allow";
      if (!rule.allow) rule.message = string_member(r, "message", where + " (a deny)");
    }
    if (r.contains("updated_input")) rule.updated_input = r["updated_input"];
    if (r.contains("updated_permissions")) {
      if (!r["updated_permissions"].is_array())
        throw SpecError(where + ": \"updated_permissions\" must be an array");
      rule.updated_permissions = r["updated_permissions"];
    }
    if (r.contains("interrupt")) {
      if (!r["interrupt"].is_boolean()) throw SpecError(where + ": \"interrupt\" must be a bool");
      rule.interrupt = r["interrupt"].get<bool>();
    }
    out.push_back(std::move(rule));
  }
  return out;
}

std::vector<HookSpec> parse_hooks(const json& hooks) {
  if (!hooks.is_array()) throw SpecError("driver spec: \"hooks\" must be an array");
  std::vector<HookSpec> out;
  for (std::size_t i = 0; i < hooks.size(); ++i) {
    const std::string name = "hooks[" + std::to_string(i) + "]";
    const std::string where = "driver spec: " + name;
    const json& h = hooks[i];
    require_object(h, where);
    check_members(h, name, {"event", "matcher", "timeout", "returns", "throw", "delay_ms"});
    HookSpec hook;
    hook.event = string_member(h, "event", where);
    hook.matcher = optional_string(h, "matcher", where);
    if (h.contains("timeout")) hook.timeout = non_negative_int(h, "timeout", where, 0);
    hook.throw_text = optional_string(h, "throw", where);
    hook.delay_ms = non_negative_int(h, "delay_ms", where, 0);
    if (!hook.throw_text) {
      if (!h.contains("returns") || !h["returns"].is_object())
        throw SpecError(where + ": give \"returns\" (hook JSON output, an object) or \"throw\"");
      hook.returns = h["returns"];
    }
    out.push_back(std::move(hook));
  }
  return out;
}

std::vector<McpServerSpec> parse_servers(const json& servers) {
  if (!servers.is_array()) throw SpecError("driver spec: \"mcp_servers\" must be an array");
  std::vector<McpServerSpec> out;
  for (std::size_t i = 0; i < servers.size(); ++i) {
    const std::string name = "mcp_servers[" + std::to_string(i) + "]";
    const std::string where = "driver spec: " + name;
    const json& s = servers[i];
    require_object(s, where);
    check_members(s, name, {"name", "version", "tools"});
    McpServerSpec server;
    server.name = string_member(s, "name", where);
    server.version = optional_string(s, "version", where).value_or("1.0.0");
    const json tools = s.value("tools", json::array());
    if (!tools.is_array()) throw SpecError(where + ": \"tools\" must be an array");
    for (std::size_t j = 0; j < tools.size(); ++j) {
      const std::string tname = name + ".tools[" + std::to_string(j) + "]";
      const std::string twhere = "driver spec: " + tname;
      const json& t = tools[j];
      require_object(t, twhere);
      check_members(t, tname,
                    {"name", "description", "input_schema", "returns", "throw", "delay_ms"});
      McpToolSpec tool;
      tool.name = string_member(t, "name", twhere);
      tool.description = optional_string(t, "description", twhere).value_or("");
      tool.input_schema =
          t.value("input_schema", json{{"type", "object"}, {"properties", json::object()}});
      if (!tool.input_schema.is_object() || tool.input_schema.value("type", "") != "object")
        throw SpecError(twhere + ": \"input_schema\" must describe an object");
      tool.throw_text = optional_string(t, "throw", twhere);
      tool.delay_ms = non_negative_int(t, "delay_ms", twhere, 0);
      if (!tool.throw_text) {
        if (!t.contains("returns") || !t["returns"].is_object())
          throw SpecError(twhere + ": give \"returns\" (an MCP CallToolResult) or \"throw\"");
        tool.returns = t["returns"];
        // McpToolResult carries content and isError only; anything else would be dropped
        // silently, so say so instead.
        for (const auto& [key, v] : tool.returns.items())
          if (key != "content" && key != "isError")
            throw UnsupportedFeature(tname + ".returns." + key);
        if (!tool.returns.value("content", json::array()).is_array())
          throw SpecError(twhere + ": \"returns.content\" must be an array");
      }
      server.tools.push_back(std::move(tool));
    }
    out.push_back(std::move(server));
  }
  return out;
}

std::vector<ControlCall> parse_control(const json& calls) {
  if (!calls.is_array()) throw SpecError("driver spec: \"control\" must be an array");
  std::vector<ControlCall> out;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const std::string name = "control[" + std::to_string(i) + "]";
    const std::string where = "driver spec: " + name;
    const json& c = calls[i];
    require_object(c, where);
    check_members(c, name, {"call", "args", "when"});
    ControlCall call;
    call.call = string_member(c, "call", where);
    if (!kControlCalls.contains(call.call)) throw UnsupportedFeature("control." + call.call);
    if (c.contains("args")) {
      require_object(c["args"], where + ".args");
      call.args = c["args"];
    }
    if (c.contains("when")) call.when = parse_trigger(c["when"], where + ".when");
    out.push_back(std::move(call));
  }
  return out;
}

}  // namespace

DriverSpec parse_driver_spec(const json& spec) {
  require_object(spec, "driver spec");
  check_members(spec, "driver spec",
                {"prompt", "turns", "end_input", "options", "can_use_tool", "hooks", "mcp_servers",
                 "control", "capture_stderr", "timeout_ms"});
  DriverSpec out;
  if (spec.contains("prompt") == spec.contains("turns"))
    throw SpecError(
        "driver spec: exactly one of \"prompt\" (one-shot) or \"turns\" (streaming input) is "
        "required");
  if (spec.contains("prompt")) out.prompt = string_member(spec, "prompt", "driver spec");
  if (spec.contains("turns")) {
    out.turns = parse_turns(spec["turns"]);
    if (spec.contains("end_input"))
      out.end_input = parse_trigger(spec["end_input"], "driver spec: end_input");
  } else if (spec.contains("end_input")) {
    throw SpecError("driver spec: \"end_input\" only applies to \"turns\"");
  }
  if (spec.contains("options")) {
    require_object(spec["options"], "driver spec: options");
    for (const auto& [key, v] : spec["options"].items())
      if (!kSupportedOptions.contains(key)) throw UnsupportedFeature("options." + key);
    out.options = spec["options"];
  }
  if (spec.contains("can_use_tool")) out.can_use_tool = parse_rules(spec["can_use_tool"]);
  if (spec.contains("hooks")) out.hooks = parse_hooks(spec["hooks"]);
  if (spec.contains("mcp_servers")) out.mcp_servers = parse_servers(spec["mcp_servers"]);
  if (spec.contains("control")) out.control = parse_control(spec["control"]);
  if (spec.contains("capture_stderr")) {
    if (!spec["capture_stderr"].is_boolean())
      throw SpecError("driver spec: \"capture_stderr\" must be a bool");
    out.capture_stderr = spec["capture_stderr"].get<bool>();
  }
  out.timeout_ms = non_negative_int(spec, "timeout_ms", "driver spec", 20000);
  if (out.timeout_ms == 0) throw SpecError("driver spec: \"timeout_ms\" must be positive");
  return out;
}

}  // namespace claude::driver
