// `harness check` with two jobs starts the cases expected to take longest first; with one job it
// keeps case id order. The driver logs which case it was started for and holds each case until as
// many cases as there are jobs have started, so the log order is the start order.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "claude/conformance/check_command.hpp"

namespace claude::conformance {
namespace {

namespace fs = std::filesystem;

const std::string kData = CONFORMANCE_TEST_DATA;

// The case file names, in the order the driver was started for them.
std::vector<std::string> started_cases(const std::string& jobs) {
  const fs::path log = fs::temp_directory_path() /
                       ("run-order-" + std::to_string(::getpid()) + "-j" + jobs + ".log");
  fs::remove(log);
  ::setenv("RUN_ORDER_LOG", log.c_str(), 1);
  ::setenv("RUN_ORDER_STARTS", jobs.c_str(), 1);
  const std::vector<std::string> args = {"--sdk",
                                         "sh " + kData + "/run-order-driver.sh",
                                         "--suite",
                                         kData + "/run-order",
                                         "--fake-claude",
                                         "/bin/true",
                                         "-j",
                                         jobs,
                                         "-q"};
  std::ostringstream out;
  std::ostringstream err;
  run_check(args, out, err);
  std::vector<std::string> names;
  std::ifstream in(log);
  for (std::string line; std::getline(in, line);) names.push_back(fs::path(line).filename());
  fs::remove(log);
  return names;
}

TEST(RunOrderCheck, TwoJobsStartTheLongestCasesFirst) {
  const auto started = started_cases("2");
  ASSERT_EQ(started.size(), 3u);
  EXPECT_EQ(started[2], "no-waits.ndjson");
  EXPECT_NE(std::find(started.begin(), started.begin() + 2, "hangs.ndjson"), started.begin() + 2);
}

TEST(RunOrderCheck, OneJobKeepsCaseIdOrder) {
  EXPECT_EQ(started_cases("1"),
            (std::vector<std::string>{"hangs.ndjson", "no-waits.ndjson", "waits.ndjson"}));
}

}  // namespace
}  // namespace claude::conformance
