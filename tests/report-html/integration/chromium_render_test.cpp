// The HTML report in a real browser: a page rendered from a suite report, a hand-made failing
// fake-claude report and a report fake-claude just wrote, loaded in headless Chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "claude/test_support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kData = REPORT_HTML_TEST_DATA_DIR;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The opening <html …> tag of a serialised document.
std::string html_tag(const std::string& document) {
  const auto start = document.find("<html");
  if (start == std::string::npos) return {};
  return document.substr(start, document.find('>', start) - start + 1);
}

// Paths here come from the build and TempDir, never from input; quoting keeps spaces safe.
std::string quoted(const std::string& text) {
  // Appended rather than "'" + text, which trips GCC 12's -Wrestrict false positive.
  std::string out(1, '\'');
  out += text;
  out += '\'';
  return out;
}

class ChromiumRender : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_STRNE(CHROMIUM_PATH, "") << "chromium not found at configure time; scripts/bootstrap "
                                       "installs it (Debian package `chromium`)";
  }

  // One Chromium run with a fresh profile; stdout goes to `stdout_file`.
  int chromium(const std::string& mode_flags, const fs::path& page, const fs::path& stdout_file) {
    const fs::path profile = dir_ / ("profile-" + std::to_string(runs_++));
    const std::string command =
        quoted(CHROMIUM_PATH) +
        " --headless --no-sandbox --disable-gpu --disable-background-networking"
        " --disable-component-update --disable-sync --no-first-run --user-data-dir=" +
        quoted(profile.string()) + " " + mode_flags + " " + quoted("file://" + page.string()) +
        " >" + quoted(stdout_file.string()) + " 2>>" + quoted((dir_ / "chromium.log").string());
    return std::system(command.c_str());
  }

  // Writes fake-claude's report for the bundled basic-turn scenario played against a scripted
  // SDK (the lines in basic-turn.stdin.ndjson).
  fs::path real_fake_claude_report() {
    const fs::path report = dir_ / "basic-turn.report.json";
    const std::string command =
        "FAKE_CLAUDE_REPORT=" + quoted(report.string()) + " " + quoted(FAKE_CLAUDE_PATH) +
        " --output-format stream-json --input-format stream-json --verbose --scenario " +
        quoted(std::string(SCENARIOS_DIR) + "/verbs/basic-turn.ndjson") + " <" +
        quoted(kData + "/basic-turn.stdin.ndjson") + " >/dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return report;
  }

  fs::path render(const std::vector<std::string>& inputs) {
    const fs::path page = dir_ / "report.html";
    std::string command = quoted(REPORT_HTML_PATH) + " -o " + quoted(page.string());
    for (const auto& input : inputs) command += " " + quoted(input);
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
    return page;
  }

  const claude::test_support::TempDir temp_{"report_html_chromium"};
  const fs::path dir_ = temp_.path();
  int runs_ = 0;
};

TEST_F(ChromiumRender, ScreenshotsAPageWhoseScriptRanWithoutErrors) {
  const fs::path fresh = real_fake_claude_report();
  const auto fresh_report = nlohmann::json::parse(read_file(fresh), nullptr, false);
  ASSERT_TRUE(fresh_report.is_object());
  EXPECT_EQ(fresh_report.value("verdict", ""), "pass") << fresh_report.dump();
  const fs::path page =
      render({kData + "/suite.json", kData + "/fake-claude-fail.json", fresh.string()});

  const fs::path dom = dir_ / "dom.html";
  ASSERT_EQ(chromium("--dump-dom", page, dom), 0) << read_file(dir_ / "chromium.log");
  // The page's scripts leave their results as attributes of <html> (the script text itself
  // mentions them too, so only the tag is searched).
  const std::string root_tag = html_tag(read_file(dom));
  // Three suite cases, the hand-made report and the fresh one.
  EXPECT_NE(root_tag.find("data-report-ready=\"5\""), std::string::npos) << root_tag;
  EXPECT_EQ(root_tag.find("data-script-errors"), std::string::npos) << root_tag;

  const fs::path png = dir_ / "report.png";
  ASSERT_EQ(chromium("--window-size=1100,1800 --screenshot=" + quoted(png.string()), page,
                     dir_ / "screenshot.out"),
            0)
      << read_file(dir_ / "chromium.log");
  const std::string image = read_file(png);
  ASSERT_GT(image.size(), 10000U) << "a near-empty screenshot";
  EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
}

// The check above would be worthless if a broken script went unnoticed: break one on purpose.
TEST_F(ChromiumRender, NoticesAScriptErrorOnThePage) {
  const fs::path page = render({kData + "/suite.json"});
  std::string html = read_file(page);
  const auto end = html.rfind("</body>");
  ASSERT_NE(end, std::string::npos);
  html.insert(end, "<script>undefinedFunctionOnPurpose();</script>\n");
  std::ofstream(page, std::ios::binary | std::ios::trunc) << html;

  const fs::path dom = dir_ / "dom.html";
  ASSERT_EQ(chromium("--dump-dom", page, dom), 0) << read_file(dir_ / "chromium.log");
  const std::string root_tag = html_tag(read_file(dom));
  EXPECT_NE(root_tag.find("data-script-errors=\"Uncaught ReferenceError"), std::string::npos)
      << root_tag;
}

}  // namespace
