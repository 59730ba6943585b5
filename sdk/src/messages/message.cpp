#include "claude/sdk/message.hpp"

#include "messages/json_reader.hpp"

namespace claude::sdk {

static_assert(
    std::is_same_v<
        std::variant_alternative_t<static_cast<std::size_t>(MessageType::unknown), MessageBody>,
        UnknownMessage>,
    "MessageBody alternatives must follow MessageType order");

nlohmann::json JsonText::value() const {
  if (text_.empty()) return nullptr;
  return detail::read_json(text_);
}

bool operator==(const JsonText& a, const JsonText& b) {
  // Texts are compact but not canonical (duplicate keys, number spellings): compare values.
  if (a.text_ == b.text_) return true;
  if (a.text_.empty() || b.text_.empty()) return false;
  return a.value() == b.value();
}

std::string_view to_string(MessageType type) noexcept {
  switch (type) {
    case MessageType::system:
      return "system";
    case MessageType::assistant:
      return "assistant";
    case MessageType::user:
      return "user";
    case MessageType::result:
      return "result";
    case MessageType::stream_event:
      return "stream_event";
    case MessageType::control_request:
      return "control_request";
    case MessageType::control_response:
      return "control_response";
    case MessageType::control_cancel_request:
      return "control_cancel_request";
    case MessageType::rate_limit_event:
      return "rate_limit_event";
    case MessageType::keep_alive:
      return "keep_alive";
    case MessageType::unknown:
      return "unknown";
  }
  return "unknown";
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
    json_ = std::make_shared<const nlohmann::json>(detail::read_json(line()));
  }
  return *json_;
}

bool operator==(const Message& a, const Message& b) {
  return a.body_ == b.body_ && a.json() == b.json();
}

}  // namespace claude::sdk
