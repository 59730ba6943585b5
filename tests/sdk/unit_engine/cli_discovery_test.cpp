// Where find_cli looks, in which order, and what CLINotFoundError lists.
#include "process/cli_discovery.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "claude/sdk/errors.hpp"

namespace claude::sdk {
namespace {

namespace fs = std::filesystem;

class CliDiscoveryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root = fs::temp_directory_path() /
           ("sdk-discovery-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root);
    fs::create_directories(root / "bin1");
    fs::create_directories(root / "bin2");
    fs::create_directories(root / "home/.local/bin");
  }
  void TearDown() override { fs::remove_all(root); }
  std::string make_exe(const fs::path& p) {
    std::ofstream(p) << "#!/bin/true\n";
    fs::permissions(p, fs::perms::owner_all);
    return p.string();
  }
  fs::path root;
};

TEST_F(CliDiscoveryTest, ExplicitPathWinsWhenExecutable) {
  std::string exe = make_exe(root / "bin2/claude");
  EXPECT_EQ(find_cli(exe, false, {"", "", ""}), exe);
}

TEST_F(CliDiscoveryTest, MissingExplicitPathIsNotFoundWithoutSearchingFurther) {
  make_exe(root / "bin1/claude");
  try {
    find_cli((root / "nope").string(), false, {(root / "bin1").string(), "", ""});
    FAIL();
  } catch (const CLINotFoundError& e) {
    ASSERT_EQ(e.searched().size(), 1u);
    EXPECT_NE(e.searched()[0].find("Options::cli_path"), std::string::npos);
  }
}

TEST_F(CliDiscoveryTest, FirstPathEntryWithAnExecutableWins) {
  std::string second = make_exe(root / "bin2/claude");
  std::string path = (root / "bin1").string() + ":" + (root / "bin2").string();
  EXPECT_EQ(find_cli("", false, {path, "", ""}), second);
}

TEST_F(CliDiscoveryTest, NonExecutableFileIsSkipped) {
  std::ofstream(root / "bin1/claude") << "not executable";
  fs::permissions(root / "bin1/claude", fs::perms::owner_read);
  std::string home = (root / "home").string();
  std::string local = make_exe(root / "home/.local/bin/claude");
  EXPECT_EQ(find_cli("", false, {(root / "bin1").string(), home, ""}), local);
}

TEST_F(CliDiscoveryTest, NotFoundListsEveryPlaceInOrder) {
  std::string home = (root / "home").string();
  try {
    find_cli("", false, {(root / "bin1").string(), home, ""});
    FAIL();
  } catch (const CLINotFoundError& e) {
    const auto& s = e.searched();
    ASSERT_GE(s.size(), 8u);
    EXPECT_EQ(s[0], "PATH entry " + (root / "bin1/claude").string());
    EXPECT_EQ(s[1], "known location " + home + "/.npm-global/bin/claude");
    EXPECT_EQ(s[2], "known location /usr/local/bin/claude");
    EXPECT_NE(s.back().find("login shell"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(home + "/.claude/local/claude"), std::string::npos);
  }
}

TEST_F(CliDiscoveryTest, LoginShellAnswerIsUsedWhenAskedFor) {
  std::string hidden = make_exe(root / "bin2/claude");
  // A stand-in login shell that prints the path `command -v` would print.
  std::string shell = (root / "fake-shell").string();
  std::ofstream(shell) << "#!/bin/sh\necho 'Welcome banner'\necho " << hidden << "\n";
  fs::permissions(shell, fs::perms::owner_all);
  EXPECT_EQ(find_cli("", true, {(root / "bin1").string(), (root / "home").string(), shell}),
            hidden);
}

}  // namespace
}  // namespace claude::sdk
