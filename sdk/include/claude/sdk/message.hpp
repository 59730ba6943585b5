// The typed message model of the stream-json protocol (docs/protocol.md §3–§5, §7).
//
//   if (auto* a = message.get_if<claude::sdk::AssistantMessage>())
//     for (const auto& block : a->content)
//       if (block.kind == claude::sdk::ContentBlock::Kind::text) std::cout << block.text;
//   if (message.type() == claude::sdk::MessageType::unknown)
//     std::cerr << "new message type " << message.type_name() << ": " << message.line() << "\n";
//
// What it is: one `Message` per NDJSON line the CLI writes, keeping the line byte for byte, with
// the members code reads most copied out as typed fields and the whole value as `json()`.
// Free-form sub-values (tool input, usage, hook input …) are `JsonText`: compact text, parsed on
// demand. An unknown `type`, subtype or content block type is kept as is (kind `unknown`), never
// an error; key order never matters.
//
// How it fails: a `Message` never fails (the parser, message_parser.hpp, validated its line).
// What it costs: its line plus copies of its typed strings; `json()` is one nlohmann parse, cached
// on first use (which is not thread-safe).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace claude::sdk {

// A JSON value kept as its compact text. Empty text means "absent".
class JsonText {
 public:
  JsonText() = default;
  explicit JsonText(std::string text) : text_(std::move(text)) {}

  [[nodiscard]] bool present() const noexcept { return !text_.empty(); }
  [[nodiscard]] const std::string& text() const noexcept { return text_; }
  // The value, parsed now; `nullptr` JSON when absent.
  [[nodiscard]] nlohmann::json value() const;

  // Equal when both are absent or both hold equal JSON values.
  friend bool operator==(const JsonText& a, const JsonText& b);

 private:
  std::string text_;
};

enum class MessageType : std::uint8_t {
  system,
  assistant,
  user,
  result,
  stream_event,
  control_request,
  control_response,
  control_cancel_request,
  rate_limit_event,
  keep_alive,
  unknown  // any other `type`, kept with its type string
};

std::string_view to_string(MessageType type) noexcept;

// One block of `message.content` (assistant and user messages).
struct ContentBlock {
  enum class Kind : std::uint8_t {
    text,
    thinking,
    redacted_thinking,
    tool_use,
    server_tool_use,
    tool_result,
    unknown
  };
  Kind kind = Kind::unknown;
  std::string type;         // as on the wire
  std::string text;         // text: `text`; thinking: `thinking`; redacted_thinking: `data`
  std::string signature;    // thinking
  std::string id;           // tool_use, server_tool_use
  std::string name;         // tool_use, server_tool_use
  JsonText input;           // tool_use, server_tool_use
  std::string tool_use_id;  // tool_result
  JsonText content;         // tool_result: a string or an array of blocks
  bool is_error = false;    // tool_result
  JsonText raw;             // unknown blocks: the whole block

  friend bool operator==(const ContentBlock&, const ContentBlock&) = default;
};

// Fields of `system`/`init` (docs/protocol.md §3.1).
struct SystemInit {
  std::string cwd;
  std::string model;
  std::string permission_mode;
  std::string api_key_source;
  std::string claude_code_version;
  std::string output_style;
  std::vector<std::string> tools;
  std::vector<std::string> slash_commands;
  std::vector<std::string> agents;
  std::vector<std::string> skills;
  JsonText mcp_servers;

  friend bool operator==(const SystemInit&, const SystemInit&) = default;
};

struct SystemMessage {
  std::string subtype;
  std::string uuid;
  std::string session_id;
  std::optional<SystemInit> init;  // subtype "init"
  // task_started / task_progress / task_notification / task_updated
  std::string task_id;
  std::string task_status;  // task_notification `status`, task_updated `patch.status`
  // session_state_changed
  std::string state;
  bool sdk_host_only = false;  // frames the CLI meant for the SDK itself, not its user

  [[nodiscard]] bool is_task_event() const { return subtype.starts_with("task_"); }
  friend bool operator==(const SystemMessage&, const SystemMessage&) = default;
};

struct AssistantMessage {
  std::string uuid;
  std::string session_id;
  std::optional<std::string> parent_tool_use_id;
  std::string message_id;
  std::string model;
  std::vector<ContentBlock> content;
  std::optional<std::string> stop_reason;
  std::optional<std::string> error;  // top-level `error` (rate_limit, overloaded, …)
  JsonText usage;

  friend bool operator==(const AssistantMessage&, const AssistantMessage&) = default;
};

struct UserMessage {
  std::string uuid;
  std::string session_id;
  std::optional<std::string> parent_tool_use_id;
  std::optional<std::string> text;    // when `message.content` is a string
  std::vector<ContentBlock> content;  // when it is an array
  JsonText tool_use_result;
  bool is_replay = false;
  bool is_synthetic = false;

  friend bool operator==(const UserMessage&, const UserMessage&) = default;
};

struct ResultMessage {
  std::string subtype;
  bool is_error = false;
  std::string uuid;
  std::string session_id;
  std::int64_t duration_ms = 0;
  std::int64_t duration_api_ms = 0;
  std::int64_t num_turns = 0;
  std::optional<std::string> result;
  // Normalised (docs/protocol.md §3.4): a bare string is one error; blank and non-string entries
  // are dropped. The value as sent stays in `Message::json()`.
  std::vector<std::string> errors;
  bool has_errors = false;  // `errors` was a string or an array (even an empty one)
  std::optional<double> total_cost_usd;
  std::optional<std::string> stop_reason;
  std::optional<std::string> terminal_reason;
  std::optional<std::int64_t> api_error_status;
  JsonText usage;
  JsonText model_usage;
  JsonText permission_denials;
  JsonText structured_output;

  friend bool operator==(const ResultMessage&, const ResultMessage&) = default;
};

struct StreamEvent {
  std::string uuid;
  std::string session_id;
  std::optional<std::string> parent_tool_use_id;
  std::string event_type;  // `event.type`
  JsonText event;

  friend bool operator==(const StreamEvent&, const StreamEvent&) = default;
};

// Typed views of the control requests the CLI sends (docs/protocol.md §7).
struct CanUseToolRequest {
  std::string tool_name;
  JsonText input;
  std::string tool_use_id;
  JsonText permission_suggestions;
  std::optional<std::string> blocked_path;
  std::optional<std::string> agent_id;
  friend bool operator==(const CanUseToolRequest&, const CanUseToolRequest&) = default;
};
struct HookCallbackRequest {
  std::string callback_id;
  std::optional<std::string> tool_use_id;
  std::string hook_event_name;  // `input.hook_event_name`
  JsonText input;
  friend bool operator==(const HookCallbackRequest&, const HookCallbackRequest&) = default;
};
struct McpMessageRequest {
  std::string server_name;
  std::string method;  // `message.method`, empty for JSON-RPC responses
  JsonText message;
  friend bool operator==(const McpMessageRequest&, const McpMessageRequest&) = default;
};
struct InitializeRequest {
  JsonText hooks;
  JsonText sdk_mcp_servers;
  JsonText agents;
  friend bool operator==(const InitializeRequest&, const InitializeRequest&) = default;
};

struct ControlRequest {
  std::string request_id;
  std::string subtype;
  JsonText request;  // the whole `request` object, for every subtype
  std::variant<std::monostate, CanUseToolRequest, HookCallbackRequest, McpMessageRequest,
               InitializeRequest>
      typed;

  friend bool operator==(const ControlRequest&, const ControlRequest&) = default;
};

struct ControlResponse {
  std::string request_id;
  bool success = false;
  JsonText response;  // `response.response` on success (may be absent)
  std::string error;  // on error
  std::optional<std::string> error_code;
  // Beside `response` in an `initialize` reply (docs/protocol.md §5.2).
  JsonText pending_permission_requests;
  JsonText pending_user_dialog_requests;
  JsonText pending_elicitation_requests;

  friend bool operator==(const ControlResponse&, const ControlResponse&) = default;
};

struct ControlCancelRequest {
  std::string request_id;
  friend bool operator==(const ControlCancelRequest&, const ControlCancelRequest&) = default;
};

struct RateLimitEvent {
  std::string status;  // `rate_limit_info.status`
  JsonText rate_limit_info;
  friend bool operator==(const RateLimitEvent&, const RateLimitEvent&) = default;
};

struct KeepAlive {
  friend bool operator==(const KeepAlive&, const KeepAlive&) = default;
};

struct UnknownMessage {
  std::string type;
  friend bool operator==(const UnknownMessage&, const UnknownMessage&) = default;
};

using MessageBody = std::variant<SystemMessage, AssistantMessage, UserMessage, ResultMessage,
                                 StreamEvent, ControlRequest, ControlResponse, ControlCancelRequest,
                                 RateLimitEvent, KeepAlive, UnknownMessage>;

class Message {
 public:
  Message(std::string line, MessageBody body);

  [[nodiscard]] MessageType type() const noexcept;
  // The `type` string as on the wire (also for unknown types).
  [[nodiscard]] std::string_view type_name() const noexcept;
  // The line as received, without its newline.
  [[nodiscard]] const std::string& line() const noexcept { return line_; }
  [[nodiscard]] std::size_t line_size() const noexcept { return line_.size(); }
  [[nodiscard]] const MessageBody& body() const noexcept { return body_; }
  // Moves the typed body out (the line stays); for consumers that own the message.
  [[nodiscard]] MessageBody take_body() && noexcept { return std::move(body_); }
  // The whole message as JSON, parsed from `line()` on first use.
  [[nodiscard]] const nlohmann::json& json() const;

  template <class T>
  [[nodiscard]] const T* get_if() const noexcept {
    return std::get_if<T>(&body_);
  }
  template <class T>
  [[nodiscard]] bool is() const noexcept {
    return std::holds_alternative<T>(body_);
  }

  // Equal when the typed bodies are equal and the JSON values are equal (the lines may differ in
  // key order or spacing).
  friend bool operator==(const Message& a, const Message& b);

 private:
  std::string line_;
  MessageBody body_;
  mutable std::shared_ptr<const nlohmann::json> json_;
};

}  // namespace claude::sdk
