// fuzz_message_parser: any line either fails cleanly or yields a message that survives a round
// trip: its JSON, written as a frame and parsed again, gives an equal message. And where
// leading_type() reads a type from the line's start (the reader's choice of which thread parses
// it), that is the value of the line's first member, named "type", and the parser's type when the
// line has no other "type" member.
//
// The whole input is one line. ASan/UBSan catch crashes and leaks; the round trip catches typed
// fields that disagree with the JSON value (duplicate keys, number spellings, escapes) and JSON
// the parser accepts but the writer cannot reproduce.
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_oracle.hpp"
#include "messages/frame_writer.hpp"
#include "messages/leading_type.hpp"
#include "messages/message_parser.hpp"

namespace {

// The line's first member and how many members are named "type", by simdjson's own reading;
// false when simdjson does not take the line for an object.
struct Members {
  std::string first_key;
  std::string first_string;  // the first member's value, when a string
  bool first_is_string = false;
  int named_type = 0;
};
bool read_members(std::string_view line, Members& out) {
  static simdjson::dom::parser dom;
  simdjson::dom::object object;
  if (dom.parse(line.data(), line.size()).get(object) != simdjson::SUCCESS) return false;
  bool first = true;
  for (auto field : object) {
    if (first) {
      out.first_key = std::string(field.key);
      std::string_view text;
      out.first_is_string = field.value.get(text) == simdjson::SUCCESS;
      if (out.first_is_string) out.first_string = std::string(text);
      first = false;
    }
    if (field.key == "type") ++out.named_type;
  }
  return true;
}

void check_leading_type(std::string_view line, const claude::sdk::ParseResult& parsed) {
  const auto type = claude::sdk::detail::leading_type(line);
  if (!type) return;
  Members members;
  if (!read_members(line, members)) return;  // not JSON: the parser decides, later
  CHECK(members.first_key == "type" && members.first_is_string);
  CHECK(members.first_string == *type);
  if (const auto* message = std::get_if<claude::sdk::Message>(&parsed);
      message != nullptr && members.named_type == 1) {
    CHECK(message->type_name() == *type);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static claude::sdk::MessageParser parser;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  auto first = parser.parse(line);
  check_leading_type(line, first);
  if (auto* error = std::get_if<claude::sdk::ParseError>(&first)) {
    CHECK(!error->message.empty());
    return 0;
  }
  const auto& message = std::get<claude::sdk::Message>(first);
  CHECK(message.line() == line);
  CHECK(message.json().is_object());

  std::string frame = claude::sdk::serialize_frame(message.json());
  CHECK(frame.find('\n') == frame.size() - 1);
  frame.pop_back();
  auto second = parser.parse(frame);
  CHECK(std::holds_alternative<claude::sdk::Message>(second));
  const auto& again = std::get<claude::sdk::Message>(second);
  CHECK(again.type() == message.type());
  CHECK(again.type_name() == message.type_name());
  CHECK(again == message);
  return 0;
}
