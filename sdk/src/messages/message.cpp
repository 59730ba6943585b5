#include "claude/sdk/message.hpp"

#include "claude/base/json.hpp"

namespace claude::sdk {

static_assert(
    std::is_same_v<
        std::variant_alternative_t<static_cast<std::size_t>(MessageType::unknown), MessageBody>,
        UnknownMessage>,
    "MessageBody alternatives must follow MessageType order");

nlohmann::json JsonText::value() const {
  if (text_.empty()) return nullptr;
  return base::parse_unordered_json_or_discarded(text_);
}

bool operator==(const JsonText& a, const JsonText& b) {
  // Texts are compact but not canonical (duplicate keys, number spellings): compare values.
  if (a.text_ == b.text_) return true;
  if (a.text_.empty() || b.text_.empty()) return false;
  return a.value() == b.value();
}

std::string_view to_string(MessageType type) noexcept {
  static constexpr std::string_view kNames[] = {"system",
                                                "assistant",
                                                "user",
                                                "result",
                                                "stream_event",
                                                "control_request",
                                                "control_response",
                                                "control_cancel_request",
                                                "rate_limit_event",
                                                "keep_alive",
                                                "unknown"};
  const auto index = static_cast<std::size_t>(type);
  return index < std::size(kNames) ? kNames[index] : "unknown";
}

Message::Message(std::string line, MessageBody body)
    : line_(std::move(line)), body_(std::move(body)) {}

MessageType Message::type() const noexcept {
  // The variant's alternatives are declared in MessageType order.
  return static_cast<MessageType>(body_.index());
}

std::string_view Message::type_name() const noexcept {
  if (const auto* unknown = std::get_if<UnknownMessage>(&body_)) return unknown->type;
  return to_string(type());
}

const nlohmann::json& Message::json() const {
  if (!json_) {
    json_ = std::make_shared<const nlohmann::json>(base::parse_unordered_json_or_discarded(line()));
  }
  return *json_;
}

bool operator==(const Message& a, const Message& b) {
  return a.body_ == b.body_ && a.json() == b.json();
}

}  // namespace claude::sdk
