#include "claude/emulator/json_text.hpp"

#include <string>

namespace claude::emulator {

std::size_t json_nesting_depth(std::string_view text, std::size_t stop_after) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > deepest) {
          deepest = depth;
          if (deepest > stop_after) return deepest;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return deepest;
}

Json parse_json(std::string_view text) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw Json::parse_error::create(
        101, 0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", nullptr);
  }
  return Json::parse(text);
}

Json parse_json_or_discarded(std::string_view text) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth)
    return Json(Json::value_t::discarded);
  return Json::parse(text, nullptr, /*allow_exceptions=*/false);
}

}  // namespace claude::emulator
