// AcceptBackoff: the wait doubles to a ceiling while accept(2) keeps failing, a success resets
// it, and the log is one line per interval that counts the failures it stands for.
#include "accept_backoff.hpp"

#include <gtest/gtest.h>

namespace claude::model_stub {
namespace {

using namespace std::chrono_literals;

TEST(AcceptBackoff, WaitDoublesToTheCeilingAndASuccessResetsIt) {
  AcceptBackoff backoff;
  const auto now = AcceptBackoff::Clock::now();
  std::chrono::milliseconds last{0};
  for (int i = 0; i < 20; ++i) last = backoff.on_failure("Too many open files", now).wait;
  EXPECT_EQ(last, AcceptBackoff::kLongestWait);
  backoff.on_success();
  EXPECT_EQ(backoff.on_failure("x", now).wait, AcceptBackoff::kFirstWait);
}

TEST(AcceptBackoff, LogsOncePerIntervalWithTheCountOfFailures) {
  AcceptBackoff backoff;
  const auto start = AcceptBackoff::Clock::now();
  int lines = 0;
  std::string last;
  for (int i = 0; i < 1000; ++i) {
    auto step = backoff.on_failure("Too many open files", start + i * 25ms);
    if (step.log) {
      ++lines;
      last = *step.log;
    }
  }
  // 25 s of failures: at 0, 10 and 20 s.
  EXPECT_EQ(lines, 3);
  EXPECT_NE(last.find("Too many open files (400 failures since the last message)"),
            std::string::npos)
      << last;
}

}  // namespace
}  // namespace claude::model_stub
