// LineBuffer against the framing cases of docs/protocol.md §2.1 and the rules in line_buffer.hpp.
#include "claude/base/line_buffer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace claude::base {
namespace {

struct Seen {
  LineEvent::Kind kind;
  std::string text;
  std::size_t size;
  bool partial;
  bool operator==(const Seen&) const = default;
};

Seen line(std::string text, bool partial = false) {
  const std::size_t size = text.size();
  return {LineEvent::Kind::line, std::move(text), size, partial};
}
Seen oversized(std::size_t size, bool partial = false) {
  return {LineEvent::Kind::oversized, {}, size, partial};
}

// Feeds `stream` in chunks of `chunk` bytes (each chunk its own string, so a view into a previous
// chunk would be caught by ASan), then finishes.
std::vector<Seen> split(std::string_view stream, std::size_t chunk,
                        LineBufferOptions options = {}) {
  LineBuffer buffer(options);
  std::vector<Seen> seen;
  auto collect = [&](const LineEvent& e) {
    seen.push_back({e.kind, std::string(e.text), e.size, e.partial});
  };
  for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
    buffer.feed(std::string(stream.substr(pos, chunk)), collect);
  }
  buffer.finish(collect);
  return seen;
}

std::vector<Seen> split_at(std::initializer_list<std::string_view> chunks,
                           LineBufferOptions options = {}) {
  LineBuffer buffer(options);
  std::vector<Seen> seen;
  auto collect = [&](const LineEvent& e) {
    seen.push_back({e.kind, std::string(e.text), e.size, e.partial});
  };
  for (auto chunk : chunks) buffer.feed(std::string(chunk), collect);
  buffer.finish(collect);
  return seen;
}

std::string read_source_file(const std::string& relative) {
  const char* root = std::getenv("CLAUDE_HARNESS_SOURCE_DIR");
  const std::string path = (root ? std::string(root) + "/" : std::string()) + relative;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(LineBuffer, SessionSplitsTheSameAtEveryChunkSizeDownToOneByte) {
  const std::string session = read_source_file("scenarios/samples/session.ndjson");
  ASSERT_FALSE(session.empty());
  const auto reference = split(session, session.size());
  ASSERT_EQ(reference.size(),
            static_cast<std::size_t>(std::count(session.begin(), session.end(), '\n')));
  for (std::size_t chunk : {1u, 2u, 3u, 7u, 64u, 255u, 4096u, 65536u}) {
    EXPECT_EQ(split(session, chunk), reference) << "chunk size " << chunk;
  }
}

TEST(LineBuffer, SeveralFramesInOneChunkAreAllDelivered) {
  EXPECT_EQ(split_at({"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"}),
            (std::vector<Seen>{line("{\"a\":1}"), line("{\"b\":2}"), line("{\"c\":3}")}));
}

TEST(LineBuffer, FrameEndingInOneChunkAndNextStartingThereAreBothDelivered) {
  EXPECT_EQ(split_at({"{\"a\":", "1}\n{\"b\"", ":2}\n"}),
            (std::vector<Seen>{line("{\"a\":1}"), line("{\"b\":2}")}));
}

TEST(LineBuffer, MultiByteCharacterSplitAcrossChunksIsReassembledByteForByte) {
  const std::string text = "{\"t\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}";  // é € 😀
  for (std::size_t chunk = 1; chunk <= 4; ++chunk) {
    EXPECT_EQ(split(text + "\n", chunk), std::vector<Seen>{line(text)}) << "chunk " << chunk;
  }
}

TEST(LineBuffer, WhitespaceAtChunkSeamsIsPreserved) {
  // Space, NBSP, U+2009 and U+3000 right at the seams (docs/protocol.md §2.1).
  EXPECT_EQ(split_at({"{\"t\":\"a ", " \xC2\xA0", "\xE2\x80\x89", "\xE3\x80\x80", " b\"}\n"}),
            std::vector<Seen>{line("{\"t\":\"a  \xC2\xA0\xE2\x80\x89\xE3\x80\x80 b\"}")});
}

TEST(LineBuffer, WhitespaceSurvivesRealistic64KiBChunking) {
  std::string text = "{\"t\":\"";
  while (text.size() < 200 * 1024) text += "word \xC2\xA0 ";
  text += "\"}";
  const auto seen = split(text + "\n", 64 * 1024);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].text, text);
}

TEST(LineBuffer, CompleteOversizedLineIsReportedOnceWithItsSizeAndReadingContinues) {
  LineBufferOptions options;
  options.max_line_bytes = 16;
  const std::string big(40, 'x');
  EXPECT_EQ(split("{\"a\":1}\n" + big + "\n{\"b\":2}\n", 1000, options),
            (std::vector<Seen>{line("{\"a\":1}"), oversized(40), line("{\"b\":2}")}));
}

TEST(LineBuffer, OversizedLineStillWithoutNewlineIsReportedWhenItsNewlineArrives) {
  LineBufferOptions options;
  options.max_line_bytes = 16;
  LineBuffer buffer(options);
  std::vector<Seen> seen;
  auto collect = [&](const LineEvent& e) {
    seen.push_back({e.kind, std::string(e.text), e.size, e.partial});
  };
  for (int i = 0; i < 10; ++i) {
    buffer.feed(std::string(5, 'x'), collect);
    EXPECT_LE(buffer.buffered_bytes(), options.max_line_bytes);
  }
  EXPECT_TRUE(seen.empty());
  buffer.feed("xx\n{}\n", collect);
  EXPECT_EQ(seen, (std::vector<Seen>{oversized(52), line("{}")}));
}

TEST(LineBuffer, OversizedPartialLineAtEndOfInputIsReportedPartialWithItsSize) {
  LineBufferOptions options;
  options.max_line_bytes = 8;
  EXPECT_EQ(split("{}\n0123456789abcdef", 3, options),
            (std::vector<Seen>{line("{}"), oversized(16, true)}));
}

TEST(LineBuffer, OversizedSizeCountsBytesNotCharacters) {
  LineBufferOptions options;
  options.max_line_bytes = 10;
  std::string euros;
  for (int i = 0; i < 4; ++i) euros += "\xE2\x82\xAC";  // 4 characters, 12 bytes
  EXPECT_EQ(split(euros + "\n", 5, options), std::vector<Seen>{oversized(12)});
}

TEST(LineBuffer, LineExactlyAtTheCapIsDelivered) {
  LineBufferOptions options;
  options.max_line_bytes = 8;
  EXPECT_EQ(split("12345678\n123456789\n", 2, options),
            (std::vector<Seen>{line("12345678"), oversized(9)}));
}

TEST(LineBuffer, BufferedBytesNeverExceedTheCap) {
  LineBufferOptions options;
  options.max_line_bytes = 100;
  LineBuffer buffer(options);
  std::size_t events = 0;
  std::string stream;
  for (int i = 0; i < 200; ++i)
    stream += std::string(static_cast<std::size_t>(i * 7 % 250), 'y') + "\n";
  for (std::size_t chunk : {1u, 13u, 99u, 100u, 101u, 4096u}) {
    for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
      buffer.feed(std::string_view(stream).substr(pos, chunk), [&](const LineEvent&) { ++events; });
      ASSERT_LE(buffer.buffered_bytes(), options.max_line_bytes) << "chunk " << chunk;
    }
    buffer.finish([&](const LineEvent&) { ++events; });
  }
  EXPECT_GT(events, 0u);
}

TEST(LineBuffer, NonJsonNoiseLinesAreDeliveredAsLinesBetweenFrames) {
  // Framing does not judge content; the parser rejects noise (docs/protocol.md §2.1).
  EXPECT_EQ(
      split_at({"[SandboxDebug] Seccomp filtering not available\n{\"a\":1}\nAttempting "
                "to refresh...\n{\"b\":2}\n"}),
      (std::vector<Seen>{line("[SandboxDebug] Seccomp filtering not available"), line("{\"a\":1}"),
                         line("Attempting to refresh..."), line("{\"b\":2}")}));
}

TEST(LineBuffer, BlankLinesAreSkipped) {
  EXPECT_EQ(split_at({"\n\n{\"a\":1}\n  \t\n\r\n\n{\"b\":2}\n\n"}),
            (std::vector<Seen>{line("{\"a\":1}"), line("{\"b\":2}")}));
}

TEST(LineBuffer, BlankLinesAreDeliveredWhenSkippingIsOff) {
  LineBufferOptions options;
  options.skip_blank = false;
  EXPECT_EQ(split_at({"\n  \n"}, options), (std::vector<Seen>{line(""), line("  ")}));
}

TEST(LineBuffer, CrlfLosesItsCarriageReturnButSizeCountsIt) {
  const auto seen = split_at({"{\"a\":1}\r", "\n"});
  EXPECT_EQ(seen, (std::vector<Seen>{{LineEvent::Kind::line, "{\"a\":1}", 8, false}}));
}

TEST(LineBuffer, CarriageReturnIsKeptWhenStrippingIsOff) {
  LineBufferOptions options;
  options.strip_cr = false;
  EXPECT_EQ(split_at({"{}\r\n"}, options), std::vector<Seen>{line("{}\r")});
}

TEST(LineBuffer, BareCarriageReturnDoesNotEndALine) {
  EXPECT_EQ(split_at({"{\"a\":\"x\ry\"}\n"}), std::vector<Seen>{line("{\"a\":\"x\ry\"}")});
}

TEST(LineBuffer, ByteOrderMarkAtLineStartIsRemovedEvenWhenSplit) {
  const auto seen = split_at({"\xEF", "\xBB", "\xBF{}\n"});
  EXPECT_EQ(seen, (std::vector<Seen>{{LineEvent::Kind::line, "{}", 5, false}}));
}

TEST(LineBuffer, ByteOrderMarkInsideALineIsKept) {
  EXPECT_EQ(split_at({"{\"a\":\"\xEF\xBB\xBF\"}\n"}),
            std::vector<Seen>{line("{\"a\":\"\xEF\xBB\xBF\"}")});
}

TEST(LineBuffer, LineSeparatorsU2028AndU2029DoNotEndALine) {
  const std::string text =
      "{\"t\":\"a\xE2\x80\xA8"
      "b\xE2\x80\xA9"
      "c\"}";
  EXPECT_EQ(split(text + "\n", 1), std::vector<Seen>{line(text)});
}

TEST(LineBuffer, FinalLineWithoutNewlineIsDeliveredFlaggedPartial) {
  EXPECT_EQ(split_at({"{\"a\":1}\n{\"type\":\"result\"}"}),
            (std::vector<Seen>{line("{\"a\":1}"), line("{\"type\":\"result\"}", true)}));
}

TEST(LineBuffer, TruncatedTailIsDeliveredPartialNotDropped) {
  EXPECT_EQ(split_at({"{\"a\":1}\n{\"type\":\"res"}),
            (std::vector<Seen>{line("{\"a\":1}"), line("{\"type\":\"res", true)}));
}

TEST(LineBuffer, FinishResetsTheBufferForReuse) {
  LineBuffer buffer;
  std::vector<std::string> texts;
  auto collect = [&](const LineEvent& e) { texts.emplace_back(e.text); };
  buffer.feed("{\"a\":", collect);
  buffer.finish(collect);
  EXPECT_EQ(buffer.buffered_bytes(), 0u);
  buffer.feed("{\"b\":2}\n", collect);
  buffer.finish(collect);
  EXPECT_EQ(texts, (std::vector<std::string>{"{\"a\":", "{\"b\":2}"}));
}

TEST(LineBuffer, DefaultCapIs32MiB) {
  EXPECT_EQ(LineBufferOptions{}.max_line_bytes, 32u << 20);
}

}  // namespace
}  // namespace claude::base
