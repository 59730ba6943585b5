// fuzz_message_parser: any line either fails cleanly or yields a message that survives a round
// trip: its JSON, written as a frame and parsed again, gives an equal message.
//
// The whole input is one line. ASan/UBSan catch crashes and leaks; the round trip catches typed
// fields that disagree with the JSON value (duplicate keys, number spellings, escapes) and JSON
// the parser accepts but the writer cannot reproduce.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <variant>

#include "claude/sdk/frame_writer.hpp"
#include "claude/sdk/message_parser.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static claude::sdk::MessageParser parser;
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  auto first = parser.parse(line);
  if (auto* error = std::get_if<claude::sdk::ParseError>(&first)) {
    check(!error->message.empty());
    return 0;
  }
  const auto& message = std::get<claude::sdk::Message>(first);
  check(message.line() == line);
  check(message.json().is_object());

  std::string frame = claude::sdk::serialize_frame(message.json());
  check(frame.find('\n') == frame.size() - 1);
  frame.pop_back();
  auto second = parser.parse(frame);
  check(std::holds_alternative<claude::sdk::Message>(second));
  const auto& again = std::get<claude::sdk::Message>(second);
  check(again.type() == message.type());
  check(again.type_name() == message.type_name());
  check(again == message);
  return 0;
}
