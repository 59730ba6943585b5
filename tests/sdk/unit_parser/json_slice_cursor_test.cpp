// JsonSliceCursor walks simdjson's tokens to the raw text of every member, at every depth, with
// its lazy steps (advance / current / value): checked against the values the text was printed
// from.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>

#include "messages/json_slice.hpp"

namespace claude::sdk::detail {
namespace {

using nlohmann::json;

// Strings with the characters that trip a scanner: quotes, runs of backslashes, brackets.
std::string random_string(std::mt19937& rng) {
  static const std::string kPieces[] = {"a", "\"", "\\", "\\\\", "{", "}",
                                        "[", "]",  ",",  ":",    " ", "é"};
  std::string out;
  const auto length = rng() % 8;
  for (unsigned i = 0; i < length; ++i) out += kPieces[rng() % std::size(kPieces)];
  return out;
}

json random_value(std::mt19937& rng, int depth) {
  switch (depth <= 0 ? rng() % 4 : rng() % 6) {
    case 0:
      return random_string(rng);
    case 1:
      return static_cast<int>(rng() % 2000) - 1000;
    case 2:
      return rng() % 2 == 0;
    case 3:
      return nullptr;
    case 4: {
      json object = json::object();
      const auto members = rng() % 5;
      for (unsigned i = 0; i < members; ++i)
        object[random_string(rng)] = random_value(rng, depth - 1);
      return object;
    }
    default: {
      json array = json::array();
      const auto items = rng() % 5;
      for (unsigned i = 0; i < items; ++i) array.push_back(random_value(rng, depth - 1));
      return array;
    }
  }
}

// simdjson's stage-1 tokens of `text`, which must stay alive with the parser.
JsonTokens tokens_of(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element root;
  EXPECT_EQ(parser.parse(text.data(), text.size()).get(root), simdjson::SUCCESS) << text;
  const auto& stage1 = *parser.implementation;
  return JsonTokens{text, stage1.structural_indexes.get(), stage1.n_structural_indexes};
}

// Walks the container at token `container` beside `expected`, the value nlohmann printed: each
// member's key and compacted slice match the value's own compact print, and a nested container
// is walked from the token the cursor reports, before the member is measured (as the parser
// does).
void expect_walk(const JsonTokens& tokens, std::size_t container, const json& expected, bool pretty,
                 const std::string& where) {
  JsonSliceCursor cursor(tokens, container);
  auto item = expected.begin();
  for (std::size_t member = 0;; ++member, ++item) {
    std::string_view key;
    const bool more = cursor.advance(&key);
    ASSERT_EQ(more, item != expected.end()) << where << " member " << member;
    if (!more) break;
    if (expected.is_object()) {
      const std::string quoted = json(item.key()).dump();
      EXPECT_EQ(key, quoted.substr(1, quoted.size() - 2)) << where;
    }
    if (item->is_structured()) {
      expect_walk(tokens, cursor.current(), *item, pretty, where + "/" + std::to_string(member));
    }
    const JsonSlice slice = cursor.value();
    EXPECT_EQ(compact_json(slice), item->dump()) << where << " member " << member;
    EXPECT_EQ(slice.spaced, pretty && item->is_structured() && !item->empty()) << where;
    EXPECT_EQ(cursor.value().text, slice.text) << "value() is stable";
  }
  EXPECT_TRUE(cursor.value().text.empty());
}

TEST(JsonSliceCursor, SlicesMatchTheValuesAtEveryDepth) {
  std::mt19937 rng(11);
  simdjson::dom::parser parser;
  int walked = 0;
  for (int round = 0; round < 2000; ++round) {
    const json value = random_value(rng, 4);
    if (!value.is_structured()) continue;
    const bool pretty = rng() % 2 == 0;
    const std::string text = value.dump(pretty ? 1 : -1);
    const JsonTokens tokens = tokens_of(parser, text);
    expect_walk(tokens, 0, value, pretty, text);
    ++walked;
  }
  EXPECT_GT(walked, 500);
}

TEST(JsonSliceCursor, AdvancingPastUnreadValuesSkipsThemWhole) {
  simdjson::dom::parser parser;
  const std::string text = R"({"a":{"b":"}\"]"},"c":[1,[2,"\\"]],"d":"x"})";
  const JsonTokens tokens = tokens_of(parser, text);
  JsonSliceCursor cursor(tokens, 0);
  std::string_view key;
  ASSERT_TRUE(cursor.advance(&key));
  EXPECT_EQ(key, "a");
  ASSERT_TRUE(cursor.advance(&key));
  EXPECT_EQ(key, "c");
  ASSERT_TRUE(cursor.advance(&key));
  EXPECT_EQ(key, "d");
  EXPECT_EQ(cursor.value().text, "\"x\"");
  EXPECT_FALSE(cursor.advance(&key));
  EXPECT_EQ(cursor.current(), JsonSliceCursor::npos);
}

TEST(JsonSliceCursor, ScalarsEndBeforeTheWhitespaceThatFollowsThem) {
  simdjson::dom::parser parser;
  const std::string text = "[ 12 , \"a b\" ,true\t,\n{ } ]";
  const JsonTokens tokens = tokens_of(parser, text);
  JsonSliceCursor cursor(tokens, 0);
  EXPECT_EQ(cursor.next().text, "12");
  EXPECT_EQ(cursor.next().text, "\"a b\"");
  EXPECT_EQ(cursor.next().text, "true");
  const JsonSlice empty_object = cursor.next();
  EXPECT_EQ(empty_object.text, "{ }");
  EXPECT_TRUE(empty_object.spaced);
  EXPECT_EQ(compact_json(empty_object), "{}");
  EXPECT_TRUE(cursor.next().text.empty());
}

TEST(JsonSliceCursor, TokensItCannotFollowEndTheWalk) {
  const std::string text = R"("a" 1 [)";
  const std::uint32_t offsets[] = {0, 4, 6};
  const JsonTokens tokens{text, offsets, 3};
  for (const std::size_t start :
       {std::size_t{0}, std::size_t{1}, std::size_t{3}, JsonSliceCursor::npos}) {
    JsonSliceCursor cursor(tokens, start);
    EXPECT_FALSE(cursor.advance()) << start;
    EXPECT_TRUE(cursor.value().text.empty()) << start;
  }
  JsonSliceCursor unclosed(tokens, 2);  // "[" with no token after it
  EXPECT_FALSE(unclosed.advance());
  EXPECT_FALSE(JsonSliceCursor().advance());
}

}  // namespace
}  // namespace claude::sdk::detail
