#include "claude/conformance/driver_run.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

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

namespace claude::conformance {
namespace {

bool process_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  return close != std::string::npos && text.size() > close + 2 && text[close + 2] != 'Z';
}

TEST(DriverRun, EndsWhatTheDriverStartedEvenOutsideItsProcessGroup) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("driver-run-setsid-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto pid_file = dir / "pid";
  DriverRunRequest r;
  r.argv = {"/bin/sh", "-c",
            "setsid sh -c 'echo $$ >\"$1\"; exec sleep 300' sh " + pid_file.string() +
                " </dev/null >/dev/null 2>&1 & sleep 0.3; exit 0"};
  const auto outcome = run_driver(r);
  std::ifstream in(pid_file);
  pid_t escaped = 0;
  in >> escaped;
  std::filesystem::remove_all(dir);
  ASSERT_GT(escaped, 0);
  EXPECT_EQ(outcome.driver_exit, 0);
  bool running = process_running(escaped);
  for (int i = 0; running && i < 100; ++i) {
    ::usleep(10000);
    running = process_running(escaped);
  }
  if (running) ::kill(escaped, SIGKILL);
  EXPECT_FALSE(running) << "the setsid process " << escaped << " outlived its case";
}

TEST(DriverRun, TheFirstFailingRunDecidesWhenTheDriverStartedSeveral) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("driver-run-runs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  DriverRunRequest r;
  // Stands in for two fake-claude sessions: the first failed, the second passed.
  r.argv = {
      "/bin/sh", "-c",
      "cd \"$FAKE_CLAUDE_RUNS\" && echo 1 >run-1.started && "
      "echo '{\"verdict\":\"fail\",\"name\":\"first\"}' >run-1.json && "
      "echo 2 >run-2.started && echo '{\"verdict\":\"pass\",\"name\":\"second\"}' >run-2.json"};
  r.runs_dir = dir;
  const auto outcome = run_driver(r);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(outcome.fake_report);
  EXPECT_EQ((*outcome.fake_report)["name"], "first");
  EXPECT_EQ((*outcome.fake_report)["runs_graded"], 2);
}

}  // namespace
}  // namespace claude::conformance
