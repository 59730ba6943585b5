#include "messages/json_slice.hpp"

#include <algorithm>
#include <cstring>

namespace claude::sdk::detail {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
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

}  // namespace

JsonSliceCursor::JsonSliceCursor(const JsonTokens& tokens, std::size_t container) noexcept
    : tokens_(&tokens), pos_(container + 1) {
  const char c = at(container);
  object_ = c == '{';
  valid_ = c == '{' || c == '[';
}

char JsonSliceCursor::at(std::size_t token) const noexcept {
  if (tokens_ == nullptr || token >= tokens_->count) return '\0';
  const std::uint32_t offset = tokens_->offsets[token];
  return offset < tokens_->text.size() ? tokens_->text[offset] : '\0';
}

bool JsonSliceCursor::advance(std::string_view* key) noexcept {
  if (!valid_) return false;
  if (value_ != npos && after_ == npos) value();
  if (!valid_) return false;
  if (value_ != npos) pos_ = after_;
  value_ = npos;
  after_ = npos;
  if (at(pos_) == ',') ++pos_;
  const char c = at(pos_);
  // A key is its string token, then ':'; it ends at the last quote before the colon.
  const bool lost =
      c == '}' || c == ']' || c == '\0' || (object_ && (c != '"' || at(pos_ + 1) != ':'));
  if (lost) {
    valid_ = false;
    return false;
  }
  if (object_) {
    const char* const text = tokens_->text.data();
    const char* open = text + tokens_->offsets[pos_];
    const char* close = text + tokens_->offsets[pos_ + 1];
    while (close > open + 1 && close[-1] != '"') --close;
    if (close <= open + 1) {
      valid_ = false;
      return false;
    }
    if (key != nullptr)
      *key = std::string_view(open + 1, static_cast<std::size_t>(close - open - 2));
    pos_ += 2;
  }
  value_ = pos_;
  return true;
}

JsonSlice JsonSliceCursor::value() noexcept {
  if (value_ == npos) return {};
  if (after_ != npos) return current_;
  current_ = {};
  const char* const text = tokens_->text.data();
  const char first = at(value_);
  std::size_t end_offset = 0;
  if (first == '{' || first == '[') {
    // To the matching bracket; whitespace before any token inside makes the value spaced.
    std::size_t depth = 0;
    std::size_t t = value_;
    for (; t < tokens_->count; ++t) {
      const char c = at(t);
      if (c == '\0') {  // a token outside the text: not simdjson's
        t = tokens_->count;
        break;
      }
      if (t != value_ && is_space(text[tokens_->offsets[t] - 1])) current_.spaced = true;
      if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        break;
      }
    }
    if (t >= tokens_->count) {
      valid_ = false;
      return {};
    }
    end_offset = tokens_->offsets[t] + 1;
    after_ = t + 1;
  } else {
    // A scalar ends where the next token starts, less the whitespace before it.
    after_ = value_ + 1;
    std::size_t next = after_ < tokens_->count ? tokens_->offsets[after_] : tokens_->text.size();
    while (next > tokens_->offsets[value_] + 1 && is_space(text[next - 1])) --next;
    end_offset = next;
  }
  const std::size_t start = tokens_->offsets[value_];
  current_.text = std::string_view(text + start, end_offset - start);
  return current_;
}

JsonSlice JsonSliceCursor::next(std::string_view* key) noexcept {
  if (!advance(key)) return {};
  return value();
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
