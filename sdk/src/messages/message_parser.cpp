#include "messages/message_parser.hpp"

#include <simdjson.h>

#include <array>
#include <cstring>
#include <limits>
#include <optional>

#include "claude/sdk/transport.hpp"
#include "messages/json_slice.hpp"

namespace claude::sdk {
namespace {

static_assert(InboundLine::kSpareCapacity >= simdjson::SIMDJSON_PADDING,
              "a transport's line must be parsable where it lies");

using simdjson::dom::element;
using simdjson::dom::object;

// Raised inside the parser only; `MessageParser::parse` turns it into a ParseError.
struct FieldFault {
  ParseError::Kind kind;
  std::string field;
};

// The raw text of a container's members (object) or elements (array), found only when asked for.
// Most messages need none, and a member's text is scanned once, not once per nesting level: a
// nested container starts where its parent's cursor stopped, found on first use. Object members
// are paired with the DOM's keys as the cursor passes them; a key that differs (keys with escapes
// are compared decoded by the DOM only) means the walk lost step, and every later request gets
// an empty slice, so `json_text` re-serialises.
class ChildSlices {
 public:
  ChildSlices() = default;
  // The object or array whose opening bracket is token `container` of `tokens`.
  ChildSlices(const detail::JsonTokens* tokens, std::size_t container)
      : tokens_(tokens), container_(container), resolved_(true), cursor_(*tokens, container) {}
  // Child number `ordinal` of `parent`, which must outlive this.
  ChildSlices(ChildSlices* parent, std::size_t ordinal) : parent_(parent), ordinal_(ordinal) {}

  // Pairs the members with `obj`'s keys; the container is then taken for that object.
  void pair_keys(object obj) {
    keys_ = obj;
    object_ = true;
    key_ = keys_.begin();
  }
  // The token where child `ordinal` starts; npos when unavailable.
  std::size_t start(std::size_t ordinal) {
    return seek(ordinal) ? cursor_.current() : detail::JsonSliceCursor::npos;
  }
  // Child `ordinal`'s text; empty when unavailable.
  detail::JsonSlice slice(std::size_t ordinal) {
    return seek(ordinal) ? cursor_.value() : detail::JsonSlice{};
  }

 private:
  bool seek(std::size_t ordinal) {
    if (!resolved_) {
      resolved_ = true;
      if (parent_ != nullptr) {
        container_ = parent_->start(ordinal_);  // resolves the parent first
        tokens_ = parent_->tokens_;
      }
      if (tokens_ != nullptr) cursor_ = detail::JsonSliceCursor(*tokens_, container_);
    }
    if (lost_ || tokens_ == nullptr || container_ == detail::JsonSliceCursor::npos) return false;
    if (passed_ > ordinal + 1) {
      cursor_ = detail::JsonSliceCursor(*tokens_, container_);
      passed_ = 0;
      if (object_) key_ = keys_.begin();
    }
    while (passed_ <= ordinal) {
      std::string_view raw_key;
      if (!cursor_.advance(object_ ? &raw_key : nullptr)) {
        lost_ = true;
        return false;
      }
      if (object_) {
        if (key_ == keys_.end() ||
            (raw_key != key_.key() && raw_key.find('\\') == std::string_view::npos)) {
          lost_ = true;
          return false;
        }
        ++key_;
      }
      ++passed_;
    }
    return true;
  }

  ChildSlices* parent_ = nullptr;
  std::size_t ordinal_ = 0;
  const detail::JsonTokens* tokens_ = nullptr;
  std::size_t container_ = detail::JsonSliceCursor::npos;
  bool resolved_ = false;
  bool lost_ = false;
  bool object_ = false;
  detail::JsonSliceCursor cursor_;
  std::size_t passed_ = 0;  // children the cursor has stepped onto
  object keys_;
  object::iterator key_;
};

// The last value of each wanted key in one pass over an object. Last wins, as in nlohmann and
// JavaScript, so typed fields agree with `Message::json()` when a key is repeated. Given where
// the object's text is, it finds each value's raw slice on request, for `json_text`.
template <std::size_t N>
struct Picked {
  std::array<std::optional<element>, N> values;
  std::array<std::size_t, N> ordinals{};  // member positions, in document order
  ChildSlices slices;
  [[nodiscard]] const std::optional<element>& operator[](std::size_t i) const { return values[i]; }
  detail::JsonSlice slice(std::size_t i) {
    return values[i] ? slices.slice(ordinals[i]) : detail::JsonSlice{};
  }
  // Where the text of member `i`'s value (a container) is; valid while this Picked lives.
  ChildSlices child(std::size_t i) {
    return values[i] ? ChildSlices(&slices, ordinals[i]) : ChildSlices();
  }
};

// The keys a parse function reads from one object. `keys("usage")` is the position of "usage",
// found at compile time: a field is named by its JSON key, and a key missing from the list does
// not compile.
template <std::size_t N>
struct KeyList {
  std::array<std::string_view, N> names;
  consteval std::size_t operator()(std::string_view key) const {
    for (std::size_t i = 0; i < N; ++i) {
      if (names[i] == key) return i;
    }
    throw "key not in this KeyList";  // not a constant expression: the call does not compile
  }
};
template <class... Names>
KeyList(Names...) -> KeyList<sizeof...(Names)>;

// Most keys differ from a wanted one in length or first byte: test those before memcmp.
bool same_key(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         (a.empty() || (a[0] == b[0] && std::memcmp(a.data(), b.data(), a.size()) == 0));
}

template <std::size_t N>
Picked<N> pick(object obj, const KeyList<N>& keys, ChildSlices slices = ChildSlices()) {
  Picked<N> picked{{}, {}, slices};
  std::size_t ordinal = 0;
  for (auto field : obj) {
    for (std::size_t i = 0; i < N; ++i) {
      if (same_key(field.key, keys.names[i])) {
        picked.values[i] = field.value;
        picked.ordinals[i] = ordinal;
        break;
      }
    }
    ++ordinal;
  }
  picked.slices.pair_keys(obj);
  return picked;
}

// The last value of `key` in `obj`, for objects read for one member only.
std::optional<element> last_member(object obj, std::string_view key) {
  std::optional<element> value;
  for (auto field : obj) {
    if (same_key(field.key, key)) value = field.value;
  }
  return value;
}

// A JSON Pointer ("/message/content/2/text"), spelled out only when a fault names it.
struct FieldPath {
  FieldPath(const char* path) : parent(path) {}  // implicit: call sites pass literals
  FieldPath(std::string_view parent_path, std::size_t item, std::string_view member)
      : parent(parent_path), index(item), key(member), indexed(true) {}
  [[nodiscard]] std::string str() const {
    if (!indexed) return std::string(parent);
    std::string out = std::string(parent) + '/' + std::to_string(index);
    return key.empty() ? out : out + '/' + std::string(key);
  }
  std::string_view parent;
  std::size_t index = 0;
  std::string_view key;
  bool indexed = false;
};

[[noreturn]] void fail(ParseError::Kind kind, const FieldPath& field) {
  throw FieldFault{kind, field.str()};
}

// The value at `field` as a T (an object, array, string or bool); a fault when absent or not one.
template <class T>
T require(const std::optional<element>& value, const FieldPath& field) {
  if (!value) fail(ParseError::Kind::missing_field, field);
  T out{};
  if (value->get(out) != simdjson::SUCCESS) fail(ParseError::Kind::wrong_type, field);
  return out;
}

// String accessors return views into the parser's DOM, valid until the next parse.
std::string_view require_string(const std::optional<element>& value, const FieldPath& field) {
  return require<std::string_view>(value, field);
}

// Absent or null → empty; any other non-string is a wrong type.
std::string_view optional_string(const std::optional<element>& value, const FieldPath& field) {
  if (!value || value->is_null()) return {};
  std::string_view text;
  if (value->get(text) != simdjson::SUCCESS) fail(ParseError::Kind::wrong_type, field);
  return text;
}

std::optional<std::string> nullable_string(const std::optional<element>& value,
                                           const FieldPath& field) {
  if (!value || value->is_null()) return std::nullopt;
  return std::string(optional_string(value, field));
}

// Lenient for fields no consumer depends on: a value of another type reads as empty.
std::string_view loose_string(const std::optional<element>& value) {
  std::string_view text;
  if (value && value->get(text) == simdjson::SUCCESS) return text;
  return {};
}

bool loose_bool(const std::optional<element>& value) {
  bool flag = false;
  return value && value->get(flag) == simdjson::SUCCESS && flag;
}

std::optional<std::int64_t> as_integer(const element& value) {
  std::int64_t i = 0;
  if (value.get(i) == simdjson::SUCCESS) return i;
  // Out-of-range values saturate: converting them is undefined behaviour (found by
  // fuzz_message_parser on a 30-digit duration_ms).
  constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
  constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
  std::uint64_t u = 0;
  if (value.get(u) == simdjson::SUCCESS)
    return u > static_cast<std::uint64_t>(kMax) ? kMax : static_cast<std::int64_t>(u);
  double d = 0;
  if (value.get(d) == simdjson::SUCCESS) {
    if (d != d) return std::nullopt;
    if (d >= 9223372036854775808.0) return kMax;
    if (d < -9223372036854775808.0) return kMin;
    return static_cast<std::int64_t>(d);
  }
  return std::nullopt;
}

std::int64_t require_integer(const std::optional<element>& value, const FieldPath& field) {
  if (!value) fail(ParseError::Kind::missing_field, field);
  auto number = as_integer(*value);
  if (!number) fail(ParseError::Kind::wrong_type, field);
  return *number;
}

JsonText json_text(const element& value, detail::JsonSlice slice) {
  if (!slice.text.empty()) return JsonText(detail::compact_json(slice));
  return JsonText(simdjson::to_string(value));
}

template <std::size_t N>
JsonText json_text(Picked<N>& picked, std::size_t i) {
  if (!picked[i]) return {};
  return json_text(*picked[i], picked.slice(i));
}

std::vector<std::string> string_list(const std::optional<element>& value) {
  std::vector<std::string> out;
  simdjson::dom::array items;
  if (!value || value->get(items) != simdjson::SUCCESS) return out;
  for (element item : items) {
    std::string_view text;
    if (item.get(text) == simdjson::SUCCESS) out.emplace_back(text);
  }
  return out;
}

bool is_blank(std::string_view text) {
  return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// `errors` of a result, normalised (docs/protocol.md §3.4): a bare string is one error; blank
// strings and entries that are not strings are dropped. The full value stays in `Message::json()`.
std::vector<std::string> error_list(const std::optional<element>& value, bool& present) {
  std::vector<std::string> out;
  std::string_view text;
  simdjson::dom::array items;
  present = false;
  if (!value) return out;
  if (value->get(text) == simdjson::SUCCESS) {
    present = true;
    if (!is_blank(text)) out.emplace_back(text);
  } else if (value->get(items) == simdjson::SUCCESS) {
    present = true;
    for (element item : items) {
      if (item.get(text) == simdjson::SUCCESS && !is_blank(text)) out.emplace_back(text);
    }
  }
  return out;
}

ContentBlock::Kind block_kind(std::string_view type) {
  using Kind = ContentBlock::Kind;
  if (type == "text") return Kind::text;
  if (type == "thinking") return Kind::thinking;
  if (type == "redacted_thinking") return Kind::redacted_thinking;
  if (type == "tool_use") return Kind::tool_use;
  if (type == "server_tool_use") return Kind::server_tool_use;
  if (type == "tool_result") return Kind::tool_result;
  return Kind::unknown;
}

// Block `index` of the array at `field`; `siblings` finds the raw text of the array's elements.
void parse_block(const element& value, std::string_view field, std::size_t index,
                 ChildSlices& siblings, ContentBlock& block) {
  object obj;
  if (value.get(obj) != simdjson::SUCCESS) fail(ParseError::Kind::wrong_type, {field, index, {}});
  static constexpr KeyList keys{"type", "text",  "thinking",    "signature", "data",    "id",
                                "name", "input", "tool_use_id", "content",   "is_error"};
  auto f = pick(obj, keys, ChildSlices(&siblings, index));
  block.type = require_string(f[keys("type")], {field, index, "type"});
  block.kind = block_kind(block.type);
  using Kind = ContentBlock::Kind;
  switch (block.kind) {
    case Kind::text:
      block.text = require_string(f[keys("text")], {field, index, "text"});
      break;
    case Kind::thinking:
      block.text = require_string(f[keys("thinking")], {field, index, "thinking"});
      block.signature = loose_string(f[keys("signature")]);
      break;
    case Kind::redacted_thinking:
      block.text = loose_string(f[keys("data")]);
      break;
    case Kind::tool_use:
    case Kind::server_tool_use:
      block.id = require_string(f[keys("id")], {field, index, "id"});
      block.name = require_string(f[keys("name")], {field, index, "name"});
      block.input = json_text(f, keys("input"));
      break;
    case Kind::tool_result:
      block.tool_use_id = require_string(f[keys("tool_use_id")], {field, index, "tool_use_id"});
      block.content = json_text(f, keys("content"));
      block.is_error = loose_bool(f[keys("is_error")]);
      break;
    case Kind::unknown:
      block.raw = json_text(value, siblings.slice(index));
      break;
  }
}

std::vector<ContentBlock> parse_blocks(simdjson::dom::array items, std::string_view field,
                                       ChildSlices slices) {
  std::vector<ContentBlock> blocks;
  blocks.reserve(items.size());
  std::size_t index = 0;
  for (element item : items) parse_block(item, field, index++, slices, blocks.emplace_back());
  return blocks;
}

void parse_system(object obj, ChildSlices raw, SystemMessage& msg) {
  static constexpr KeyList keys{
      "uuid",         "session_id",     "subtype",        "cwd",
      "model",        "permissionMode", "apiKeySource",   "claude_code_version",
      "output_style", "tools",          "slash_commands", "agents",
      "skills",       "mcp_servers",    "task_id",        "status",
      "patch",        "state",          "sdk_host_only"};
  auto f = pick(obj, keys, raw);
  msg.uuid = loose_string(f[keys("uuid")]);
  msg.session_id = loose_string(f[keys("session_id")]);
  msg.subtype = require_string(f[keys("subtype")], "/subtype");
  if (msg.subtype == "init") {
    SystemInit& init = msg.init.emplace();
    init.cwd = loose_string(f[keys("cwd")]);
    init.model = loose_string(f[keys("model")]);
    init.permission_mode = loose_string(f[keys("permissionMode")]);
    init.api_key_source = loose_string(f[keys("apiKeySource")]);
    init.claude_code_version = loose_string(f[keys("claude_code_version")]);
    init.output_style = loose_string(f[keys("output_style")]);
    init.tools = string_list(f[keys("tools")]);
    init.slash_commands = string_list(f[keys("slash_commands")]);
    init.agents = string_list(f[keys("agents")]);
    init.skills = string_list(f[keys("skills")]);
    init.mcp_servers = json_text(f, keys("mcp_servers"));
  }
  if (msg.is_task_event()) {
    msg.task_id = optional_string(f[keys("task_id")], "/task_id");
    msg.task_status = loose_string(f[keys("status")]);
    object patch;
    if (const auto& value = f[keys("patch")]; value && value->get(patch) == simdjson::SUCCESS) {
      msg.task_status = loose_string(last_member(patch, "status"));
    }
  }
  msg.state = loose_string(f[keys("state")]);
  msg.sdk_host_only = loose_bool(f[keys("sdk_host_only")]);
}

void parse_assistant(object obj, ChildSlices raw, AssistantMessage& msg) {
  static constexpr KeyList keys{"uuid", "session_id", "parent_tool_use_id", "message", "error"};
  auto f = pick(obj, keys, raw);
  msg.uuid = loose_string(f[keys("uuid")]);
  msg.session_id = loose_string(f[keys("session_id")]);
  msg.parent_tool_use_id = nullable_string(f[keys("parent_tool_use_id")], "/parent_tool_use_id");
  msg.error = nullable_string(f[keys("error")], "/error");
  object message = require<object>(f[keys("message")], "/message");
  static constexpr KeyList message_keys{"id", "model", "content", "stop_reason", "usage"};
  auto m = pick(message, message_keys, f.child(keys("message")));
  msg.message_id = loose_string(m[message_keys("id")]);
  msg.model = require_string(m[message_keys("model")], "/message/model");
  auto content = require<simdjson::dom::array>(m[message_keys("content")], "/message/content");
  msg.content = parse_blocks(content, "/message/content", m.child(message_keys("content")));
  msg.stop_reason = nullable_string(m[message_keys("stop_reason")], "/message/stop_reason");
  msg.usage = json_text(m, message_keys("usage"));
}

void parse_user(object obj, ChildSlices raw, UserMessage& msg) {
  static constexpr KeyList keys{"uuid",     "session_id",      "parent_tool_use_id", "message",
                                "isReplay", "tool_use_result", "isSynthetic"};
  auto f = pick(obj, keys, raw);
  msg.uuid = loose_string(f[keys("uuid")]);
  msg.session_id = loose_string(f[keys("session_id")]);
  msg.parent_tool_use_id = nullable_string(f[keys("parent_tool_use_id")], "/parent_tool_use_id");
  msg.is_replay = loose_bool(f[keys("isReplay")]);
  msg.tool_use_result = json_text(f, keys("tool_use_result"));
  msg.is_synthetic = loose_bool(f[keys("isSynthetic")]);
  object message = require<object>(f[keys("message")], "/message");
  static constexpr KeyList message_keys{"content"};
  auto picked_content = pick(message, message_keys, f.child(keys("message")));
  const auto& content = picked_content[message_keys("content")];
  if (!content) fail(ParseError::Kind::missing_field, "/message/content");
  std::string_view text;
  simdjson::dom::array blocks;
  if (content->get(text) == simdjson::SUCCESS) {
    msg.text = std::string(text);
  } else if (content->get(blocks) == simdjson::SUCCESS) {
    msg.content =
        parse_blocks(blocks, "/message/content", picked_content.child(message_keys("content")));
  } else {
    fail(ParseError::Kind::wrong_type, "/message/content");
  }
}

void parse_result(object obj, ChildSlices raw, ResultMessage& msg) {
  static constexpr KeyList keys{
      // required (as the official Python SDK requires them)
      "subtype", "is_error", "duration_ms", "duration_api_ms", "num_turns", "session_id",
      // optional
      "uuid", "result", "errors", "total_cost_usd", "stop_reason", "terminal_reason",
      "api_error_status", "usage", "modelUsage", "permission_denials", "structured_output"};
  auto f = pick(obj, keys, raw);
  msg.uuid = loose_string(f[keys("uuid")]);
  msg.subtype = require_string(f[keys("subtype")], "/subtype");
  msg.is_error = require<bool>(f[keys("is_error")], "/is_error");
  msg.duration_ms = require_integer(f[keys("duration_ms")], "/duration_ms");
  msg.duration_api_ms = require_integer(f[keys("duration_api_ms")], "/duration_api_ms");
  msg.num_turns = require_integer(f[keys("num_turns")], "/num_turns");
  msg.session_id = require_string(f[keys("session_id")], "/session_id");
  msg.result = nullable_string(f[keys("result")], "/result");
  msg.errors = error_list(f[keys("errors")], msg.has_errors);
  if (const auto& total = f[keys("total_cost_usd")]; total && !total->is_null()) {
    double cost = 0;  // simdjson reads integers as doubles too
    if (total->get(cost) != simdjson::SUCCESS)
      fail(ParseError::Kind::wrong_type, "/total_cost_usd");
    msg.total_cost_usd = cost;
  }
  msg.stop_reason = nullable_string(f[keys("stop_reason")], "/stop_reason");
  msg.terminal_reason = nullable_string(f[keys("terminal_reason")], "/terminal_reason");
  if (const auto& status = f[keys("api_error_status")]; status && !status->is_null()) {
    msg.api_error_status = as_integer(*status);
  }
  msg.usage = json_text(f, keys("usage"));
  msg.model_usage = json_text(f, keys("modelUsage"));
  msg.permission_denials = json_text(f, keys("permission_denials"));
  msg.structured_output = json_text(f, keys("structured_output"));
}

void parse_stream_event(object obj, ChildSlices raw, StreamEvent& msg) {
  static constexpr KeyList keys{"uuid", "session_id", "parent_tool_use_id", "event"};
  auto f = pick(obj, keys, raw);
  msg.uuid = loose_string(f[keys("uuid")]);
  msg.session_id = loose_string(f[keys("session_id")]);
  msg.parent_tool_use_id = nullable_string(f[keys("parent_tool_use_id")], "/parent_tool_use_id");
  object event = require<object>(f[keys("event")], "/event");
  msg.event_type = loose_string(last_member(event, "type"));
  msg.event = json_text(f, keys("event"));
}

void parse_control_request(object obj, ChildSlices raw, ControlRequest& msg) {
  static constexpr KeyList keys{"request_id", "request"};
  auto f = pick(obj, keys, raw);
  msg.request_id = require_string(f[keys("request_id")], "/request_id");
  object request = require<object>(f[keys("request")], "/request");
  static constexpr KeyList request_keys{
      "subtype",      "tool_name",     "input",       "tool_use_id", "permission_suggestions",
      "blocked_path", "agent_id",      "callback_id", "server_name", "message",
      "hooks",        "sdkMcpServers", "agents"};
  auto r = pick(request, request_keys, f.child(keys("request")));
  msg.subtype = require_string(r[request_keys("subtype")], "/request/subtype");
  msg.request = json_text(f, keys("request"));
  if (msg.subtype == "can_use_tool") {
    auto& typed = msg.typed.emplace<CanUseToolRequest>();
    typed.tool_name = require_string(r[request_keys("tool_name")], "/request/tool_name");
    typed.input = json_text(r, request_keys("input"));
    typed.tool_use_id = optional_string(r[request_keys("tool_use_id")], "/request/tool_use_id");
    typed.permission_suggestions = json_text(r, request_keys("permission_suggestions"));
    typed.blocked_path = nullable_string(r[request_keys("blocked_path")], "/request/blocked_path");
    typed.agent_id = nullable_string(r[request_keys("agent_id")], "/request/agent_id");
  } else if (msg.subtype == "hook_callback") {
    auto& typed = msg.typed.emplace<HookCallbackRequest>();
    typed.callback_id = require_string(r[request_keys("callback_id")], "/request/callback_id");
    typed.tool_use_id = nullable_string(r[request_keys("tool_use_id")], "/request/tool_use_id");
    typed.input = json_text(r, request_keys("input"));
    if (object input;
        r[request_keys("input")] && r[request_keys("input")]->get(input) == simdjson::SUCCESS)
      typed.hook_event_name = loose_string(last_member(input, "hook_event_name"));
  } else if (msg.subtype == "mcp_message") {
    auto& typed = msg.typed.emplace<McpMessageRequest>();
    typed.server_name = require_string(r[request_keys("server_name")], "/request/server_name");
    object message = require<object>(r[request_keys("message")], "/request/message");
    typed.method = loose_string(last_member(message, "method"));
    typed.message = json_text(r, request_keys("message"));
  } else if (msg.subtype == "initialize") {
    auto& typed = msg.typed.emplace<InitializeRequest>();
    typed.hooks = json_text(r, request_keys("hooks"));
    typed.sdk_mcp_servers = json_text(r, request_keys("sdkMcpServers"));
    typed.agents = json_text(r, request_keys("agents"));
  }
}

void parse_control_response(object obj, ChildSlices raw, ControlResponse& msg) {
  static constexpr KeyList keys{"response", "pending_permission_requests",
                                "pending_user_dialog_requests", "pending_elicitation_requests"};
  auto f = pick(obj, keys, raw);
  object response = require<object>(f[keys("response")], "/response");
  static constexpr KeyList response_keys{"subtype",  "request_id", "requestId",
                                         "response", "error",      "error_code"};
  auto r = pick(response, response_keys, f.child(keys("response")));
  const std::string_view subtype = require_string(r[response_keys("subtype")], "/response/subtype");
  if (subtype != "success" && subtype != "error") {
    fail(ParseError::Kind::wrong_type, "/response/subtype");
  }
  msg.success = subtype == "success";
  // Ruby writes `requestId` beside (or instead of) `request_id`.
  msg.request_id = r[response_keys("request_id")] || !r[response_keys("requestId")]
                       ? require_string(r[response_keys("request_id")], "/response/request_id")
                       : require_string(r[response_keys("requestId")], "/response/requestId");
  if (msg.success) {
    msg.response = json_text(r, response_keys("response"));
  } else {
    msg.error = loose_string(r[response_keys("error")]);
    msg.error_code = nullable_string(r[response_keys("error_code")], "/response/error_code");
  }
  msg.pending_permission_requests = json_text(f, keys("pending_permission_requests"));
  msg.pending_user_dialog_requests = json_text(f, keys("pending_user_dialog_requests"));
  msg.pending_elicitation_requests = json_text(f, keys("pending_elicitation_requests"));
}

void parse_rate_limit(object obj, ChildSlices raw, RateLimitEvent& msg) {
  static constexpr KeyList keys{"rate_limit_info"};
  auto f = pick(obj, keys, raw);
  object info = require<object>(f[keys("rate_limit_info")], "/rate_limit_info");
  msg.status = loose_string(last_member(info, "status"));
  msg.rate_limit_info = json_text(f, keys("rate_limit_info"));
}

// The body is built where it will stay: a message's strings are moved as few times as possible.
template <class T>
MessageBody typed_body(void (*parse)(object, ChildSlices, T&), object obj, const ChildSlices& raw) {
  MessageBody body(std::in_place_type<T>);
  parse(obj, raw, std::get<T>(body));
  return body;
}

// `tokens` are the line's, from which JsonText members are sliced; the object is token 0.
MessageBody parse_body(std::string_view type, object obj, const detail::JsonTokens& tokens) {
  const ChildSlices raw(&tokens, 0);
  if (type == "stream_event") return typed_body(parse_stream_event, obj, raw);
  if (type == "assistant") return typed_body(parse_assistant, obj, raw);
  if (type == "user") return typed_body(parse_user, obj, raw);
  if (type == "system") return typed_body(parse_system, obj, raw);
  if (type == "result") return typed_body(parse_result, obj, raw);
  if (type == "control_request") return typed_body(parse_control_request, obj, raw);
  if (type == "control_response") return typed_body(parse_control_response, obj, raw);
  if (type == "control_cancel_request")
    return ControlCancelRequest{
        std::string(require_string(last_member(obj, "request_id"), "/request_id"))};
  if (type == "rate_limit_event") return typed_body(parse_rate_limit, obj, raw);
  if (type == "keep_alive") return KeepAlive{};
  return UnknownMessage{std::string(type)};
}

std::string describe(ParseError::Kind kind, const std::string& field) {
  switch (kind) {
    case ParseError::Kind::not_json:
      return "not valid JSON";
    case ParseError::Kind::not_object:
      return "not a JSON object";
    case ParseError::Kind::missing_field:
      return "required field " + field + " is missing";
    case ParseError::Kind::wrong_type:
      return "field " + field + " has the wrong type";
    case ParseError::Kind::too_deep:
      return "nested deeper than " + std::to_string(MessageParser::kMaxDepth) + " levels";
  }
  return "invalid message";
}

ParseError make_error(ParseError::Kind kind, std::string field, const std::string& detail = {}) {
  std::string message = describe(kind, field);
  if (!detail.empty()) message += " (" + detail + ")";
  return ParseError{kind, std::move(field), std::move(message)};
}

}  // namespace

std::string_view to_string(ParseError::Kind kind) noexcept {
  static constexpr std::string_view kNames[] = {"not_json", "not_object", "missing_field",
                                                "wrong_type", "too_deep"};
  const auto index = static_cast<std::size_t>(kind);
  return index < std::size(kNames) ? kNames[index] : "not_json";
}

struct MessageParser::State {
  simdjson::dom::parser dom;
  State() {
    if (dom.allocate(std::size_t{64} * 1024, kMaxDepth) != simdjson::SUCCESS)
      throw std::bad_alloc();
  }
};

MessageParser::MessageParser() : state_(std::make_unique<State>()) {}
MessageParser::~MessageParser() = default;
MessageParser::MessageParser(MessageParser&&) noexcept = default;
MessageParser& MessageParser::operator=(MessageParser&&) noexcept = default;

ParseResult MessageParser::parse(std::string_view line) {
  return parse_line(line, nullptr, true);
}

ParseResult MessageParser::parse_moving(std::string&& line) {
  return parse_line(line, &line, true);
}

ParseResult MessageParser::parse_line(std::string_view line, std::string* owned,
                                      bool allow_number_fallback) {
  try {
    element root;
    // A line whose storage has simdjson's padding spare is parsed where it is, not copied first.
    const bool padded =
        owned != nullptr && owned->capacity() - owned->size() >= simdjson::SIMDJSON_PADDING;
    auto error =
        state_->dom.parse(line.data(), line.size(), /*realloc_if_needed=*/!padded).get(root);
    if (allow_number_fallback &&
        (error == simdjson::NUMBER_ERROR || error == simdjson::NUMBER_OUT_OF_RANGE)) {
      // Valid JSON whose numbers simdjson cannot hold (beyond 64 bits): let nlohmann read them as
      // doubles, and type the message from that normalised text. The original line is kept.
      auto value = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
      if (value.is_discarded()) return make_error(ParseError::Kind::not_json, "", "bad number");
      auto typed = parse_line(value.dump(), nullptr, false);
      if (auto* message = std::get_if<Message>(&typed)) {
        return Message(std::string(line), message->body());
      }
      return typed;
    }
    if (error == simdjson::DEPTH_ERROR) return make_error(ParseError::Kind::too_deep, "");
    if (error) return make_error(ParseError::Kind::not_json, "", simdjson::error_message(error));
    object obj;
    if (root.get(obj) != simdjson::SUCCESS) return make_error(ParseError::Kind::not_object, "");
    auto type_field = last_member(obj, "type");
    if (!type_field) return make_error(ParseError::Kind::missing_field, "/type");
    std::string_view type;
    if (type_field->get(type) != simdjson::SUCCESS) {
      return make_error(ParseError::Kind::wrong_type, "/type");
    }
    const auto& stage1 = *state_->dom.implementation;
    const detail::JsonTokens tokens{line, stage1.structural_indexes.get(),
                                    stage1.n_structural_indexes};
    MessageBody body = parse_body(type, obj, tokens);
    return ParseResult(std::in_place_type<Message>,
                       owned != nullptr ? std::move(*owned) : std::string(line), std::move(body));
  } catch (const FieldFault& fault) {
    return make_error(fault.kind, fault.field);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return make_error(ParseError::Kind::not_json, "", e.what());
  }
}

}  // namespace claude::sdk
