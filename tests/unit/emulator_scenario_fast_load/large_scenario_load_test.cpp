// A scenario file is read in blocks of 1 MiB (grown for a longer line, up to 16 MiB) and framed in
// place. These tests hold it to load_scenario_text on the same text: the same steps, line numbers
// and bytes, and the same errors in the same order (the first bad line first), wherever the block
// boundaries fall.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "claude/emulator/scenario.hpp"

namespace claude::emulator {
namespace {

namespace fs = std::filesystem;

class LargeScenarioLoad : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("large_scenario_load_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Loads `text` from a file and from memory; both results, file first.
  std::pair<LoadResult, LoadResult> load_both(const std::string& text) const {
    const fs::path path = dir_ / "large.ndjson";
    std::ofstream(path, std::ios::binary) << text;
    return {load_scenario_file(path), load_scenario_text(text, path.string())};
  }

  // Spoils `text` in four places, early and late, and compares the errors of both loads.
  void expect_errors_in_file_order(std::string text) const;

  fs::path dir_;
};

// A replay-like raw line of about `bytes` bytes: an escaped stream-json message.
std::string raw_line(std::size_t bytes, int n) {
  std::string text =
      R"({"raw":"{\"type\":\"assistant\",\"n\":)" + std::to_string(n) + R"(,\"text\":\")";
  while (text.size() < bytes)
    text += "xxxxxxxxxxxxxxx\\\\ \\\"q\\\" \\u00e9 \xC3\xA9 \\ud83d\\ude00 \\n";
  return text + R"(\"}\n"})";
}

// Everything a step carries, bytes decoded.
void expect_same(const LoadResult& file, const LoadResult& text) {
  ASSERT_EQ(file.errors.size(), text.errors.size());
  for (std::size_t i = 0; i < file.errors.size(); ++i) {
    EXPECT_EQ(file.errors[i].to_string(), text.errors[i].to_string());
  }
  ASSERT_EQ(file.ok(), text.ok());
  if (!file.ok()) return;
  const Scenario& a = *file.scenario;
  const Scenario& b = *text.scenario;
  ASSERT_EQ(a.steps.size(), b.steps.size());
  EXPECT_TRUE(to_ndjson(a) == to_ndjson(b));  // not EXPECT_EQ: no diff of megabytes
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    SCOPED_TRACE("step " + std::to_string(i));
    EXPECT_EQ(a.steps[i].verb, b.steps[i].verb);
    EXPECT_EQ(a.steps[i].line, b.steps[i].line);
    EXPECT_EQ(a.steps[i].value, b.steps[i].value);
    EXPECT_EQ(a.steps[i].bytes(), b.steps[i].bytes());
  }
}

// `raw_lines` raw lines of 64 KiB (96: ~6 MiB, read by one thread; 160: ~10 MiB, read by two) with
// every kind of line the framing treats apart, across several block boundaries: CRLF, a BOM,
// comments, blank lines, stderr with spaces, a send, and a last raw line without its newline
// (copied by the LineBuffer, so parsed, not matched).
std::string mixed_scenario(int raw_lines = 96) {
  std::string text = "{\"scenario\":1,\"name\":\"large\"}\n{\"expect\":{\"type\":\"user\"}}\n";
  for (int i = 0; i < raw_lines; ++i) {
    text += raw_line(64 << 10, i);
    switch (i % 6) {
      case 0:
        text += "\r\n";
        break;
      case 1:
        text += "\n# a comment\n\n   \n";
        break;
      case 2:
        text += "\n\xEF\xBB\xBF{ \"stderr\" : \"warn \\\"x\\\"\\r\\n\" }\n";
        break;
      case 3:
        text += "\n{\"send\":{\"type\":\"x\",\"n\":" + std::to_string(i) + "}}\n";
        break;
      default:
        text += "\n";
    }
  }
  return text + raw_line(1000, raw_lines);
}

// Sizes of mixed_scenario: below and above the size a second thread reads the back half from.
constexpr int kOneThread = 96;
constexpr int kTwoThreads = 160;

TEST_F(LargeScenarioLoad, BlocksGiveTheStepsOfOnePass) {
  for (const int raw_lines : {kOneThread, kTwoThreads}) {
    SCOPED_TRACE("raw lines: " + std::to_string(raw_lines));
    const std::string text = mixed_scenario(raw_lines);
    ASSERT_GT(text.size(), std::size_t{5} << 20);
    const auto [file, memory] = load_both(text);
    ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
    expect_same(file, memory);
    // Raw and stderr (after a BOM) strings stay in the file, in the back half too.
    const std::size_t last_line = file.scenario->steps.back().line;
    std::size_t late_raw = 0, late_stderr = 0;
    for (const Step& step : file.scenario->steps) {
      if (step.escaped == nullptr || step.line < last_line * 3 / 4) continue;
      ++(step.verb == Verb::raw ? late_raw : late_stderr);
    }
    EXPECT_GT(late_raw, 10u);
    EXPECT_GT(late_stderr, 1u);
  }
}

TEST_F(LargeScenarioLoad, ErrorsInManyBlocksComeInFileOrder) {
  for (const int raw_lines : {kOneThread, kTwoThreads}) {
    SCOPED_TRACE("raw lines: " + std::to_string(raw_lines));
    expect_errors_in_file_order(mixed_scenario(raw_lines));
  }
}

void LargeScenarioLoad::expect_errors_in_file_order(std::string text) const {
  // A bad escape early, a raw control byte and an unknown verb late, a lone surrogate last.
  const auto early = text.find("xxxx", 200 << 10);
  text[early] = '\\';
  text[early + 1] = 'q';
  const auto late = text.find("xxxx", text.size() - (500 << 10));
  text[late] = '\x01';
  text.insert(text.rfind("\n", text.size() - (300 << 10)) + 1, "{\"unknown\":1}\n");
  text.insert(text.size() - 20, "\\udc00");
  const auto [file, memory] = load_both(text);
  ASSERT_FALSE(file.ok());
  ASSERT_GE(file.errors.size(), 4u);
  expect_same(file, memory);
  for (std::size_t i = 1; i < file.errors.size(); ++i) {
    EXPECT_LT(file.errors[i - 1].line, file.errors[i].line);
  }
}

TEST_F(LargeScenarioLoad, OneLateErrorIsTheOnlyError) {
  for (const int raw_lines : {kOneThread, kTwoThreads}) {
    SCOPED_TRACE("raw lines: " + std::to_string(raw_lines));
    std::string text = mixed_scenario(raw_lines);
    const auto late = text.find("xxxx", text.size() * 3 / 4);
    text[late] = '\xFF';
    const auto [file, memory] = load_both(text);
    ASSERT_EQ(file.errors.size(), 1u);
    expect_same(file, memory);
    EXPECT_NE(file.errors[0].reason.find("invalid JSON"), std::string::npos);
  }
}

// A back half of small lines is copied only up to a budget; the loader reads on from the first
// line past it itself. Lines with a CR and with a BOM lie around that point.
TEST_F(LargeScenarioLoad, ABackHalfOfSmallLinesIsReadOnFromWhereTheSecondThreadStopped) {
  std::string text = "{\"scenario\":1}\n";
  int n = 0;
  while (text.size() < (std::size_t{5} << 20)) text += raw_line(64 << 10, n++) + "\n";
  for (int i = 0; text.size() < (std::size_t{11} << 20); ++i) {
    const std::string send = "{\"send\":{\"type\":\"x\",\"n\":" + std::to_string(i) + "}}";
    text += i % 3 == 0 ? send + "\r\n" : i % 3 == 1 ? "\xEF\xBB\xBF" + send + "\n" : send + "\n";
  }
  text += raw_line(1000, n) + "\n{\"exit\":0}\n";
  const auto [file, memory] = load_both(text);
  ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
  expect_same(file, memory);
  // Bad lines among the copied ones and among those read on.
  for (const std::size_t at : {std::size_t{6} << 20, std::size_t{10} << 20}) {
    text.insert(text.find('\n', at) + 1, "{\"unknown\":1}\n");
  }
  const auto [bad_file, bad_memory] = load_both(text);
  ASSERT_EQ(bad_file.errors.size(), 2u);
  expect_same(bad_file, bad_memory);
}

// Raw lines in the back half of a file whose front half has no header yet: the loader needs their
// text after all, and reads it back.
TEST_F(LargeScenarioLoad, RawLinesBeforeTheHeaderAreReadBack) {
  std::string text;
  // The middle of the file falls among the comments, so all raw lines are in the back half.
  while (text.size() < (std::size_t{6} << 20)) text += "# " + std::string(98, 'c') + "\n";
  for (int n = 0; text.size() < (std::size_t{10} << 20); ++n) text += raw_line(64 << 10, n) + "\n";
  const auto [file, memory] = load_both(text);
  ASSERT_FALSE(file.ok());
  expect_same(file, memory);
}

// A line longer than a block grows the block: the line is still read in place, and its string is
// left in the file.
TEST_F(LargeScenarioLoad, ALineLongerThanABlockStaysWhole) {
  for (const std::size_t tail_lines : {0, 1, 40}) {
    SCOPED_TRACE("lines after the long one: " + std::to_string(tail_lines));
    std::string text = "{\"scenario\":1}\n" + raw_line(std::size_t{5} << 20, 0) + "\n";
    for (std::size_t i = 0; i < tail_lines; ++i) text += raw_line(2000, 1) + "\n";
    const auto [file, memory] = load_both(text + "{\"exit\":0}");
    ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
    expect_same(file, memory);
    EXPECT_NE(file.scenario->steps[0].escaped, nullptr);
    const auto [bad_file, bad_memory] = load_both(text + "{\"stderr\":\"bad \\x\"}");
    ASSERT_EQ(bad_file.errors.size(), 1u);
    expect_same(bad_file, bad_memory);
    EXPECT_EQ(bad_file.errors[0].line, tail_lines + 3);
  }
}

// Above the largest block the LineBuffer puts the line together: parsed from its copy, the same.
TEST_F(LargeScenarioLoad, ALineLongerThanTheLargestBlockIsParsedFromACopy) {
  const std::string text = "{\"scenario\":1}\n" + raw_line(std::size_t{17} << 20, 0) + "\n" +
                           raw_line(2000, 1) + "\n{\"exit\":0}\n";
  const auto [file, memory] = load_both(text);
  ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
  expect_same(file, memory);
  EXPECT_EQ(file.scenario->steps[0].escaped, nullptr);
  EXPECT_NE(file.scenario->steps[1].escaped, nullptr);
}

// The file ends exactly at a block boundary, with and without a last newline there.
TEST_F(LargeScenarioLoad, AFileOfWholeBlocks) {
  for (const bool final_newline : {true, false}) {
    SCOPED_TRACE(final_newline ? "ends in a newline" : "ends in a partial line");
    const std::size_t size = std::size_t{2} << 20;
    std::string text = "{\"scenario\":1}\n";
    int n = 0;
    while (text.size() + 70000 < size) text += raw_line(30000, n++) + "\n";
    // The last line fills the file up to `size` exactly.
    std::string last = R"({"raw":")";
    const std::size_t end = final_newline ? 3 : 2;  // "}\n or "}
    last += std::string(size - text.size() - last.size() - end, 'y');
    text += last + (final_newline ? "\"}\n" : "\"}");
    ASSERT_EQ(text.size(), size);
    const auto [file, memory] = load_both(text);
    ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
    expect_same(file, memory);
  }
}

}  // namespace
}  // namespace claude::emulator
