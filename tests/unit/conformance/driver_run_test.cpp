#include "claude/conformance/driver_run.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace claude::conformance {
namespace {

DriverRunRequest request_for(std::vector<std::string> args, int deadline_ms = 10000) {
  DriverRunRequest r;
  r.argv = {TEST_DRIVER_PATH};
  r.argv.insert(r.argv.end(), args.begin(), args.end());
  r.deadline = std::chrono::milliseconds(deadline_ms);
  return r;
}

TEST(DriverRun, CollectsObservationsStderrAndTheReport) {
  auto dir = std::filesystem::temp_directory_path() / ("driver-run-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto r = request_for({"observe"});
  r.report_path = dir / "report.json";
  r.env = {{"FAKE_CLAUDE_REPORT", r.report_path.string()}, {"FAKE_CLAUDE_SCENARIO", "case.ndjson"}};
  auto outcome = run_driver(r);
  std::filesystem::remove_all(dir);
  EXPECT_EQ(outcome.driver_exit, 0);
  ASSERT_EQ(outcome.observations.size(), 2u);
  EXPECT_EQ(outcome.observations[0]["scenario"], "case.ndjson");
  ASSERT_EQ(outcome.bad_lines.size(), 1u);
  EXPECT_EQ(outcome.bad_lines[0], "not json");
  EXPECT_NE(outcome.driver_stderr.find("some diagnostics"), std::string::npos);
  ASSERT_TRUE(outcome.fake_report);
  EXPECT_EQ((*outcome.fake_report)["verdict"], "pass");
}

TEST(DriverRun, ReportsTheExitCode) {
  EXPECT_EQ(run_driver(request_for({"exit", "4"})).driver_exit, 4);
}

TEST(DriverRun, StopsADriverThatHangsAtTheDeadline) {
  auto outcome = run_driver(request_for({"hang"}, 300));
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.driver_exit);
  EXPECT_EQ(outcome.observations.size(), 1u);
}

TEST(DriverRun, DoesNotWaitForAGrandchildHoldingThePipes) {
  auto outcome = run_driver(request_for({"orphan"}, 20000));
  EXPECT_EQ(outcome.driver_exit, 0);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_LT(outcome.seconds, 10.0);
}

TEST(DriverRun, ReportsACommandThatCannotStart) {
  DriverRunRequest r;
  r.argv = {"/nonexistent/driver"};
  auto outcome = run_driver(r);
  EXPECT_EQ(outcome.driver_exit, 127);
  EXPECT_NE(outcome.driver_stderr.find("cannot start"), std::string::npos);
}

}  // namespace
}  // namespace claude::conformance
