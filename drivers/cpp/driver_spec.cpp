#include "driver_spec.hpp"

namespace claude::driver {

using nlohmann::json;

namespace {

// Optional members: the schema already fixed their types.
std::optional<std::string> optional_string(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  return it->get<std::string>();
}

Trigger parse_trigger(const json& value) {
  Trigger t;
  if (value == "never") t.kind = Trigger::Kind::never;
  if (!value.is_object()) return t;
  t.delay_ms = value.value("delay_ms", 0);
  if (value.contains("message")) {
    t.kind = Trigger::Kind::message;
    t.pattern = value["message"];
    t.nth = value.value("nth", 1);
  } else {
    t.kind = Trigger::Kind::delay;
  }
  return t;
}

std::vector<Turn> parse_turns(const json& turns) {
  std::vector<Turn> out;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    const json& turn = turns[i];
    Turn t;
    if (turn.contains("text")) {
      t.frame = {{"type", "user"},
                 {"session_id", ""},
                 {"message",
                  {{"role", "user"},
                   {"content", json::array({{{"type", "text"}, {"text", turn["text"]}}})}}},
                 {"parent_tool_use_id", nullptr}};
    } else {
      t.frame = turn["message"];
    }
    if (turn.contains("when")) {
      t.when = parse_trigger(turn["when"]);
    } else if (i > 0) {  // turn n (0-based) after the n-th result (docs/drivers.md, "Turn")
      t.when.kind = Trigger::Kind::message;
      t.when.pattern = {{"type", "result"}};
      t.when.nth = static_cast<int>(i);
    }
    out.push_back(std::move(t));
  }
  return out;
}

PermissionRule parse_rule(const json& r) {
  PermissionRule rule;
  rule.tool = optional_string(r, "tool");
  if (r.contains("input")) rule.input = r["input"];
  rule.throw_text = optional_string(r, "throw");
  rule.delay_ms = r.value("delay_ms", 0);
  rule.allow = r.value("behavior", std::string()) == "allow";
  rule.message = r.value("message", std::string());
  if (r.contains("updated_input")) rule.updated_input = r["updated_input"];
  if (r.contains("updated_permissions")) rule.updated_permissions = r["updated_permissions"];
  if (r.contains("interrupt")) rule.interrupt = r["interrupt"].get<bool>();
  return rule;
}

HookSpec parse_hook(const json& h) {
  HookSpec hook;
  hook.event = h["event"].get<std::string>();
  hook.matcher = optional_string(h, "matcher");
  if (h.contains("timeout")) hook.timeout = h["timeout"].get<int>();
  hook.throw_text = optional_string(h, "throw");
  hook.delay_ms = h.value("delay_ms", 0);
  if (!hook.throw_text) hook.returns = h["returns"];
  return hook;
}

McpServerSpec parse_server(const json& s, const std::string& name) {
  McpServerSpec server;
  server.name = s["name"].get<std::string>();
  server.version = optional_string(s, "version").value_or("1.0.0");
  const json tools = s.value("tools", json::array());
  for (std::size_t j = 0; j < tools.size(); ++j) {
    const json& t = tools[j];
    McpToolSpec tool;
    tool.name = t["name"].get<std::string>();
    tool.description = optional_string(t, "description").value_or("");
    tool.input_schema =
        t.value("input_schema", json{{"type", "object"}, {"properties", json::object()}});
    tool.throw_text = optional_string(t, "throw");
    tool.delay_ms = t.value("delay_ms", 0);
    if (!tool.throw_text) {
      tool.returns = t["returns"];
      // McpToolResult carries content and isError only; anything else would be dropped
      // silently, so say so instead.
      for (const auto& [key, v] : tool.returns.items())
        if (key != "content" && key != "isError")
          throw UnsupportedFeature(name + ".tools[" + std::to_string(j) + "].returns." + key);
    }
    server.tools.push_back(std::move(tool));
  }
  return server;
}

}  // namespace

DriverSpec parse_driver_spec(const json& spec) {
  DriverSpec out;
  if (spec.contains("prompt")) out.prompt = spec["prompt"].get<std::string>();
  if (spec.contains("turns")) out.turns = parse_turns(spec["turns"]);
  if (spec.contains("end_input")) out.end_input = parse_trigger(spec["end_input"]);
  out.options = spec.value("options", json::object());
  if (spec.contains("can_use_tool")) {
    out.can_use_tool.emplace();
    for (const auto& r : spec["can_use_tool"]) out.can_use_tool->push_back(parse_rule(r));
  }
  for (const auto& h : spec.value("hooks", json::array())) out.hooks.push_back(parse_hook(h));
  const json servers = spec.value("mcp_servers", json::array());
  for (std::size_t i = 0; i < servers.size(); ++i)
    out.mcp_servers.push_back(parse_server(servers[i], "mcp_servers[" + std::to_string(i) + "]"));
  for (const auto& c : spec.value("control", json::array())) {
    ControlCall call;
    call.call = c["call"].get<std::string>();
    call.args = c.value("args", json::object());
    if (c.contains("when")) call.when = parse_trigger(c["when"]);
    out.control.push_back(std::move(call));
  }
  out.capture_stderr = spec.value("capture_stderr", false);
  out.timeout_ms = spec.value("timeout_ms", 20000);
  return out;
}

}  // namespace claude::driver
