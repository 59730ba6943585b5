#include "claude/base/json_escape.hpp"

#include <array>

namespace claude::base {
namespace {

// For each byte: 0 when it is copied as is, the letter of its two-byte escape, or 'u' for \u00XX.
constexpr std::array<char, 256> make_escape_table() {
  std::array<char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = 'u';
  table['"'] = '"';
  table['\\'] = '\\';
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  return table;
}

constexpr auto kEscape = make_escape_table();

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Room for the common case, one escape in a few bytes (a recorded line is JSON: about one
  // byte in five is a quote).
  out.reserve(out.size() + text.size() + text.size() / 4 + 2);
  out.push_back('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const char letter = kEscape[c];
    if (letter == 0) continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    if (letter == 'u') {
      const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
      out.append(escape, sizeof escape);
    } else {
      const char escape[] = {'\\', letter};
      out.append(escape, sizeof escape);
    }
  }
  out.append(text.data() + run, text.size() - run);
  out.push_back('"');
}

}  // namespace claude::base
