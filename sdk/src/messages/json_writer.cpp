#include "messages/json_writer.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace claude::sdk::detail {
namespace {

constexpr auto kReplaceInvalid = nlohmann::json::error_handler_t::replace;

// Whether `text` is well-formed UTF-8 (nlohmann's rules: no overlongs, no surrogates, ≤ U+10FFFF).
bool valid_utf8(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    std::size_t extra;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      extra = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      extra = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      extra = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (static_cast<std::size_t>(end - p) <= extra) return false;
    if (p[1] < lo || p[1] > hi) return false;
    for (std::size_t i = 2; i <= extra; ++i)
      if (p[i] < 0x80 || p[i] > 0xBF) return false;
    p += extra + 1;
  }
  return true;
}

bool needs_escape(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\';
}

void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto c = static_cast<unsigned char>(text[i]);
    if (!needs_escape(c)) continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out.append(escape, sizeof escape);
      }
    }
  }
  out.append(text.data() + run, text.size() - run);
  out += '"';
}

template <class Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, static_cast<std::size_t>(end - digits));
}

// Whether `text` is printable ASCII without '"' or '\\' (nothing to escape, nothing to validate),
// eight bytes at a time: the common case of keys, ids and short values, which the bytewise
// UTF-8 check and escape loop below would otherwise walk twice.
bool plain_ascii(std::string_view text) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  const auto has_zero = [](std::uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  const char* p = text.data();
  std::size_t left = text.size();
  for (; left >= 8; p += 8, left -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, sizeof w);
    // A byte is special if it has its high bit set, is below 0x20, or is '"' or '\\'.
    const std::uint64_t special =
        (w | (w - kOnes * 0x20) | has_zero(w ^ (kOnes * '"')) | has_zero(w ^ (kOnes * '\\'))) &
        kHigh;
    if (special != 0) return false;
  }
  for (; left > 0; ++p, --left) {
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x80 || needs_escape(c)) return false;
  }
  return true;
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  if (plain_ascii(text)) {
    out += '"';
    out.append(text);
    out += '"';
  } else if (valid_utf8(text)) {
    append_escaped(out, text);
  } else {
    out += nlohmann::json(text).dump(-1, ' ', false, kReplaceInvalid);
  }
}

void append_json(std::string& out, const nlohmann::json& value) {
  using Kind = nlohmann::json::value_t;
  switch (value.type()) {
    case Kind::null:
      out += "null";
      return;
    case Kind::boolean:
      out += value.get_ref<const bool&>() ? "true" : "false";
      return;
    case Kind::number_integer:
      append_integer(out, value.get_ref<const nlohmann::json::number_integer_t&>());
      return;
    case Kind::number_unsigned:
      append_integer(out, value.get_ref<const nlohmann::json::number_unsigned_t&>());
      return;
    case Kind::string:
      append_json_string(out, value.get_ref<const std::string&>());
      return;
    case Kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_ref<const nlohmann::json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        append_json(out, member);
      }
      out += '}';
      return;
    }
    case Kind::array: {
      out += '[';
      bool first = true;
      for (const auto& element : value.get_ref<const nlohmann::json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        append_json(out, element);
      }
      out += ']';
      return;
    }
    default:  // floating point, binary, discarded: nlohmann's own formatting
      out += value.dump(-1, ' ', false, kReplaceInvalid);
      return;
  }
}

}  // namespace claude::sdk::detail
