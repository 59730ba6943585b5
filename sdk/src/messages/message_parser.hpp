// MessageParser: one NDJSON line → a typed `Message`, or a typed `ParseError`.
//
// What it is: the SDK's reader of CLI output (docs/protocol.md §3–§5). It validates the line as
// JSON (simdjson), requires an object with a string `type`, checks the fields each known type
// needs (those the official Python SDK requires) and copies the typed fields out.
//
// How it fails: never by exception (only std::bad_alloc passes through): a `ParseError` says what
// was wrong (`kind`) and where (`field`, a JSON Pointer). Integers beyond 64 bits are valid JSON
// and still accepted, through a slower nlohmann path.
//
// What it costs: one simdjson DOM parse per line plus copies of the typed strings; the parser
// reuses its buffers, so keep one per thread. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "claude/sdk/errors.hpp"
#include "claude/sdk/message.hpp"

namespace claude::sdk {

using ParseResult = std::variant<Message, ParseError>;

class MessageParser {
 public:
  // Nesting deeper than this is rejected as `too_deep` (a cap, not a stack overflow).
  static constexpr std::size_t kMaxDepth = 512;

  MessageParser();
  ~MessageParser();
  MessageParser(MessageParser&&) noexcept;
  MessageParser& operator=(MessageParser&&) noexcept;
  MessageParser(const MessageParser&) = delete;
  MessageParser& operator=(const MessageParser&) = delete;

  // Parses one line (without its newline).
  [[nodiscard]] ParseResult parse(std::string_view line);
  // The same, taking the line's storage into the Message instead of copying it; on a ParseError
  // `line` is left as it was (callers report it).
  [[nodiscard]] ParseResult parse_moving(std::string&& line);

 private:
  // `owned`: the line's storage, moved into the Message (null: the line is copied).
  ParseResult parse_line(std::string_view line, std::string* owned, bool allow_number_fallback);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace claude::sdk
