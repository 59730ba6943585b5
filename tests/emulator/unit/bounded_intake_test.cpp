// fake-claude under floods and huge inputs (issue 31 item 6): the SDK lines it holds, its report
// and its error quotes stay bounded, and what it drops is counted and named in the verdict.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "claude/emulator/report.hpp"
#include "engine_session.hpp"

namespace claude::emulator {
namespace {

// Not strict: a strict run ends at the first line no step can take (fail fast), so only lines a
// later step might take pile up there; here every line is held until the hold is full.
constexpr std::string_view kWaitForResult =
    "{\"scenario\":1,\"name\":\"flood\",\"strict\":false}\n"
    "{\"expect\":{\"type\":\"result\"}}\n";

TEST(BoundedIntake, AFloodOfSdkLinesIsDroppedPastTheHoldAndCounted) {
  Session s(kWaitForResult);
  constexpr std::size_t kLines = kMaxHeldSdkLines + 2000;
  for (std::size_t i = 0; i < kLines; ++i) {
    s.line("{\"type\":\"user\",\"n\":" + std::to_string(i) + "}");
  }
  s.eof();
  const Report& report = s.report();
  EXPECT_EQ(report.dropped_sdk_lines, kLines - kMaxHeldSdkLines);
  EXPECT_EQ(report.transcript.size(), kMaxHeldSdkLines);
  ASSERT_TRUE(report.failure);
  // The verdict names the drop, not only stdin's EOF.
  EXPECT_NE(report.failure->message.find("dropped"), std::string::npos) << report.failure->message;
  const Json json = report_json(report);
  EXPECT_EQ(json["dropped_sdk_lines"], kLines - kMaxHeldSdkLines);
  // Past the hold the report grows by nothing; the stderr text lists a few leftovers, not all.
  EXPECT_LT(json.dump().size(), std::size_t{2} << 20);
  const std::string text = report_text(report);
  EXPECT_LT(text.size(), std::size_t{16} << 10);
  EXPECT_NE(text.find("were dropped unread"), std::string::npos) << text;
}

TEST(BoundedIntake, ALineConsumedAfterTheFloodStillPassesWhileTheHoldHasRoom) {
  Session s(
      "{\"scenario\":1,\"name\":\"flood\",\"strict\":false}\n"
      "{\"expect\":{\"type\":\"result\"}}\n");
  for (int i = 0; i < 100; ++i) s.line("{\"type\":\"user\"}");
  s.line("{\"type\":\"result\"}").eof();
  EXPECT_TRUE(s.report().passed) << s.failure_kind();
  EXPECT_EQ(s.report().dropped_sdk_lines, 0u);
}

TEST(BoundedIntake, AHugeReceivedValueIsQuotedAsAnExcerptInReportAndStderr) {
  Session s("{\"scenario\":1}\n{\"expect\":{\"type\":\"user\",\"x\":\"short\"}}\n");
  const std::string huge(std::size_t{4} << 20, 'v');
  s.line("{\"type\":\"user\",\"x\":\"" + huge + "\"}").eof();
  ASSERT_TRUE(s.report().failure);
  EXPECT_LT(report_json(s.report()).dump().size(), std::size_t{64} << 10);
  EXPECT_LT(report_text(s.report()).size(), std::size_t{4} << 10);
}

TEST(BoundedIntake, ABadJsonTokenOfMegabytesIsQuotedInAFewHundredBytes) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("bounded_intake_" + std::to_string(::getpid()) + ".ndjson");
  {
    std::ofstream file(path, std::ios::binary);
    // An unterminated string: the JSON parser's error quotes the whole token it read.
    file << "{\"scenario\":1}\n{\"send\":{\"type\":\"" << std::string(std::size_t{20} << 20, 'a')
         << "\n";
  }
  auto loaded = load_scenario_file(path);
  std::filesystem::remove(path);
  ASSERT_FALSE(loaded.errors.empty());
  const std::string message = loaded.errors.front().to_string();
  EXPECT_NE(message.find("invalid JSON"), std::string::npos) << message.substr(0, 500);
  EXPECT_LT(message.size(), std::size_t{1024}) << message.substr(0, 500);
}

}  // namespace
}  // namespace claude::emulator
