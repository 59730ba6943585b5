#include "claude/recorder/real_cli_locator.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "claude/test_support/temp_dir.hpp"

namespace claude::recorder {
namespace {

class RecorderRealCliLocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_ / "tee-bin");
    std::filesystem::create_directories(dir_ / "real-bin");
    make_executable(dir_ / "claude-tee");
    make_executable(dir_ / "real-bin/claude");
    std::filesystem::create_symlink(dir_ / "claude-tee", dir_ / "tee-bin/claude");
    search_.self = *file_identity(dir_ / "claude-tee");
  }

  static void make_executable(const std::filesystem::path& p) {
    std::ofstream(p) << "#!/bin/sh\n";
    ::chmod(p.c_str(), 0755);
  }

  test_support::TempDir temp_{"real-cli-locator-test"};
  const std::filesystem::path dir_ = temp_.path();
  RealCliSearch search_;
};

TEST_F(RecorderRealCliLocatorTest, SkipsASymlinkToItselfOnPath) {
  search_.path_variable = (dir_ / "tee-bin").string() + ":" + (dir_ / "real-bin").string();
  EXPECT_EQ(locate_real_cli(search_), dir_ / "real-bin/claude");
}

TEST_F(RecorderRealCliLocatorTest, SkipsAHardLinkToItself) {
  std::filesystem::create_directories(dir_ / "hard");
  std::filesystem::create_hard_link(dir_ / "claude-tee", dir_ / "hard/claude");
  search_.path_variable = (dir_ / "hard").string() + ":" + (dir_ / "real-bin").string();
  EXPECT_EQ(locate_real_cli(search_), dir_ / "real-bin/claude");
}

TEST_F(RecorderRealCliLocatorTest, PrefersTheExplicitPath) {
  make_executable(dir_ / "other");
  search_.explicit_path = (dir_ / "other").string();
  search_.path_variable = (dir_ / "real-bin").string();
  EXPECT_EQ(locate_real_cli(search_), dir_ / "other");
}

TEST_F(RecorderRealCliLocatorTest, RefusesAnExplicitPathThatIsItself) {
  search_.explicit_path = (dir_ / "tee-bin/claude").string();
  EXPECT_THROW((void)locate_real_cli(search_), RealCliError);
}

TEST_F(RecorderRealCliLocatorTest, RefusesAnExplicitPathThatIsNotExecutable) {
  std::ofstream(dir_ / "plain") << "data";
  search_.explicit_path = (dir_ / "plain").string();
  EXPECT_THROW((void)locate_real_cli(search_), RealCliError);
}

TEST_F(RecorderRealCliLocatorTest, FallsBackToTheUsualInstallLocationsUnderHome) {
  std::filesystem::create_directories(dir_ / "home/.local/bin");
  make_executable(dir_ / "home/.local/bin/claude");
  search_.path_variable = (dir_ / "tee-bin").string();
  search_.home = (dir_ / "home").string();
  // /usr/local/bin/claude comes earlier in the list; on a machine that has one, this test
  // would find it, so only check the order when it is absent.
  if (!std::filesystem::exists("/usr/local/bin/claude")) {
    EXPECT_EQ(locate_real_cli(search_), dir_ / "home/.local/bin/claude");
  }
  const auto candidates = real_cli_candidates(search_);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), dir_ / "home/.local/bin/claude"),
            candidates.end());
}

TEST_F(RecorderRealCliLocatorTest, SaysWhatToSetWhenNothingIsFound) {
  search_.path_variable = (dir_ / "tee-bin").string();
  search_.home = (dir_ / "empty-home").string();
  if (std::filesystem::exists("/usr/local/bin/claude")) GTEST_SKIP() << "a claude is installed";
  try {
    (void)locate_real_cli(search_);
    FAIL();
  } catch (const RealCliError& e) {
    EXPECT_NE(std::string(e.what()).find("CLAUDE_TEE_REAL_CLI"), std::string::npos);
  }
}

}  // namespace
}  // namespace claude::recorder
