// ProgressLine: the redraw protocol on a terminal and silence everywhere else.
#include "claude/conformance/progress_line.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace claude::conformance {
namespace {

TEST(ProgressLine, DisabledPrintsOnlyWhatItIsGiven) {
  std::ostringstream out;
  {
    ProgressLine progress(out, "check", 2, false);
    progress.print_above("case a PASS\n");
    progress.advance(false);
    progress.advance(true);
  }
  EXPECT_EQ(out.str(), "case a PASS\n");
}

TEST(ProgressLine, EnabledRedrawsInPlaceAndErasesItselfAtTheEnd) {
  std::ostringstream out;
  {
    ProgressLine progress(out, "check", 3, true);
    progress.advance(false);
    progress.print_above("case b FAIL\n");
    progress.advance(true);
    EXPECT_EQ(progress.status().substr(0, 21), "check 2/3 · 1 failed");
  }
  const std::string text = out.str();
  EXPECT_NE(text.find("\r\x1b[Kcheck 0/3 · "), std::string::npos) << text;
  EXPECT_NE(text.find("\r\x1b[Kcase b FAIL\n\r\x1b[Kcheck 1/3 · "), std::string::npos) << text;
  EXPECT_NE(text.find("\r\x1b[Kcheck 2/3 · 1 failed · "), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with("\r\x1b[K")) << text;
}

TEST(ProgressLine, StatusCountsWithoutFailuresOmitsThem) {
  std::ostringstream out;
  ProgressLine progress(out, "record-set", 4, false);
  progress.advance(false);
  const std::string status = progress.status();
  EXPECT_EQ(status.substr(0, 15), "record-set 1/4 ");
  EXPECT_EQ(status.find("failed"), std::string::npos);
  EXPECT_TRUE(status.ends_with(" s")) << status;
}

}  // namespace
}  // namespace claude::conformance
