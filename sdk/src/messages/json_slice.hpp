// Raw views of the values inside JSON text that simdjson has already validated.
//
// Why: `JsonText` members keep a sub-value as text. Re-serialising simdjson DOM elements for them
// cost a quarter of the parse time on tool results of hundreds of KiB; the same bytes are already
// on the line. The cursor walks an object's members (or an array's elements) in document order,
// the order simdjson's DOM iterates them, so the parser pairs each DOM field with its raw slice.
//
// How it fails: it assumes valid JSON. On text it cannot follow it returns empty slices, never
// reads outside the given view, and the parser falls back to re-serialising.
// What it costs: one forward scan of the container; strings are skipped with memchr.
#pragma once

#include <string>
#include <string_view>

namespace claude::sdk::detail {

struct JsonSlice {
  std::string_view text;  // empty when unavailable
  bool spaced = false;    // whitespace between tokens inside the value (not inside strings)
};

class JsonSliceCursor {
 public:
  // `container` is an object or an array, possibly with surrounding whitespace.
  explicit JsonSliceCursor(std::string_view container) noexcept;

  // The next member value (object) or element (array); empty text after the last one. For an
  // object, `key` receives the member's key as written, without quotes (escapes not decoded).
  JsonSlice next(std::string_view* key = nullptr) noexcept;

 private:
  const char* pos_;
  const char* end_;
  bool object_ = false;
  bool valid_ = false;
};

// The slice's text without insignificant whitespace.
std::string compact_json(JsonSlice slice);

}  // namespace claude::sdk::detail
