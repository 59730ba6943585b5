#include "messages/json_slice.hpp"

#include <algorithm>
#include <cstring>

namespace claude::sdk::detail {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

const char* skip_space(const char* p, const char* end) {
  while (p < end && is_space(*p)) ++p;
  return p;
}

// The next '"' in [p, end), or nullptr. Keys and most values end within a few bytes, where a
// plain loop beats the call into memchr; longer strings get memchr.
const char* find_quote(const char* p, const char* end) {
  const char* const near = p + std::min<std::ptrdiff_t>(end - p, 32);
  for (; p < near; ++p)
    if (*p == '"') return p;
  if (p >= end) return nullptr;
  return static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
}

// `p` is at an opening quote; returns the position after the closing one.
const char* skip_string(const char* p, const char* end) {
  const char* const body = ++p;
  while (p < end) {
    const char* quote = find_quote(p, end);
    if (quote == nullptr) return end;
    const char* run = quote;
    while (run > body && run[-1] == '\\') --run;
    if (((quote - run) & 1) == 0) return quote + 1;  // an even run of backslashes escapes nothing
    p = quote + 1;
  }
  return end;
}

const char* skip_value(const char* p, const char* end, bool& spaced) {
  if (p >= end) return end;
  if (*p == '"') return skip_string(p, end);
  if (*p == '{' || *p == '[') {
    std::size_t depth = 0;
    while (p < end) {
      const char c = *p;
      if (c == '"') {
        p = skip_string(p, end);
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return p + 1;
      } else if (is_space(c)) {
        spaced = true;
      }
      ++p;
    }
    return end;
  }
  while (p < end && *p != ',' && *p != '}' && *p != ']' && !is_space(*p)) ++p;
  return p;
}

}  // namespace

JsonSliceCursor::JsonSliceCursor(std::string_view container) noexcept
    : pos_(container.data()), end_(container.data() + container.size()) {
  pos_ = skip_space(pos_, end_);
  if (pos_ < end_ && (*pos_ == '{' || *pos_ == '[')) {
    object_ = *pos_ == '{';
    valid_ = true;
    ++pos_;
  }
}

JsonSlice JsonSliceCursor::next(std::string_view* key) noexcept {
  if (!valid_) return {};
  const char* p = skip_space(pos_, end_);
  if (p < end_ && *p == ',') p = skip_space(p + 1, end_);
  if (p >= end_ || *p == '}' || *p == ']') {
    pos_ = p;
    return {};
  }
  if (object_) {
    if (*p != '"') {
      valid_ = false;
      return {};
    }
    const char* key_end = skip_string(p, end_);
    if (key_end - p < 2 || key_end[-1] != '"') {
      valid_ = false;
      return {};
    }
    if (key != nullptr) *key = std::string_view(p + 1, static_cast<std::size_t>(key_end - p - 2));
    p = skip_space(key_end, end_);
    if (p >= end_ || *p != ':') {
      valid_ = false;
      return {};
    }
    p = skip_space(p + 1, end_);
  }
  JsonSlice slice;
  const char* start = p;
  p = skip_value(p, end_, slice.spaced);
  slice.text = std::string_view(start, static_cast<std::size_t>(p - start));
  pos_ = p;
  return slice;
}

std::string compact_json(JsonSlice slice) {
  if (!slice.spaced) return std::string(slice.text);
  std::string out;
  out.reserve(slice.text.size());
  const char* p = slice.text.data();
  const char* const end = p + slice.text.size();
  while (p < end) {
    if (*p == '"') {
      const char* after = skip_string(p, end);
      out.append(p, after);
      p = after;
    } else {
      if (!is_space(*p)) out += *p;
      ++p;
    }
  }
  return out;
}

}  // namespace claude::sdk::detail
