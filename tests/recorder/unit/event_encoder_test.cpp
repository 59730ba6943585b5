#include "claude/recorder/event_encoder.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "claude/base/base64.hpp"

namespace claude::recorder {
namespace {

nlohmann::json parse_single_event(const std::string& text) {
  EXPECT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(text.find('\n'), text.size() - 1) << "an event is exactly one line";
  return nlohmann::json::parse(text);
}

TEST(RecorderEventEncoder, WritesALineEventThatAJsonParserReadsBackExactly) {
  const std::string line = "{\"type\":\"x\"}\t\x01 \\ \" \r \xE2\x80\xA8 \xC3\xA9";
  std::string out;
  append_line_event(out, 1.5, Stream::out, line, false, false);
  const auto j = parse_single_event(out);
  EXPECT_EQ(j.at("t").get<double>(), 1.5);
  EXPECT_EQ(j.at("dir"), "out");
  EXPECT_EQ(j.at("line").get<std::string>(), line);
  EXPECT_FALSE(j.contains("more"));
  EXPECT_FALSE(j.contains("partial"));
}

TEST(RecorderEventEncoder, KeepsATimeTooLongForFixedNotationAJsonNumber) {
  std::string out;
  append_line_event(out, EventTime(1e30), Stream::out, "x", false, false);
  EXPECT_EQ(parse_single_event(out).at("t").get<double>(), 1e30);
  out.clear();
  append_line_event(out, EventTime(12.5), Stream::out, "x", false, false);
  EXPECT_EQ(out, "{\"t\":12.500000,\"dir\":\"out\",\"line\":\"x\"}\n");
}

TEST(RecorderEventEncoder, StoresInvalidUtf8AsBase64OfTheExactBytes) {
  const std::string line = std::string("ok \xFF\xFE", 5) + std::string(1, '\0');
  std::string out;
  append_line_event(out, 0, Stream::in, line, false, false);
  const auto j = parse_single_event(out);
  EXPECT_FALSE(j.contains("line"));
  EXPECT_EQ(base::base64_decode(j.at("line_b64").get<std::string>()), line);
}

TEST(RecorderEventEncoder, FlagsContinuedAndPartialPieces) {
  std::string out;
  append_line_event(out, 0, Stream::err, "abc", true, false);
  EXPECT_EQ(parse_single_event(out).at("more"), true);
  out.clear();
  append_line_event(out, 0, Stream::err, "abc", false, true);
  EXPECT_EQ(parse_single_event(out).at("partial"), true);
}

TEST(RecorderEventEncoder, WritesEofExitAndSignalEvents) {
  std::string out;
  append_eof_event(out, 0.25, Stream::in);
  EXPECT_EQ(out, "{\"t\":0.250000,\"eof\":\"in\"}\n");
  out.clear();
  append_exit_event(out, 2, 3);
  EXPECT_EQ(out, "{\"t\":2.000000,\"exit\":3}\n");
  out.clear();
  append_signal_event(out, 2, "SIGKILL");
  EXPECT_EQ(out, "{\"t\":2.000000,\"signal\":\"SIGKILL\"}\n");
}

TEST(RecorderEventEncoder, RecordsInvalidUtf8AtEveryOffsetAsBase64OfTheExactBytes) {
  for (std::size_t offset = 0; offset < 17; ++offset) {
    std::string line(20, '"');
    line[offset] = '\xC3';  // a lead byte without its continuation
    std::string out;
    append_line_event(out, 0, Stream::out, line, false, false);
    const auto event = nlohmann::json::parse(out);
    ASSERT_FALSE(event.contains("line")) << "offset " << offset;
    ASSERT_EQ(base::base64_decode(event.at("line_b64").get<std::string>()), line)
        << "offset " << offset;
  }
}

}  // namespace
}  // namespace claude::recorder
