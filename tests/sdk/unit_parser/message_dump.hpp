// A parse result written out field by field, JsonText members as their exact text.
//
// Why: `operator==` on messages compares JsonText members by value, so it cannot tell a raw slice
// from a re-serialised one. Two parsers (or two versions of one) agree byte for byte when their
// dumps are equal.
#pragma once

#include <optional>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "messages/message_parser.hpp"

namespace claude::sdk::testing {

class MessageDump {
 public:
  std::string operator()(const ParseResult& result) {
    out_.str({});
    if (const auto* error = std::get_if<ParseError>(&result)) {
      put("error", to_string(error->kind));
      put("field", error->field);
      put("message", error->message);
      return out_.str();
    }
    const auto& message = std::get<Message>(result);
    put("line", message.line());
    put("type", message.type_name());
    std::visit([this](const auto& body) { dump(body); }, message.body());
    return out_.str();
  }

 private:
  void put(const char* name, std::string_view value) { out_ << name << '=' << value << '\n'; }
  void put(const char* name, const JsonText& value) {
    out_ << name << (value.present() ? "=" : "(absent)") << value.text() << '\n';
  }
  void put_nullable(const char* name, const std::optional<std::string>& value) {
    if (value)
      put(name, std::string_view(*value));
    else
      out_ << name << "(null)\n";
  }
  void put(const char* name, bool value) { out_ << name << '=' << value << '\n'; }
  void put(const char* name, std::int64_t value) { out_ << name << '=' << value << '\n'; }
  void put(const char* name, const std::vector<std::string>& values) {
    out_ << name << '[' << values.size() << "]\n";
    for (const auto& value : values) put("-", value);
  }

  void dump(const std::vector<ContentBlock>& blocks) {
    out_ << "blocks[" << blocks.size() << "]\n";
    for (const auto& block : blocks) {
      out_ << "kind=" << static_cast<int>(block.kind) << '\n';
      put("type", block.type);
      put("text", block.text);
      put("signature", block.signature);
      put("id", block.id);
      put("name", block.name);
      put("input", block.input);
      put("tool_use_id", block.tool_use_id);
      put("content", block.content);
      put("is_error", block.is_error);
      put("raw", block.raw);
    }
  }
  void dump(const SystemMessage& m) {
    put("subtype", m.subtype);
    put("uuid", m.uuid);
    put("session_id", m.session_id);
    if (m.init) {
      put("cwd", m.init->cwd);
      put("model", m.init->model);
      put("permission_mode", m.init->permission_mode);
      put("api_key_source", m.init->api_key_source);
      put("claude_code_version", m.init->claude_code_version);
      put("output_style", m.init->output_style);
      put("tools", m.init->tools);
      put("slash_commands", m.init->slash_commands);
      put("agents", m.init->agents);
      put("skills", m.init->skills);
      put("mcp_servers", m.init->mcp_servers);
    }
    put("task_id", m.task_id);
    put("task_status", m.task_status);
    put("state", m.state);
    put("sdk_host_only", m.sdk_host_only);
  }
  void dump(const AssistantMessage& m) {
    put("uuid", m.uuid);
    put("session_id", m.session_id);
    put_nullable("parent_tool_use_id", m.parent_tool_use_id);
    put("message_id", m.message_id);
    put("model", m.model);
    dump(m.content);
    put_nullable("stop_reason", m.stop_reason);
    put_nullable("error", m.error);
    put("usage", m.usage);
  }
  void dump(const UserMessage& m) {
    put("uuid", m.uuid);
    put("session_id", m.session_id);
    put_nullable("parent_tool_use_id", m.parent_tool_use_id);
    put_nullable("text", m.text);
    dump(m.content);
    put("tool_use_result", m.tool_use_result);
    put("is_replay", m.is_replay);
    put("is_synthetic", m.is_synthetic);
  }
  void dump(const ResultMessage& m) {
    put("subtype", m.subtype);
    put("is_error", m.is_error);
    put("uuid", m.uuid);
    put("session_id", m.session_id);
    put("duration_ms", m.duration_ms);
    put("duration_api_ms", m.duration_api_ms);
    put("num_turns", m.num_turns);
    put_nullable("result", m.result);
    put("errors", m.errors);
    put("has_errors", m.has_errors);
    if (m.total_cost_usd) out_ << "total_cost_usd=" << *m.total_cost_usd << '\n';
    put_nullable("stop_reason", m.stop_reason);
    put_nullable("terminal_reason", m.terminal_reason);
    if (m.api_error_status) put("api_error_status", *m.api_error_status);
    put("usage", m.usage);
    put("model_usage", m.model_usage);
    put("permission_denials", m.permission_denials);
    put("structured_output", m.structured_output);
  }
  void dump(const StreamEvent& m) {
    put("uuid", m.uuid);
    put("session_id", m.session_id);
    put_nullable("parent_tool_use_id", m.parent_tool_use_id);
    put("event_type", m.event_type);
    put("event", m.event);
  }
  void dump(const ControlRequest& m) {
    put("request_id", m.request_id);
    put("subtype", m.subtype);
    put("request", m.request);
    out_ << "typed=" << m.typed.index() << '\n';
    if (const auto* can_use = std::get_if<CanUseToolRequest>(&m.typed)) {
      put("tool_name", can_use->tool_name);
      put("input", can_use->input);
      put("tool_use_id", can_use->tool_use_id);
      put("permission_suggestions", can_use->permission_suggestions);
      put_nullable("blocked_path", can_use->blocked_path);
      put_nullable("agent_id", can_use->agent_id);
    } else if (const auto* hook = std::get_if<HookCallbackRequest>(&m.typed)) {
      put("callback_id", hook->callback_id);
      put_nullable("tool_use_id", hook->tool_use_id);
      put("hook_event_name", hook->hook_event_name);
      put("input", hook->input);
    } else if (const auto* mcp = std::get_if<McpMessageRequest>(&m.typed)) {
      put("server_name", mcp->server_name);
      put("method", mcp->method);
      put("message", mcp->message);
    } else if (const auto* init = std::get_if<InitializeRequest>(&m.typed)) {
      put("hooks", init->hooks);
      put("sdk_mcp_servers", init->sdk_mcp_servers);
      put("agents", init->agents);
    }
  }
  void dump(const ControlResponse& m) {
    put("request_id", m.request_id);
    put("success", m.success);
    put("response", m.response);
    put("error", m.error);
    put_nullable("error_code", m.error_code);
    put("pending_permission_requests", m.pending_permission_requests);
    put("pending_user_dialog_requests", m.pending_user_dialog_requests);
    put("pending_elicitation_requests", m.pending_elicitation_requests);
  }
  void dump(const ControlCancelRequest& m) { put("request_id", m.request_id); }
  void dump(const RateLimitEvent& m) {
    put("status", m.status);
    put("rate_limit_info", m.rate_limit_info);
  }
  void dump(const KeepAlive&) {}
  void dump(const UnknownMessage& m) { put("unknown_type", m.type); }

  std::ostringstream out_;
};

}  // namespace claude::sdk::testing
