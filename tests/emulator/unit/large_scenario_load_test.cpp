// A scenario file is read in chunks of 1 MiB and framed by the LineBuffer, which copies a line
// that spans chunks. These tests hold it to load_scenario_text on the same text: the same steps,
// line numbers and bytes, and the same errors in the same order (the first bad line first),
// wherever the chunk boundaries fall.
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
    EXPECT_EQ(a.steps[i].text, b.steps[i].text);
  }
}

// 96 raw lines of 64 KiB (~6 MiB) with every kind of line the framing treats apart, across
// several chunk boundaries: CRLF, a BOM, comments, blank lines, stderr with spaces, a send, and a
// last raw line without its newline.
std::string mixed_scenario() {
  constexpr int raw_lines = 96;
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

TEST_F(LargeScenarioLoad, ChunksGiveTheStepsOfOnePass) {
  const std::string text = mixed_scenario();
  ASSERT_GT(text.size(), std::size_t{5} << 20);
  const auto [file, memory] = load_both(text);
  ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
  expect_same(file, memory);
}

TEST_F(LargeScenarioLoad, ErrorsInManyChunksComeInFileOrder) {
  expect_errors_in_file_order(mixed_scenario());
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
  std::string text = mixed_scenario();
  const auto late = text.find("xxxx", text.size() * 3 / 4);
  text[late] = '\xFF';
  const auto [file, memory] = load_both(text);
  ASSERT_EQ(file.errors.size(), 1u);
  expect_same(file, memory);
  EXPECT_NE(file.errors[0].reason.find("invalid JSON"), std::string::npos);
}

// Megabytes of comments, then raw lines with no header before them: every line an error.
TEST_F(LargeScenarioLoad, RawLinesWithoutAHeaderAreErrors) {
  std::string text;
  while (text.size() < (std::size_t{6} << 20)) text += "# " + std::string(98, 'c') + "\n";
  for (int n = 0; text.size() < (std::size_t{10} << 20); ++n) text += raw_line(64 << 10, n) + "\n";
  const auto [file, memory] = load_both(text);
  ASSERT_FALSE(file.ok());
  expect_same(file, memory);
}

// A line longer than a chunk is put together by the LineBuffer.
TEST_F(LargeScenarioLoad, ALineLongerThanAChunkStaysWhole) {
  for (const std::size_t tail_lines : {0, 1, 40}) {
    SCOPED_TRACE("lines after the long one: " + std::to_string(tail_lines));
    std::string text = "{\"scenario\":1}\n" + raw_line(std::size_t{5} << 20, 0) + "\n";
    for (std::size_t i = 0; i < tail_lines; ++i) text += raw_line(2000, 1) + "\n";
    const auto [file, memory] = load_both(text + "{\"exit\":0}");
    ASSERT_TRUE(file.ok()) << file.errors[0].to_string();
    expect_same(file, memory);
    const auto [bad_file, bad_memory] = load_both(text + "{\"stderr\":\"bad \\x\"}");
    ASSERT_EQ(bad_file.errors.size(), 1u);
    expect_same(bad_file, bad_memory);
    EXPECT_EQ(bad_file.errors[0].line, tail_lines + 3);
  }
}

// The file ends exactly at a chunk boundary, with and without a last newline there.
TEST_F(LargeScenarioLoad, AFileOfWholeChunks) {
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
