// MarkerEraser: the wake marker close() writes into the CLI's stdout comes out again wherever the
// reads split it, and every other byte passes through in order.
#include "process/marker_eraser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace claude::sdk::process {
namespace {

const std::string kMarker = std::string("\0wake-1234\0", 11);

// Feeds `stream` in pieces cut at `cuts` and returns what comes out.
std::string pass(const std::string& stream, const std::vector<std::size_t>& cuts) {
  MarkerEraser eraser(kMarker);
  std::string out;
  std::size_t from = 0;
  for (std::size_t cut : cuts) {
    eraser.feed(std::string_view(stream).substr(from, cut - from), out);
    from = cut;
  }
  eraser.feed(std::string_view(stream).substr(from), out);
  eraser.finish(out);
  return out;
}

TEST(MarkerEraserTest, TheMarkerIsErasedWhereverTwoReadsSplitIt) {
  const std::string before = "{\"type\":\"result\"}\npartial";
  const std::string after = "late output\n";
  const std::string stream = before + kMarker + after;
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    EXPECT_EQ(pass(stream, {cut}), before + after) << "cut at " << cut;
  }
  for (std::size_t a = 0; a <= stream.size(); ++a) {
    for (std::size_t b = a; b <= stream.size(); ++b) {
      ASSERT_EQ(pass(stream, {a, b}), before + after) << "cuts at " << a << " and " << b;
    }
  }
}

TEST(MarkerEraserTest, BytesThatOnlyBeginLikeTheMarkerPassUnchanged) {
  const std::string stream = std::string("a\0wake-12", 9) + "x" + std::string("\0wa", 3);
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    EXPECT_EQ(pass(stream, {cut}), stream) << "cut at " << cut;
  }
}

TEST(MarkerEraserTest, OnlyTheFirstMarkerIsErased) {
  MarkerEraser eraser(kMarker);
  std::string out;
  eraser.feed("a" + kMarker + "b" + kMarker, out);
  eraser.finish(out);
  EXPECT_TRUE(eraser.erased());
  EXPECT_EQ(out, "ab" + kMarker);
}

TEST(MarkerEraserTest, AStreamWithoutTheMarkerComesOutWhole) {
  MarkerEraser eraser(kMarker);
  std::string out;
  eraser.feed("line one\n", out);
  eraser.feed(std::string("\0wake", 5), out);  // held back: it may be the marker's start
  EXPECT_EQ(out, "line one\n");
  eraser.finish(out);
  EXPECT_FALSE(eraser.erased());
  EXPECT_EQ(out, std::string("line one\n\0wake", 14));
}

}  // namespace
}  // namespace claude::sdk::process
