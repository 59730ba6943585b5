#include "claude/report_html/report_html_cli.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace claude::report_html {
namespace {

namespace fs = std::filesystem;

const std::string kData = REPORT_HTML_TEST_DATA_DIR;

class ReportHtmlCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("report_html_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  int run(const std::vector<std::string>& args) {
    out_.str("");
    err_.str("");
    return run_report_html_cli(args, out_, err_);
  }

  fs::path dir_;
  std::ostringstream out_;
  std::ostringstream err_;
};

TEST_F(ReportHtmlCli, WritesThePageToTheOutputFile) {
  const fs::path page = dir_ / "report.html";
  EXPECT_EQ(run({"-o", page.string(), "--title", "nightly", kData + "/suite.json",
                 kData + "/fake-claude-fail.json"}),
            kExitOk)
      << err_.str();
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("<title>nightly</title>"), std::string::npos);
  EXPECT_NE(err_.str().find("4 cases, 2 failing"), std::string::npos);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1)
      << "no temporary file is left beside the page";
}

TEST_F(ReportHtmlCli, WritesToStandardOutputWithoutDashO) {
  EXPECT_EQ(run({kData + "/suite.json"}), kExitOk);
  EXPECT_EQ(out_.str().rfind("<!DOCTYPE html>", 0), 0U);
}

TEST_F(ReportHtmlCli, RejectsAMissingFileNamingIt) {
  EXPECT_EQ(run({(dir_ / "absent.json").string()}), kExitUsage);
  EXPECT_NE(err_.str().find("absent.json: cannot open"), std::string::npos);
}

TEST_F(ReportHtmlCli, RejectsInvalidJsonWithFileAndLine) {
  const fs::path bad = dir_ / "bad.json";
  std::ofstream(bad) << "{\"report\": 1,\n\"verdict\": }\n";
  EXPECT_EQ(run({bad.string()}), kExitUsage);
  EXPECT_NE(err_.str().find("bad.json:2: not JSON"), std::string::npos) << err_.str();
}

TEST_F(ReportHtmlCli, RejectsADocumentOfNeitherKindAndWritesNothing) {
  const fs::path page = dir_ / "report.html";
  EXPECT_EQ(run({"-o", page.string(), kData + "/not-a-report.json"}), kExitUsage);
  EXPECT_NE(err_.str().find("not-a-report.json: neither"), std::string::npos);
  EXPECT_FALSE(fs::exists(page));
}

TEST_F(ReportHtmlCli, ExplainsUsage) {
  EXPECT_EQ(run({"--help"}), kExitOk);
  EXPECT_NE(out_.str().find("usage: claude-report-html"), std::string::npos);
  EXPECT_EQ(run({}), kExitUsage);
  EXPECT_EQ(run({"--frobnicate", "x.json"}), kExitUsage);
  EXPECT_NE(err_.str().find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_EQ(run({"-o"}), kExitUsage);
  EXPECT_NE(err_.str().find("-o needs a value"), std::string::npos);
}

TEST_F(ReportHtmlCli, WritesThePagePrivateAndKeepsAnExistingFileWithoutForce) {
  const fs::path page = dir_ / "report.html";
  ::umask(022);
  ASSERT_EQ(run({"-o", page.string(), kData + "/suite.json"}), kExitOk) << err_.str();
  struct stat info {};
  ASSERT_EQ(::stat(page.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  EXPECT_EQ(run({"-o", page.string(), "--title", "second", kData + "/suite.json"}), kExitUsage);
  EXPECT_NE(err_.str().find("never overwritten without --force"), std::string::npos) << err_.str();
  EXPECT_EQ(run({"-o", page.string(), "--force", "--title", "second", kData + "/suite.json"}),
            kExitOk);
  std::ifstream in(page);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("<title>second</title>"), std::string::npos);
}

TEST_F(ReportHtmlCli, NeverWritesThroughASymlink) {
  const fs::path victim = dir_ / "victim.txt";
  std::ofstream(victim) << "keep me\n";
  const fs::path page = dir_ / "report.html";
  fs::create_symlink(victim, page);
  EXPECT_EQ(run({"-o", page.string(), kData + "/suite.json"}), kExitUsage);
  EXPECT_EQ(run({"-o", page.string(), "--force", kData + "/suite.json"}), kExitOk) << err_.str();
  std::ifstream in(victim);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(kept, "keep me\n");
  EXPECT_FALSE(fs::is_symlink(page));
}

TEST_F(ReportHtmlCli, FailsWhenTheOutputCannotBeWritten) {
  EXPECT_EQ(run({"-o", (dir_ / "no-such-dir" / "r.html").string(), kData + "/suite.json"}),
            kExitUsage);
  EXPECT_NE(err_.str().find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace claude::report_html
