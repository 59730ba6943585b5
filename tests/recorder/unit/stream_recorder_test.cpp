#include "claude/recorder/stream_recorder.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "claude/base/base64.hpp"

namespace claude::recorder {
namespace {

std::vector<nlohmann::json> events_of(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(RecorderStreamRecorder, RecordsCompletedLinesThenThePartialTailAndEof) {
  const auto redactor = Redactor::with_builtin_rules();
  StreamRecorder recorder(Stream::out, redactor);
  std::string text;
  recorder.on_chunk("{\"a\":1}\n{\"b\"", 0.5, text);
  recorder.on_chunk(":2}\ntail", 0.75, text);
  recorder.on_eof(1.0, text);
  const auto events = events_of(text);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].at("line"), "{\"a\":1}");
  EXPECT_EQ(events[0].at("t"), 0.5);
  EXPECT_EQ(events[1].at("line"), "{\"b\":2}");
  EXPECT_EQ(events[1].at("t"), 0.75);
  EXPECT_EQ(events[2].at("line"), "tail");
  EXPECT_EQ(events[2].at("partial"), true);
  EXPECT_EQ(events[3].at("eof"), "out");
}

TEST(RecorderStreamRecorder, RedactsBeforeEncoding) {
  const auto redactor = Redactor::with_builtin_rules();
  StreamRecorder recorder(Stream::in, redactor);
  std::string text;
  recorder.on_chunk("key=sk-ant-api03-FAKEFAKEFAKE\n", 0, text);
  EXPECT_EQ(events_of(text).at(0).at("line"), "key=<redacted:api-key>");
}

TEST(RecorderStreamRecorder, RedactsASecretInALineThatSpansChunks) {
  const auto redactor = Redactor::with_builtin_rules();
  StreamRecorder recorder(Stream::out, redactor);
  std::string text;
  recorder.on_chunk("clean line\nkey=sk-ant-ap", 0, text);
  recorder.on_chunk("i03-FAKEFAKEFAKE\nclean again\n", 0, text);
  const auto events = events_of(text);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[1].at("line"), "key=<redacted:api-key>");
}

TEST(RecorderStreamRecorder, AppliesLineAnchoredRulesToEveryLineOfAChunk) {
  Redactor redactor;
  redactor.add_rule("line-start", "^secret", "test");
  StreamRecorder recorder(Stream::out, redactor);
  std::string text;
  recorder.on_chunk("public\nsecret stuff\n", 0, text);
  EXPECT_EQ(events_of(text).at(1).at("line"), "<redacted:line-start> stuff");
}

TEST(RecorderStreamRecorder, RecordsALongInvalidUtf8LineAsPiecesThatReassembleExactly) {
  const Redactor redactor;
  StreamRecorder recorder(Stream::err, redactor, 16);
  std::string line;
  for (int i = 0; i < 100; ++i) line.push_back(static_cast<char>(0x80 + i));
  std::string text;
  recorder.on_chunk(line + "\n", 0, text);
  std::string joined;
  const auto events = events_of(text);
  for (std::size_t i = 0; i < events.size(); ++i) {
    joined += *base::base64_decode(events[i].at("line_b64").get<std::string>());
    EXPECT_EQ(events[i].contains("more"), i + 1 < events.size());
  }
  EXPECT_EQ(joined, line);
}

}  // namespace
}  // namespace claude::recorder
