#include "claude/base/base64.hpp"

#include <array>
#include <cstdint>

namespace claude::base {
namespace {

constexpr std::string_view kAlphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_decode_table() {
  std::array<std::int8_t, 256> table{};
  for (auto& v : table) v = -1;
  for (std::size_t i = 0; i < kAlphabet.size(); ++i) {
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  }
  return table;
}

constexpr auto kDecode = make_decode_table();

}  // namespace

void base64_append(std::string& out, std::string_view bytes) {
  const auto* in = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t n = bytes.size();
  const std::size_t start = out.size();
  out.resize(start + (n + 2) / 3 * 4);
  char* dst = out.data() + start;
  for (std::size_t i = 0; i < n; i += 3) {
    const std::size_t left = n - i;  // the last group may hold 1 or 2 bytes: '=' pads it
    std::uint32_t v = std::uint32_t{in[i]} << 16;
    if (left > 1) v |= std::uint32_t{in[i + 1]} << 8;
    if (left > 2) v |= in[i + 2];
    *dst++ = kAlphabet[(v >> 18) & 63];
    *dst++ = kAlphabet[(v >> 12) & 63];
    *dst++ = left > 1 ? kAlphabet[(v >> 6) & 63] : '=';
    *dst++ = left > 2 ? kAlphabet[v & 63] : '=';
  }
}

std::string base64_encode(std::string_view bytes) {
  std::string out;
  base64_append(out, bytes);
  return out;
}

std::optional<std::string> base64_decode(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    int pad = 0;
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if (c == '=' && last && k >= 2) {
        ++pad;
        v <<= 6;
        continue;
      }
      if (pad > 0 || kDecode[c] < 0) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(kDecode[c]);
    }
    out.push_back(static_cast<char>((v >> 16) & 0xFF));
    if (pad < 2) out.push_back(static_cast<char>((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(v & 0xFF));
  }
  return out;
}

}  // namespace claude::base
