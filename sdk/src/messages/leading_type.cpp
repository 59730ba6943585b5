#include "messages/leading_type.hpp"

#include <cstring>

namespace claude::sdk::detail {
namespace {

std::size_t skip_space(std::string_view s, std::size_t at) noexcept {
  while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\r' || s[at] == '\n')) ++at;
  return at;
}

bool take(std::string_view s, std::size_t& at, std::string_view token) noexcept {
  if (s.substr(at, token.size()) != token) return false;
  at += token.size();
  return true;
}

}  // namespace

std::optional<std::string_view> leading_type(std::string_view line) noexcept {
  std::size_t at = skip_space(line, 0);
  if (!take(line, at, "{")) return std::nullopt;
  at = skip_space(line, at);
  if (!take(line, at, "\"type\"")) return std::nullopt;
  at = skip_space(line, at);
  if (!take(line, at, ":")) return std::nullopt;
  at = skip_space(line, at);
  if (!take(line, at, "\"")) return std::nullopt;
  const auto* close =
      static_cast<const char*>(std::memchr(line.data() + at, '"', line.size() - at));
  if (close == nullptr) return std::nullopt;
  const std::string_view value(line.data() + at,
                               static_cast<std::size_t>(close - line.data()) - at);
  // A backslash may escape the quote found, or spell the type another way: not certain.
  if (value.find('\\') != std::string_view::npos) return std::nullopt;
  return value;
}

}  // namespace claude::sdk::detail
