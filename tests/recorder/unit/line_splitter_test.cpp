#include "claude/recorder/line_splitter.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace claude::recorder {
namespace {

struct Piece {
  std::string bytes;
  bool more;
  bool partial;
  friend bool operator==(const Piece&, const Piece&) = default;
};

std::vector<Piece> split(const std::vector<std::string>& chunks, std::size_t piece_bytes) {
  LineSplitter splitter(piece_bytes);
  std::vector<Piece> out;
  auto sink = [&](const LinePiece& p) { out.push_back({std::string(p.bytes), p.more, p.partial}); };
  for (const auto& c : chunks) splitter.feed(c, sink);
  splitter.finish(sink);
  return out;
}

TEST(RecorderLineSplitter, KeepsCarriageReturnsBomAndBlankLines) {
  const auto pieces = split({"\xEF\xBB\xBF{}\r\n\n  \n"}, 64);
  const std::vector<Piece> expected{
      {"\xEF\xBB\xBF{}\r", false, false}, {"", false, false}, {"  ", false, false}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, JoinsALineSplitAcrossChunks) {
  const auto pieces = split({"ab", "c", "d\nef", "\n"}, 64);
  const std::vector<Piece> expected{{"abcd", false, false}, {"ef", false, false}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, FlagsTheLastLineWithoutNewlineAsPartial) {
  const auto pieces = split({"a\nbc"}, 64);
  const std::vector<Piece> expected{{"a", false, false}, {"bc", false, true}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, DeliversNothingAtFinishAfterAFinalNewline) {
  EXPECT_EQ(split({"a\n"}, 64).size(), 1u);
  EXPECT_TRUE(split({}, 64).empty());
}

TEST(RecorderLineSplitter, CutsALongLineInsideOneChunkIntoPieces) {
  const auto pieces = split({"abcdefghij\n"}, 4);
  const std::vector<Piece> expected{
      {"abcd", true, false}, {"efgh", true, false}, {"ij", false, false}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, CutsALongLineArrivingByteByByteIntoTheSamePieces) {
  std::vector<std::string> chunks;
  for (char c : std::string("abcdefghij\n")) chunks.emplace_back(1, c);
  const auto pieces = split(chunks, 4);
  const std::vector<Piece> expected{
      {"abcd", true, false}, {"efgh", true, false}, {"ij", false, false}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, NeverEndsALineWithAnEmptyPieceWhenItsLengthIsAMultipleOfThePiece) {
  std::vector<std::string> chunks{"abcd", "efgh", "\n"};
  const auto pieces = split(chunks, 4);
  const std::vector<Piece> expected{{"abcd", true, false}, {"efgh", false, false}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, MarksOnlyTheLastPieceOfAnUnterminatedLongLinePartial) {
  const auto pieces = split({"abcdefghi"}, 4);
  const std::vector<Piece> expected{
      {"abcd", true, false}, {"efgh", true, false}, {"i", false, true}};
  EXPECT_EQ(pieces, expected);
}

TEST(RecorderLineSplitter, BuffersAtMostOnePieceBetweenChunks) {
  LineSplitter splitter(4);
  splitter.feed("abcdefghijk", [](const LinePiece&) {});
  EXPECT_LE(splitter.buffered_bytes(), 4u);
}

}  // namespace
}  // namespace claude::recorder
