// append_json_string against a byte-at-a-time reference: every byte value at every offset of a
// 16-byte block, runs of escapes, UTF-8 sequences and random input.
#include "claude/base/json_escape.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace claude::base {
namespace {

// The specification, one byte at a time: \" \\ \b \f \n \r \t (nlohmann's forms), \u00XX for
// the other control characters, every other byte (0x7f and non-ASCII included) as it is.
std::string reference_escape(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
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
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

std::string escaped(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

TEST(JsonEscape, EscapesEveryByteValueAtEveryOffsetOfThreeBlocks) {
  for (int byte = 0; byte < 256; ++byte) {
    for (std::size_t offset = 0; offset < 56; ++offset) {
      std::string text(56, 'a');
      text[offset] = static_cast<char>(byte);
      ASSERT_EQ(escaped(text), reference_escape(text)) << "byte " << byte << " at " << offset;
    }
  }
}

TEST(JsonEscape, EscapesWordsMadeOnlyOfBytesThatNeedEscaping) {
  const std::string specials = std::string("\"\\\n\r\t\x01\x1f", 7) + std::string(1, '\0');
  for (std::size_t length = 0; length <= 40; ++length) {
    for (std::size_t shift = 0; shift < specials.size(); ++shift) {
      std::string text;
      for (std::size_t i = 0; i < length; ++i) text += specials[(i + shift) % specials.size()];
      ASSERT_EQ(escaped(text), reference_escape(text)) << "length " << length;
    }
  }
}

TEST(JsonEscape, GrowsTheOutputForLinesOfUnicodeEscapesOnly) {
  for (std::size_t length = 0; length <= 50; ++length) {
    const std::string text(length, '\x01');
    const std::string out = escaped(text);
    ASSERT_EQ(out.size(), 6 * length + 2);
    ASSERT_EQ(out, reference_escape(text));
  }
}

TEST(JsonEscape, PassesDelAndMultiByteUtf8ThroughAcrossWordBoundaries) {
  const std::string sequences[] = {"\x7f", "\xC3\xA9", "\xE2\x80\xA8", "\xF0\x9F\x98\x80"};
  for (const std::string& sequence : sequences) {
    for (std::size_t offset = 0; offset < 17; ++offset) {
      const std::string text = std::string(offset, '"') + sequence + std::string(9, 'x') + "\\";
      const std::string out = escaped(text);
      ASSERT_EQ(out, reference_escape(text)) << "offset " << offset;
      ASSERT_EQ(nlohmann::json::parse(out).get<std::string>(), text) << "offset " << offset;
    }
  }
}

TEST(JsonEscape, AppendsAfterWhatTheOutputAlreadyHolds) {
  std::string out = "prefix:";
  append_json_string(out, "a\"b\\c\x02 0123456789");
  EXPECT_EQ(out, "prefix:" + reference_escape("a\"b\\c\x02 0123456789"));
}

TEST(JsonEscape, MatchesTheBytewiseReferenceOnRandomInput) {
  std::mt19937 rng(20261130);
  // Mostly ordinary text, with quotes, backslashes, control and high bytes often enough that
  // most words hold several escapes.
  const std::string common = "ab \"\\\n\t{}:,x\x7f\x80\xff\x01";
  std::uniform_int_distribution<std::size_t> length_of(0, 160);
  std::uniform_int_distribution<int> coin(0, 3);
  std::uniform_int_distribution<std::size_t> pick(0, common.size() - 1);
  std::uniform_int_distribution<int> any_byte(0, 255);
  for (int round = 0; round < 20000; ++round) {
    std::string text(length_of(rng), '\0');
    for (char& c : text) {
      c = coin(rng) == 0 ? static_cast<char>(any_byte(rng)) : common[pick(rng)];
    }
    ASSERT_EQ(escaped(text), reference_escape(text)) << "round " << round;
  }
}

TEST(JsonEscape, EqualsNlohmannsDumpForEveryValidUtf8Text) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c) every_ascii += static_cast<char>(c);
  for (const std::string text :
       {every_ascii, std::string("caf\xC3\xA9 \xE2\x80\xA8 \xF0\x9F\x98\x80")}) {
    EXPECT_EQ(escaped(text), nlohmann::json(text).dump());
  }
}

TEST(JsonEscape, EscapesEveryAsciiByteAtEveryOffsetOfAWord) {
  for (int byte = 0; byte < 0x80; ++byte) {
    for (std::size_t offset = 0; offset < 17; ++offset) {
      std::string text(17, 'a');
      text[offset] = static_cast<char>(byte);
      std::string out;
      append_json_string(out, text);
      ASSERT_EQ(nlohmann::json::parse(out).get<std::string>(), text)
          << "byte " << byte << " at offset " << offset;
    }
  }
}

}  // namespace
}  // namespace claude::base
