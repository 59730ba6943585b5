// Raw views of the values inside JSON text that simdjson has already validated.
//
// Why: `JsonText` members keep a sub-value as text, and re-serialising simdjson DOM elements cost
// a quarter of the parse time on tool results of hundreds of KiB; the bytes are already on the
// line. The cursor walks an object's members (or an array's elements) in document order, as the
// DOM iterates them, stepping over simdjson's stage-1 token offsets rather than bytes, so a
// string of 200 KiB is one step and no byte is read twice.
//
// How it fails: on tokens it cannot follow it returns empty slices (never reading outside the
// text or the token list), and the parser falls back to re-serialising.
// What it costs: one step per token of the members passed over or asked for; a value is measured
// only when its text is asked for or the cursor steps past it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace claude::sdk::detail {

struct JsonSlice {
  std::string_view text;  // empty when unavailable
  bool spaced = false;    // whitespace between tokens inside the value (not inside strings)
};

// The text simdjson parsed, and its stage-1 token offsets (ascending, each < text.size()).
struct JsonTokens {
  std::string_view text;
  const std::uint32_t* offsets = nullptr;
  std::size_t count = 0;
};

class JsonSliceCursor {
 public:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  JsonSliceCursor() = default;  // walks nothing
  // Over the object or array whose opening bracket is token `container`; `tokens` must outlive
  // the cursor.
  JsonSliceCursor(const JsonTokens& tokens, std::size_t container) noexcept;

  // Steps to the next member value (object) or element (array) without measuring it; false after
  // the last one, or on tokens it cannot follow. For an object, `key` receives the member's key
  // as written, without quotes (escapes not decoded).
  bool advance(std::string_view* key = nullptr) noexcept;
  // The token where the current value starts (a nested cursor's `container`); npos before the
  // first `advance` and after the last.
  [[nodiscard]] std::size_t current() const noexcept { return value_; }
  // The current value, measured (once). Empty text before the first `advance`.
  JsonSlice value() noexcept;

  // `advance` then `value`: the next member value or element; empty text after the last one.
  JsonSlice next(std::string_view* key = nullptr) noexcept;

 private:
  [[nodiscard]] char at(std::size_t token) const noexcept;

  const JsonTokens* tokens_ = nullptr;
  std::size_t pos_ = 0;       // the next token to read
  std::size_t value_ = npos;  // the current value's first token
  std::size_t after_ = npos;  // the token after the current value, once measured
  JsonSlice current_;         // the current value, once measured
  bool object_ = false;
  bool valid_ = false;
};

// The slice's text without insignificant whitespace.
std::string compact_json(JsonSlice slice);

}  // namespace claude::sdk::detail
