#include "claude/base/utf8.hpp"

#include <gtest/gtest.h>

namespace claude::base {
namespace {

TEST(RecorderUtf8, AcceptsAsciiAndWellFormedMultibyteText) {
  EXPECT_TRUE(is_valid_utf8(""));
  EXPECT_TRUE(is_valid_utf8("plain ascii, long enough to use the eight-byte path"));
  EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9 \xE2\x80\xA8 \xF0\x9F\x98\x80 \xF4\x8F\xBF\xBF"));
}

TEST(RecorderUtf8, RejectsStrayContinuationAndTruncatedSequences) {
  EXPECT_FALSE(is_valid_utf8("\x80"));
  EXPECT_FALSE(is_valid_utf8("abc\xC3"));
  EXPECT_FALSE(is_valid_utf8("\xE2\x82"));
  EXPECT_FALSE(is_valid_utf8("\xF0\x9F\x98"));
}

TEST(RecorderUtf8, RejectsOverlongsSurrogatesAndCodePointsAboveTheMaximum) {
  EXPECT_FALSE(is_valid_utf8("\xC0\xAF"));
  EXPECT_FALSE(is_valid_utf8("\xE0\x80\xAF"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));
  EXPECT_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));
  EXPECT_FALSE(is_valid_utf8("\xFF"));
}

TEST(RecorderUtf8, FindsAnInvalidByteAfterALongAsciiRun) {
  EXPECT_FALSE(is_valid_utf8(std::string(1000, 'a') + "\xFE" + std::string(7, 'b')));
}

}  // namespace
}  // namespace claude::base
