// harness fuzz as a command: --replay of committed findings against a deliberately broken driver
// and against the C++ SDK, a short campaign that finds the broken driver's bug and writes a
// lint-clean finding, and bad input.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "claude/emulator/scenario.hpp"
#include "claude/fuzzing/scenario_doc.hpp"

namespace {

namespace fs = std::filesystem;

struct Result {
  int exit = -1;
  std::string output;
};

// Runs `harness ARGS` through the shell (arguments are fixed strings of this test).
Result harness(const std::string& args) {
  const std::string command = std::string(HARNESS_PATH) + " " + args + " 2>&1";
  Result result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) result.output += buffer;
  const int status = ::pclose(pipe);
  result.exit = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

Result harness_fuzz(const std::string& args) {
  return harness("fuzz " + args);
}

std::string broken_driver() {
  return std::string("'") + PYTHON3 + " " + FUZZ_TEST_DATA + "/crash_on_unknown_type_driver.py'";
}

fs::path scratch(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("fuzz-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(HarnessFuzz, ReplayOfAFindingExits1WhileTheDriverStillCrashesOnIt) {
  auto r = harness_fuzz("--sdk " + broken_driver() + " --replay " + FUZZ_TEST_DATA +
                        "/unknown-message-type.ndjson");
  EXPECT_EQ(r.exit, 1) << r.output;
  EXPECT_NE(r.output.find("crash:exit-1:KeyError"), std::string::npos) << r.output;
}

TEST(HarnessFuzz, ReplayOfTheSameFindingExits0WithTheCppSdk) {
  auto r = harness_fuzz(std::string("--sdk cpp --replay ") + FUZZ_TEST_DATA +
                        "/unknown-message-type.ndjson");
  EXPECT_EQ(r.exit, 0) << r.output;
  EXPECT_NE(r.output.find("no longer fails"), std::string::npos) << r.output;
}

TEST(HarnessFuzz, TheTaskTypeFindingNoLongerFailsWithTheCppSdk) {
  auto r = harness_fuzz(std::string("--sdk cpp --replay ") + FUZZ_TEST_DATA +
                        "/task-type-not-a-string.ndjson");
  EXPECT_EQ(r.exit, 0) << r.output;
}

TEST(HarnessFuzz, ACampaignFindsTheBrokenDriversCrashAndWritesALintCleanFinding) {
  const fs::path out = scratch("campaign");
  auto r = harness_fuzz("--sdk " + broken_driver() + " --seeds " + FUZZ_TEST_DATA +
                        "/seeds --time 60 --max-execs 40 --seed 3 -j 2 --quiet --out " +
                        out.string() + " --json " + (out / "summary.json").string());
  ASSERT_EQ(r.exit, 1) << r.output;
  std::ifstream summary(out / "summary.json");
  std::stringstream text;
  text << summary.rdbuf();
  const auto json = claude::fuzzing::Json::parse(text.str());
  EXPECT_GT(json["execs"].get<int>(), 0);
  ASSERT_FALSE(json["findings"].empty());
  bool crash = false;
  for (const auto& f : json["findings"]) {
    const auto load = claude::emulator::load_scenario_file(f["file"].get<std::string>());
    EXPECT_TRUE(load.ok()) << f["file"];
    if (f["signature"].get<std::string>().starts_with("crash:exit-1:")) crash = true;
  }
  EXPECT_TRUE(crash) << text.str();
  fs::remove_all(out);
}

TEST(HarnessFuzz, AFindingThatDoesNotLoadIsExit2WithFileAndLine) {
  auto r = harness_fuzz(std::string("--sdk cpp --replay ") + FUZZ_TEST_DATA +
                        "/bad/unknown-verb.ndjson");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("unknown-verb.ndjson:2:"), std::string::npos) << r.output;
}

TEST(HarnessFuzz, UsageErrorsAreExit2) {
  EXPECT_EQ(harness_fuzz("--time 5").exit, 2);               // no --sdk
  EXPECT_EQ(harness_fuzz("--sdk cpp --time soon").exit, 2);  // not a number
  EXPECT_EQ(harness_fuzz("--sdk cpp --bogus").exit, 2);
  EXPECT_EQ(harness_fuzz("--sdk cpp --seeds /nonexistent/dir --time 1").exit, 2);
}

TEST(HarnessFuzz, ADriverCommandThatCannotRunIsAUsageErrorNotAFinding) {
  const fs::path out = scratch("no-such-driver");
  auto r = harness_fuzz("--sdk no-such-driver-command --time 5 --out " + out.string());
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("'no-such-driver-command' is no executable file"), std::string::npos)
      << r.output;
  EXPECT_TRUE(fs::is_empty(out)) << "a driver that cannot start left a finding";
  fs::remove_all(out);
}

TEST(HarnessFuzz, CheckRefusesTheSameDriverCommandWithExit2) {
  auto r = harness("check --sdk no-such-driver-command");
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("is no executable file"), std::string::npos) << r.output;
}

}  // namespace
