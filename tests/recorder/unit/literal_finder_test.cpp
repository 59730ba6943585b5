// LiteralFinder (the Redactor's prefilter) against std::string_view::find: a literal at every
// offset of texts up to 70 bytes, near misses, and ASCII-only case folding.
#include "claude/recorder/literal_finder.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <random>
#include <string>

namespace claude::recorder {
namespace {

std::string ascii_lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

TEST(RecorderLiteralFinder, FindsTheLiteralAtEveryOffset) {
  const LiteralFinder finder("sk-ant-", false);
  for (std::size_t size = 7; size <= 70; ++size) {
    for (std::size_t offset = 0; offset + 7 <= size; ++offset) {
      std::string text(size, 's');
      text.replace(offset, 7, "sk-ant-");
      ASSERT_TRUE(finder.found_in(text)) << "size " << size << " offset " << offset;
    }
  }
}

TEST(RecorderLiteralFinder, RejectsNearMissesAtEveryOffset) {
  const LiteralFinder finder("sk-ant-", false);
  // Right first and last bytes, wrong middle; a prefix cut by the end of the text.
  for (std::size_t size = 7; size <= 70; ++size) {
    for (std::size_t offset = 0; offset + 7 <= size; ++offset) {
      std::string text(size, '-');
      text.replace(offset, 7, "sk_ant-");
      ASSERT_FALSE(finder.found_in(text)) << "size " << size << " offset " << offset;
      text.replace(offset, 7, "sk-anT-");
      ASSERT_FALSE(finder.found_in(text)) << "size " << size << " offset " << offset;
    }
    std::string cut(size, 'x');
    cut.replace(size - 6, 6, "sk-ant");
    ASSERT_FALSE(finder.found_in(cut)) << "size " << size;
  }
}

TEST(RecorderLiteralFinder, FoldsTheCaseOfAsciiLettersOnly) {
  const LiteralFinder finder("BeArEr", true);
  EXPECT_TRUE(finder.found_in("Authorization: bearer x"));
  EXPECT_TRUE(finder.found_in(std::string(40, ' ') + "BEARER"));
  EXPECT_FALSE(finder.found_in("bearex beare"));
  const LiteralFinder dash("a-b", true);
  EXPECT_TRUE(dash.found_in(std::string(30, '.') + "A-B"));
  // '\r' | 0x20 == '-': only letters may differ by case.
  EXPECT_FALSE(dash.found_in(std::string(30, '.') + "a\rb"));
  const LiteralFinder exact("Bearer", false);
  EXPECT_FALSE(exact.found_in(std::string(30, '.') + "bearer"));
}

TEST(RecorderLiteralFinder, FindsAnEmptyLiteralAndNothingInAShorterText) {
  EXPECT_TRUE(LiteralFinder("", false).found_in(""));
  EXPECT_FALSE(LiteralFinder("abc", false).found_in("ab"));
  EXPECT_FALSE(LiteralFinder("abc", false).found_in(""));
}

TEST(RecorderLiteralFinder, AgreesWithStringFindOnRandomText) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::size_t> length_of(0, 100);
  std::uniform_int_distribution<int> letter(0, 3);
  const std::string alphabet = "oOkKeEnN\"";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  for (const bool ignore_case : {false, true}) {
    const LiteralFinder finder("oken\"", ignore_case);
    for (int round = 0; round < 20000; ++round) {
      std::string text(length_of(rng), ' ');
      for (char& c : text) c = letter(rng) == 0 ? ' ' : alphabet[pick(rng)];
      const bool expected = ignore_case ? ascii_lower(text).find("oken\"") != std::string::npos
                                        : text.find("oken\"") != std::string::npos;
      ASSERT_EQ(finder.found_in(text), expected) << text;
    }
  }
}

}  // namespace
}  // namespace claude::recorder
