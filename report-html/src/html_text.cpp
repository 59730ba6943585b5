#include "claude/report_html/html_text.hpp"

#include <algorithm>
#include <utility>

namespace claude::report_html {

std::string escape_html(std::string_view text) {
  using Entity = std::pair<char, std::string_view>;
  static constexpr Entity kEntities[] = {
      {'&', "&amp;"}, {'<', "&lt;"}, {'>', "&gt;"}, {'"', "&quot;"}, {'\'', "&#39;"}};
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    const Entity* entity = std::ranges::find(kEntities, c, &Entity::first);
    if (entity != std::end(kEntities)) {
      out += entity->second;
    } else {
      out += c;
    }
  }
  return out;
}

std::string shorten(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    // Continuation bytes (10xxxxxx) belong to the code point already counted.
    if ((static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U) continue;
    if (chars == max_chars) return std::string(text.substr(0, i)) + "\u2026";
    ++chars;
  }
  return std::string(text);
}

}  // namespace claude::report_html
