#include "claude/base/base64.hpp"

#include <gtest/gtest.h>

#include <random>

namespace claude::base {
namespace {

TEST(RecorderBase64, EncodesTheRfc4648TestVectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(RecorderBase64, DecodesWhatItEncodesForEveryLengthAndByte) {
  std::mt19937 rng(7);
  for (std::size_t len = 0; len < 300; ++len) {
    std::string bytes(len, '\0');
    for (auto& b : bytes) b = static_cast<char>(rng());
    EXPECT_EQ(base64_decode(base64_encode(bytes)), bytes) << "length " << len;
  }
}

TEST(RecorderBase64, RejectsMalformedText) {
  EXPECT_FALSE(base64_decode("Zg="));
  EXPECT_FALSE(base64_decode("Z!=="));
  EXPECT_FALSE(base64_decode("Z=g="));
  EXPECT_FALSE(base64_decode("Zg==Zg=="));
}

}  // namespace
}  // namespace claude::base
