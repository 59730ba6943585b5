// JsonText::value() and Message::json(): the value must be exactly what nlohmann's own parser
// gives for the same text — same kinds of numbers, same key handling, `discarded` when invalid —
// whichever parser reads it.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "claude/sdk/message.hpp"

namespace claude::sdk {
namespace {

using nlohmann::json;

void expect_same_as_nlohmann(const std::string& text) {
  if (text.empty()) return;  // an empty JsonText is an absent value, not a text to parse
  const json expected = json::parse(text, nullptr, /*allow_exceptions=*/false);
  const json got = JsonText(text).value();
  ASSERT_EQ(got.type(), expected.type()) << text;
  if (expected.is_discarded()) return;
  EXPECT_EQ(got, expected) << text;
  // Same bytes out means same kinds of numbers, same key order and same string contents.
  EXPECT_EQ(got.dump(), expected.dump()) << text;
  const auto kinds = [](const json& v, auto&& self) -> std::string {
    std::string out(1, static_cast<char>('a' + static_cast<int>(v.type())));
    if (v.is_structured())
      for (const auto& item : v) out += self(item, self);
    return out;
  };
  EXPECT_EQ(kinds(got, kinds), kinds(expected, kinds)) << text;
}

TEST(JsonText, EdgeCasesMatchNlohmann) {
  const std::vector<std::string> cases = {"0",
                                          "-0",
                                          "[0,-0]",
                                          "{\"a\":-0}",
                                          "1",
                                          "-1",
                                          "9223372036854775807",
                                          "9223372036854775808",
                                          "18446744073709551615",
                                          "18446744073709551616",
                                          "-9223372036854775808",
                                          "-9223372036854775809",
                                          "1e400",
                                          "-1e400",
                                          "1.5e-320",
                                          "0.1",
                                          "1E2",
                                          "-0.0",
                                          "[1.0,2]",
                                          "\"\"",
                                          "\"\\u0000x\"",
                                          "\"\\ud83d\\ude00\"",
                                          "\"\\ud800\"",
                                          "\"\\udc00\"",
                                          "\"\\ud800\\u0041\"",
                                          "\"\xC3\xA9\"",
                                          "\"\xFF\"",
                                          "\"\xC0\xAF\"",
                                          "\"\xED\xA0\x80\"",
                                          "{\"k\":1,\"k\":2}",
                                          "{\"b\":1,\"a\":2}",
                                          "[]",
                                          "{}",
                                          "null",
                                          "true",
                                          "false",
                                          " [1] ",
                                          "[1,]",
                                          "{\"a\":1,}",
                                          "[1] x",
                                          " ",
                                          "nul",
                                          "01",
                                          "1.",
                                          ".5",
                                          "+1",
                                          "\"\t\"",
                                          "[\"a\"\n,\n\"b\"]",
                                          "\xEF\xBB\xBF[1]",
                                          std::string(2000, '[') + std::string(2000, ']'),
                                          "[" + std::string(100000, ' ') + "1]"};
  for (const auto& text : cases) expect_same_as_nlohmann(text);
}

std::string random_text(std::mt19937& rng, int depth) {
  static const std::vector<std::string> scalars = {"0",
                                                   "-0",
                                                   "7",
                                                   "-7",
                                                   "18446744073709551615",
                                                   "1e308",
                                                   "2.5",
                                                   "-1.25e-3",
                                                   "true",
                                                   "false",
                                                   "null",
                                                   "\"x\"",
                                                   "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
                                                   "\"\\u00e9\\u2028\"",
                                                   "\"\xE2\x82\xAC\""};
  const int pick = std::uniform_int_distribution<int>(0, depth > 4 ? 0 : 2)(rng);
  if (pick == 0)
    return scalars[std::uniform_int_distribution<std::size_t>(0, scalars.size() - 1)(rng)];
  const int n = std::uniform_int_distribution<int>(0, 4)(rng);
  std::string out(1, pick == 1 ? '[' : '{');
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ',';
    if (pick == 2)
      out += "\"k" + std::to_string(std::uniform_int_distribution<int>(0, 3)(rng)) + "\":";
    out += random_text(rng, depth + 1);
  }
  out += pick == 1 ? ']' : '}';
  return out;
}

TEST(JsonText, RandomDocumentsAndTheirCorruptionsMatchNlohmann) {
  std::mt19937 rng(1130);
  for (int i = 0; i < 3000; ++i) {
    std::string text = random_text(rng, 0);
    expect_same_as_nlohmann(text);
    // One byte changed or cut: mostly invalid, sometimes still valid.
    if (!text.empty()) {
      std::string broken = text;
      broken[std::uniform_int_distribution<std::size_t>(0, broken.size() - 1)(rng)] =
          "{}[],:\"\\0-e\xFF"[std::uniform_int_distribution<int>(0, 12)(rng)];
      expect_same_as_nlohmann(broken);
      expect_same_as_nlohmann(text.substr(0, text.size() / 2));
    }
  }
}

TEST(JsonText, LargeTextsAreReadToo) {
  std::string big = "{\"text\":\"" + std::string(300000, 'x') + "\",\"n\":[";
  for (int i = 0; i < 20000; ++i) big += std::to_string(i - 10000) + ",";
  big += "0]}";
  expect_same_as_nlohmann(big);
}

TEST(JsonText, MessageJsonIsNlohmannsValueOfTheLine) {
  const std::string line =
      R"({"type":"x","n":-0,"m":18446744073709551615,"s":"\u00e9","k":1,"k":2})";
  const Message message(line, UnknownMessage{"x"});
  EXPECT_EQ(message.json().dump(), json::parse(line).dump());
}

}  // namespace
}  // namespace claude::sdk
