// MessageParser: one NDJSON line → a typed `Message`, or a typed `ParseError`.
//
// What it is: the SDK's reader of CLI output (docs/protocol.md §3–§5). It validates the whole line
// as JSON (simdjson), requires a JSON object with a string `type`, checks the fields each known
// type needs (the same ones the official Python SDK requires) and copies the typed fields out.
//
// How it fails: never by exception (only std::bad_alloc passes through). Every failure is a
// `ParseError` whose `kind` says what was wrong (`not_json`, `not_object`, `missing_field`,
// `wrong_type`, `too_deep`) and whose `field` is the JSON Pointer of the offending member. Numbers
// simdjson cannot hold (integers beyond 64 bits) are still accepted, through a slower nlohmann
// path, because they are valid JSON.
//
// What it costs: one simdjson DOM parse per line plus copies of the typed strings; the parser
// object reuses its buffers, so keep one per thread. Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "claude/sdk/message.hpp"

namespace claude::sdk {

struct ParseError {
  enum class Kind : std::uint8_t { not_json, not_object, missing_field, wrong_type, too_deep };
  Kind kind = Kind::not_json;
  std::string field;    // JSON Pointer of the member at fault ("" for the whole line)
  std::string message;  // human-readable reason

  friend bool operator==(const ParseError&, const ParseError&) = default;
};

std::string_view to_string(ParseError::Kind kind) noexcept;

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
  // The same for a line lent by a transport (InboundLine::lent, followed by
  // InboundLine::kSpareCapacity readable bytes): the Message keeps the view and takes `lender`;
  // on a ParseError `lender` is left as it was.
  [[nodiscard]] ParseResult parse_lent(std::string_view line, std::shared_ptr<const void>&& lender);

 private:
  // Where a parsed line's storage comes from: copied (neither set), moved, or lent.
  struct LineStorage {
    std::string* owned = nullptr;
    std::shared_ptr<const void>* lender = nullptr;
  };
  ParseResult parse_line(std::string_view line, LineStorage storage, bool allow_number_fallback);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace claude::sdk
