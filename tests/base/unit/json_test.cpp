// parse_json reads through simdjson and falls back to nlohmann; either way the value, its number
// kinds, key order and every error message must be what nlohmann alone gives (the reference).
#include "claude/base/json.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace claude::base {
namespace {

// nlohmann behind the same depth cap: what parse_json returned before it had a fast path.
Json reference_parse(std::string_view text) {
  if (json_nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw Json::parse_error::create(
        101, 0, "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", nullptr);
  }
  return Json::parse(text);
}

// Json's operator== calls 1, 1u and 1.0 equal; this one also compares kinds, the sign of zero
// and key order.
::testing::AssertionResult same_json(const Json& a, const Json& b, const std::string& at = "") {
  if (a.type() != b.type()) {
    return ::testing::AssertionFailure()
           << "at '" << at << "': " << a.type_name() << " " << a.dump() << " vs " << b.type_name()
           << " " << b.dump() << " (kinds " << static_cast<int>(a.type()) << " vs "
           << static_cast<int>(b.type()) << ")";
  }
  switch (a.type()) {
    case Json::value_t::object: {
      if (a.size() != b.size()) return ::testing::AssertionFailure() << "at '" << at << "': size";
      auto ia = a.begin();
      auto ib = b.begin();
      for (; ia != a.end(); ++ia, ++ib) {
        if (ia.key() != ib.key()) {
          return ::testing::AssertionFailure()
                 << "at '" << at << "': key '" << ia.key() << "' vs '" << ib.key() << "'";
        }
        auto inner = same_json(ia.value(), ib.value(), at + "/" + ia.key());
        if (!inner) return inner;
      }
      return ::testing::AssertionSuccess();
    }
    case Json::value_t::array: {
      if (a.size() != b.size()) return ::testing::AssertionFailure() << "at '" << at << "': size";
      for (std::size_t i = 0; i < a.size(); ++i) {
        auto inner = same_json(a[i], b[i], at + "/" + std::to_string(i));
        if (!inner) return inner;
      }
      return ::testing::AssertionSuccess();
    }
    case Json::value_t::number_float:
      if (std::bit_cast<std::uint64_t>(a.get<double>()) !=
          std::bit_cast<std::uint64_t>(b.get<double>())) {
        return ::testing::AssertionFailure()
               << "at '" << at << "': " << a.dump() << " vs " << b.dump();
      }
      return ::testing::AssertionSuccess();
    default:
      if (a != b) {
        return ::testing::AssertionFailure()
               << "at '" << at << "': " << a.dump() << " vs " << b.dump();
      }
      return ::testing::AssertionSuccess();
  }
}

// The error text of `parse`, or "" when it accepts `text`.
template <typename Parse>
std::string error_of(Parse parse, std::string_view text) {
  try {
    (void)parse(text);
  } catch (const Json::exception& e) {
    return e.what();
  }
  return "";
}

// parse_json agrees with the reference on `text`: the same value, or the same exception text.
void expect_same_as_reference(std::string_view text) {
  SCOPED_TRACE(std::string("input: ") + std::string(text.substr(0, 200)));
  const std::string want_error = error_of(reference_parse, text);
  const std::string got_error = error_of(parse_json, text);
  EXPECT_EQ(got_error, want_error);
  if (want_error.empty() && got_error.empty()) {
    EXPECT_TRUE(same_json(parse_json(text), reference_parse(text)));
  }
  const Json discarded = parse_json_or_discarded(text);
  EXPECT_EQ(discarded.is_discarded(), !want_error.empty());
  if (want_error.empty()) {
    EXPECT_TRUE(same_json(discarded, reference_parse(text)));
  }
}

TEST(JsonText, EveryKindReadsAsNlohmannReadsIt) {
  expect_same_as_reference(
      R"({"null":null,"t":true,"f":false,"s":"text","u":7,"i":-7,"d":2.5,"e":1e3,)"
      R"("a":[1,-1,1.5,"x",null,[],{}],"o":{"nested":{"deeper":[{"k":"v"}]}},"empty":{}})");
  for (const char* scalar : {"null", "true", "false", "\"s\"", "0", "5", "-5", "0.5", "[]", "{}"}) {
    expect_same_as_reference(scalar);
  }
}

TEST(JsonText, NonNegativeIntegersAreUnsignedAndNegativeOnesSigned) {
  EXPECT_TRUE(parse_json("0").is_number_unsigned());
  EXPECT_TRUE(parse_json("9223372036854775807").is_number_unsigned());
  EXPECT_TRUE(parse_json("-1").is_number_integer());
  EXPECT_FALSE(parse_json("-1").is_number_unsigned());
  for (const char* number : {"0", "1", "-1", "9223372036854775807", "9223372036854775808",
                             "18446744073709551615", "-9223372036854775808"}) {
    expect_same_as_reference(number);
    expect_same_as_reference(std::string("[") + number + "]");
    expect_same_as_reference(std::string(R"({"n":)") + number + "}");
  }
}

TEST(JsonText, MinusZeroStaysASignedInteger) {
  EXPECT_TRUE(parse_json("-0").is_number_integer());
  EXPECT_FALSE(parse_json("-0").is_number_unsigned());
  for (const char* text :
       {"-0", "[-0]", "[0,-0]", R"({"a":-0,"b":0})", "[-0 ]", "-0.0", "[-0e0]",
        R"({"date":"2024-01-02","n":0})", R"({"s":"x-0","n":0})", R"({"s":"x-0"})"}) {
    expect_same_as_reference(text);
  }
}

TEST(JsonText, IntegersBeyond64BitsBecomeTheSameDoubles) {
  for (const char* number :
       {"18446744073709551616", "-9223372036854775809", "123456789012345678901234567890",
        "-123456789012345678901234567890", "[99999999999999999999999]"}) {
    expect_same_as_reference(number);
  }
  EXPECT_TRUE(parse_json("18446744073709551616").is_number_float());
}

TEST(JsonText, DoublesAreBitForBitTheSame) {
  for (const char* number :
       {"0.1", "-0.0", "1E5", "1e-5", "2.5e+10", "1.7976931348623157e308", "4.9e-324",
        "2.2250738585072014e-308", "1e-400", "-1e-400", "0e999999999999999",
        "3.14159265358979323846264338327950288419716939937510582097494459",
        "0.000000000000000000000000000000000000000000001", "9007199254740993", "9007199254740993.0",
        "[1.5,-2.25e-3,6.02214076e23]"}) {
    expect_same_as_reference(number);
  }
}

TEST(JsonText, HugeDoublesFailWithTheSameError) {
  for (const char* number : {"1e400", "-1e400", "[1e309]", R"({"a":2e308})"}) {
    expect_same_as_reference(number);
    EXPECT_NE(error_of(parse_json, number), "");
  }
}

TEST(JsonText, InvalidUtf8InStringsFailsWithTheSameError) {
  for (const char* text : {"\"\xff\"", "\"a\xc0\x80\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"",
                           "\"\xe2\x82\"", "[\"ok\",\"\x80\"]", "{\"\xfe\":1}"}) {
    expect_same_as_reference(text);
    EXPECT_NE(error_of(parse_json, text), "");
  }
}

TEST(JsonText, ValidUnicodeAndEscapesReadTheSame) {
  for (const char* text :
       {R"("\u00e9\u4e2d\ud83d\ude00")", "\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\"",
        R"("\"\\\/\b\f\n\r\t")", R"("\u0000 inside")", "\"\x7f\"", R"({"\u0041":"\u0042"})"}) {
    expect_same_as_reference(text);
  }
}

TEST(JsonText, BadEscapesAndLoneSurrogatesFailWithTheSameError) {
  for (const char* text : {R"("\ud800")", R"("\udc00")", R"("\ud800\u0041")", R"("\x")",
                           R"("\u12")", "\"a\x01\"", "\"tab\there\""}) {
    expect_same_as_reference(text);
    EXPECT_NE(error_of(parse_json, text), "");
  }
}

TEST(JsonText, DuplicateKeysKeepTheFirstPlaceAndTheLastValue) {
  const Json value = parse_json(R"({"a":1,"b":2,"a":{"x":3}})");
  ASSERT_EQ(value.size(), 2u);
  EXPECT_EQ(value.begin().key(), "a");
  EXPECT_EQ(value["a"], Json::parse(R"({"x":3})"));
  expect_same_as_reference(R"({"a":1,"b":2,"a":{"x":3}})");
  expect_same_as_reference(R"({"k":[1],"k":[],"k":null})");
}

TEST(JsonText, NestingAtTheCapIsRead) {
  const std::size_t depth = kMaxJsonDepth;
  expect_same_as_reference(std::string(depth, '[') + std::string(depth, ']'));
  std::string objects;
  for (std::size_t i = 1; i < depth; ++i) objects += R"({"a":)";
  objects += "{}" + std::string(depth - 1, '}');
  expect_same_as_reference(objects);
  EXPECT_TRUE(parse_json(objects).is_object());
}

TEST(JsonText, NestingOverTheCapIsRefusedWithTheDepthError) {
  for (std::size_t depth : {kMaxJsonDepth + 1, kMaxJsonDepth + 2, std::size_t{100'000}}) {
    const std::string text = std::string(depth, '[') + std::string(depth, ']');
    const std::string error = error_of(parse_json, text);
    EXPECT_NE(error.find("nested deeper than 512 levels"), std::string::npos) << error;
    EXPECT_TRUE(parse_json_or_discarded(text).is_discarded());
  }
  expect_same_as_reference(std::string(kMaxJsonDepth + 1, '[') +
                           std::string(kMaxJsonDepth + 1, ']'));
}

TEST(JsonText, SyntaxErrorsKeepTheirExactMessage) {
  for (const char* text : {"",           " ",           "{",
                           "}",          "[1,]",        "[1 2]",
                           R"({"a" 1})", R"({"a":1,})", "nul",
                           "truex",      "[]x",         "{} {}",
                           "01",         "1.",          "-",
                           ".5",         "+1",          "'s'",
                           "\f1",        "\v1",         "[\"unterminated",
                           "{\"a\":1"}) {
    expect_same_as_reference(text);
  }
  using namespace std::string_view_literals;
  for (std::string_view text : {"\0"sv, "[1]\0"sv, "[1,\0 2]"sv, "\"a\0b\""sv}) {
    expect_same_as_reference(text);
  }
}

TEST(JsonText, WhitespaceAndAByteOrderMarkReadTheSame) {
  expect_same_as_reference(" \t\r\n {\"a\" : [ 1 , 2 ] } \r\n");
  expect_same_as_reference("\xef\xbb\xbf{\"bom\":true}");
}

TEST(JsonText, ObjectsWithManyKeysKeepTheirOrder) {
  std::string text = "{";
  for (int i = 300; i > 0; --i) text += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  text += R"("k150":"again"})";
  expect_same_as_reference(text);
}

TEST(JsonText, LongEscapedStringsReadTheSame) {
  // The shape of a `raw` step: a 64 KiB string of JSON lines, every quote and newline escaped.
  std::string inner;
  while (inner.size() < (std::size_t{64} << 10)) {
    inner += R"({\"type\":\"assistant\",\"text\":\"caf\u00e9 \\\\ \ud83d\ude00\"}\n)";
  }
  const std::string text = R"({"raw":")" + inner + R"("})";
  expect_same_as_reference(text);
  const Json value = parse_json(text);
  EXPECT_TRUE(value["raw"].get_ref<const std::string&>().starts_with("{\"type\":\"assistant\""));
}

TEST(JsonText, LinesOverOneMebibyteReadTheSame) {
  std::string text = "[";
  for (int i = 0; i < 40'000; ++i) {
    text += R"({"i":)" + std::to_string(i) + R"(,"s":"\u00e9x-0","d":-0.5},)";
  }
  text += "-0]";
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  expect_same_as_reference(text);
  expect_same_as_reference(text.substr(0, text.size() - 1));
}

TEST(JsonText, InvalidStringsAreErrors) {
  for (const std::string_view text : {R"("\q")", R"("\ud800")", R"("\udc00x")", R"("\ud800\u0041")",
                                      R"("\u12")", R"("x\")", "\"\xff\""}) {
    SCOPED_TRACE(text);
    EXPECT_THROW(parse_json(text), Json::parse_error);
  }
}

// What a raw step writes is its string as simdjson decodes it: the same bytes as nlohmann's.
TEST(JsonText, StringsDecodeLikeNlohmannOnEveryEscapedCodePoint) {
  char escaped[16];
  auto expect_same_string = [](const std::string& literal) {
    const std::string text = "\"" + literal + "\"";
    ASSERT_EQ(parse_json(text).get<std::string>(), Json::parse(text).get<std::string>()) << literal;
  };
  for (std::uint32_t cp = 0; cp < 0x10000; ++cp) {
    if (cp >= 0xD800 && cp < 0xE000) continue;
    std::snprintf(escaped, sizeof escaped, cp % 2 == 0 ? "a\\u%04x" : "\\u%04Xb", cp);
    expect_same_string(escaped);
  }
  for (std::uint32_t high = 0xD800; high < 0xDC00; high += 0x3F) {
    for (std::uint32_t low = 0xDC00; low < 0xE000; low += 0x3D) {
      std::snprintf(escaped, sizeof escaped, "\\u%04x\\u%04X", high, low);
      expect_same_string(escaped);
    }
  }
}

}  // namespace
}  // namespace claude::base
