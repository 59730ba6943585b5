#include "messages/leading_type.hpp"

namespace claude::sdk::detail {
namespace {

// Skips whitespace, then takes `token`.
bool take(std::string_view s, std::size_t& at, std::string_view token) noexcept {
  while (at < s.size() && (s[at] == ' ' || s[at] == '\t' || s[at] == '\r' || s[at] == '\n')) ++at;
  if (s.substr(at, token.size()) != token) return false;
  at += token.size();
  return true;
}

}  // namespace

std::optional<std::string_view> leading_type(std::string_view line) noexcept {
  std::size_t at = 0;
  if (!take(line, at, "{") || !take(line, at, "\"type\"") || !take(line, at, ":") ||
      !take(line, at, "\""))
    return std::nullopt;
  const std::size_t close = line.find('"', at);
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view value = line.substr(at, close - at);
  // A backslash may escape the quote found, or spell the type another way: not certain.
  if (value.find('\\') != std::string_view::npos) return std::nullopt;
  return value;
}

}  // namespace claude::sdk::detail
